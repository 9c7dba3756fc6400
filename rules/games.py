"""One description of each game: what everything else in deckcheck reads.

Adding a game means adding one `Game` here and its formats in `rules/builtin/`;
the card importers, the resolver, the charts, the exports, the API schemas and the
pages take their sections, kinds, levels and names from this registry.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SIDE = "side"

# How sections are called: `title` in exported text and headings, `words` in messages.
SECTION_TITLES = {"main": "Main Deck", "eggs": "Digi-Egg Deck", "destiny": "Destiny Zone"}
SECTION_WORDS = {"main": "main deck", "eggs": "Digi-Egg deck", "destiny": "Destiny Zone"}


@dataclass(frozen=True)
class AutoSection:
    """Cards of these kinds or levels go to `section` when the text does not say."""

    section: str
    kinds: frozenset[str] = frozenset()
    levels: frozenset[str] = frozenset()

    def takes(self, kind: str, level: str | None) -> bool:
        return kind in self.kinds or (level or "").upper() in self.levels


@dataclass(frozen=True)
class Game:
    """A card game: its deck sections and the vocabulary of its card list.

    `headers_decide`: section headers in pasted text place the cards (DBE); otherwise
    headers are hints and `auto_sections` sort cards by kind (DCG eggs).
    """

    id: str
    name: str
    sections: tuple[str, ...]
    kinds: tuple[str, ...]
    levels: tuple[str, ...]
    flags: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    auto_sections: tuple[AutoSection, ...] = ()
    headers_decide: bool = False
    has_partner: bool = False
    has_deck_codes: bool = False
    # TTS arrays keep section headers only where sections are not sorted by kind.
    tts_headers: bool = False
    json_card_list: bool = False
    starter_pool: bool = False
    notes: tuple[str, ...] = field(default=())

    def canonical_level(self, text: str) -> str | None:
        """The canonical spelling of a level, or None when the game has no such level."""
        wanted = text.strip().casefold()
        return next((level for level in self.levels if level.casefold() == wanted), None)

    def route(self, kind: str, level: str | None, hint: str | None, has_headers: bool) -> str:
        """The section a card read from text belongs to (the contract's "Decklist input")."""
        if hint == SIDE:
            return SIDE
        if self.headers_decide and has_headers:
            return hint or "main"
        for auto in self.auto_sections:
            if auto.takes(kind, level):
                return auto.section
        return "main"


GAMES: dict[str, Game] = {
    game.id: game
    for game in (
        Game(
            id="dcg",
            name="Digimon Card Game",
            sections=("main", "eggs"),
            kinds=("digimon", "digi-egg", "tamer", "option"),
            levels=("2", "3", "4", "5", "6", "7"),
            flags=("token",),
            colors=("Red", "Blue", "Yellow", "Green", "Black", "Purple", "White"),
            auto_sections=(AutoSection("eggs", kinds=frozenset({"digi-egg"})),),
            has_deck_codes=True,
            json_card_list=True,
            starter_pool=True,
        ),
        Game(
            id="dbe",
            name="Digimon Battle Evolution",
            sections=("main", "destiny"),
            kinds=("digimon", "option", "evolution", "data", "mastery"),
            levels=("R", "C", "U", "M"),
            flags=("ace", "firewall", "proxy", "gem", "flip", "token"),
            auto_sections=(
                AutoSection("destiny", kinds=frozenset({"mastery"}), levels=frozenset({"M"})),
            ),
            headers_decide=True,
            has_partner=True,
            tts_headers=True,
        ),
        Game(
            id="digibattle",
            name="Digi-Battle",
            sections=("main",),
            kinds=("digimon", "option"),
            levels=("rookie", "champion", "ultimate", "mega"),
            starter_pool=True,
        ),
        Game(
            id="dmcg",
            name="Digital Monster Card Game",
            sections=("main",),
            kinds=("digimon", "option"),
            levels=("III", "IV", "perfect", "ultimate", "hybrid"),
            starter_pool=True,
        ),
    )
}

GAME_IDS = tuple(GAMES)


def game(game_id: str) -> Game:
    """The registered game; KeyError names an id no card list or format can have."""
    return GAMES[game_id]


def game_name(game_id: str) -> str:
    found = GAMES.get(game_id)
    return found.name if found else game_id
