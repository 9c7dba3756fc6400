"""Bandai Digimon Card Game (2020-): `dcg`."""

from rules.checks import (
    BannedCards,
    ChoiceRestrictionCheck,
    CopyLimit,
    DeckSize,
    NotReleased,
    ReportedChange,
    RestrictedCards,
    UpcomingChange,
    WrongSection,
)
from rules.checks.filters import flagged, kinds
from rules.format import Format
from rules.lists import load_history

CR = "DCG Comprehensive Rules"
MANUAL = 'DCG Rule Manual "Decks"'

DCG = Format(
    id="dcg",
    game="dcg",
    name="Digimon Card Game",
    sections=("main", "eggs"),
    lists=load_history(),
    checks=(
        DeckSize(f"{CR} 1-4-1-2-1; {MANUAL}", ("main",), exact=50),
        DeckSize(
            f"{CR} 1-4-1-3-1; {MANUAL}",
            ("eggs",),
            maximum=5,
            what="Digi-Egg deck",
            code="egg-deck-size",
        ),
        WrongSection(
            f"{CR} 1-4-1-2-1, 1-4-1-3, 1-4-4-2 (tokens); {MANUAL}",
            allowed={
                "main": kinds("Digimon, Tamer and Option cards", "digimon", "tamer", "option"),
                "eggs": kinds("Digi-Egg cards", "digi-egg"),
            },
            forbidden=(flagged("token", "token"),),
            hints={
                "digi-egg": "Move it to the Digi-Egg deck.",
                "digimon": "Move it to the main deck.",
                "tamer": "Move it to the main deck.",
                "option": "Move it to the main deck.",
            },
        ),
        CopyLimit(
            f"{CR} 1-4-1-2-2 and 1-4-1-3-2 (a card's own [Rule]: 2-3-5-2); {MANUAL}",
            default=4,
            sections=("main", "eggs"),
        ),
        BannedCards(),
        RestrictedCards(),
        ChoiceRestrictionCheck(),
        NotReleased(),
        UpcomingChange(),
        ReportedChange(),
    ),
    summary=(
        "The main deck has exactly 50 Digimon, Tamer and Option cards.",
        "The Digi-Egg deck has 0 to 5 Digi-Egg cards.",
        "At most 4 copies of one card number in each deck, counting every printing "
        "(alternate arts) of the number together, unless the card's own [Rule] allows "
        "more (the 50-copy cards).",
        "Token cards and the index card never go in a deck.",
        "Banned cards: no copies. Restricted cards: 1 copy over both decks. "
        "Choice restrictions: a deck may not mix cards of the two sides.",
        "A card can be used from the day its product came out in English; a deck "
        "checked for an earlier date may not hold it.",
        "The lists are the English (world) lists in force on the date you check for; "
        "an announced change shows as a warning until it takes effect.",
    ),
    sources=(
        'dcg-rule-manual-en.txt, "Decks" and "Token Cards"',
        "dcg-comprehensive-rules-ja.txt, 1-4-1 (deck and Digi-Egg deck), 1-4-4 (tokens), "
        "1-4-5 (index), 2-3-5 ([Rule] icon), 2-11 (card number)",
        "world.digimoncard.com/rule/restriction_card (restricted and banned list)",
        "world.digimoncard.com/products (English release dates, rules/data/dcg_releases.json)",
    ),
)
