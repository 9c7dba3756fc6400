"""What each game's card fields may hold (the deckcheck card CSV of the contract)."""

from __future__ import annotations

GAMES = ("dcg", "dbe", "digibattle", "dmcg")

KINDS = {
    "dcg": ("digimon", "digi-egg", "tamer", "option"),
    "dbe": ("digimon", "option", "evolution", "data", "mastery"),
    "digibattle": ("digimon", "option"),
    "dmcg": ("digimon", "option"),
}

# Canonical spelling of each level; input is matched case-insensitively.
LEVELS = {
    "dcg": ("2", "3", "4", "5", "6", "7"),
    "dbe": ("R", "C", "U", "M"),
    "digibattle": ("rookie", "champion", "ultimate", "mega"),
    "dmcg": ("III", "IV", "perfect", "ultimate", "hybrid"),
}

FLAGS = {
    "dcg": ("token",),
    "dbe": ("ace", "firewall", "proxy", "gem", "flip", "token"),
    "digibattle": (),
    "dmcg": (),
}

DCG_COLORS = ("Red", "Blue", "Yellow", "Green", "Black", "Purple", "White")


def canonical_level(game: str, text: str) -> str | None:
    """The canonical spelling of a level, or None when the game has no such level."""
    lookup = {level.casefold(): level for level in LEVELS[game]}
    return lookup.get(text.strip().casefold())
