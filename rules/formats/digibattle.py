"""Digi-Battle Card Game (Bandai / Upper Deck, 1999-2002): `digibattle`."""

from rules.checks import CopyLimit, DeckSize, RequiredCard, WrongSection
from rules.checks.filters import levelled
from rules.format import Format

RULES = "Digi-Battle rules"

DIGIBATTLE = Format(
    id="digibattle",
    game="digibattle",
    name="Digi-Battle Card Game",
    checks=(
        DeckSize(f"{RULES}, deck construction (30 cards)", exact=30),
        WrongSection(f"{RULES}, deck construction", allowed={"main": None}),
        CopyLimit(f"{RULES}, deck construction (no duplicate card codes)", default=1),
        RequiredCard(
            f"{RULES}, setting up (a Rookie to start with)",
            levelled("Rookie Digimon", "digimon", "rookie"),
        ),
    ),
    summary=(
        "The deck has exactly 30 cards.",
        "No card code twice. A code is the whole printed code: ST-34 and BO-34 are "
        "different cards, and so are ST-44 and its holo ST-44S.",
        "At least one Rookie Digimon, to start the game with.",
    ),
    sources=("digibattle-rules.txt",),
)
