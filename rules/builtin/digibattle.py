"""Digi-Battle Card Game (Bandai / Upper Deck, 1999-2002): `digibattle`."""

from rules.checks import CopyLimit, DeckSize, RequiredCard, WrongSection
from rules.checks.filters import levelled
from rules.format import Format

RULES = "Digi-Battle rules (digibattle-rules.txt)"

DIGIBATTLE = Format(
    id="digibattle",
    game="digibattle",
    name="Digi-Battle Card Game",
    checks=(
        DeckSize(f'{RULES}, item 7 ("Deck must contain 30 cards")', exact=30),
        WrongSection(f"{RULES}, items 6-7 (one deck of 30 cards)", allowed={"main": None}),
        CopyLimit(
            f'{RULES}, item 6 ("Deck cannot have duplicate cards"; '
            "ST-44 and ST-44S may both be in a deck)",
            default=1,
            words=" (no card code twice in a Digi-Battle deck)",
        ),
        RequiredCard(
            f'{RULES}, item 13 (set up: "Chooses a rookie from their deck")',
            levelled("Rookie Digimon", "digimon", "rookie"),
        ),
    ),
    summary=(
        "The deck has exactly 30 cards.",
        "No card code twice. A code is the whole printed code: ST-34 and BO-34 are "
        "different cards, and so are ST-44 and its holo ST-44S.",
        "At least one Rookie Digimon, to start the game with.",
        'The written source is a community guide ("Digi-battle common sense rules and '
        'tips", 2016), not an official rulebook; it asks players to agree on disputed points '
        "before playing. Common house rules (duplicates allowed) are organizer formats.",
    ),
    sources=(
        'digibattle-rules.txt ("Digi-battle common sense rules and tips"), items 6-7 and 13; '
        "item 114 lists allowing duplicates as a house rule",
    ),
)
