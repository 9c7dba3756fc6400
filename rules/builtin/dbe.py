"""Digimon Battle Evolution (fan game by Alice White): `dbe`."""

from rules.checks import (
    CopyLimit,
    DataLegality,
    DeckSize,
    DestinyLimit,
    KindTotalLimit,
    PartnerCheck,
    WrongSection,
)
from rules.checks.filters import CardFilter, flagged, kinds
from rules.format import Format

DC = 'DBE rules, "Deck Construction"'

DBE = Format(
    id="dbe",
    game="dbe",
    name="Digimon Battle Evolution",
    sections=("main", "destiny"),
    checks=(
        DeckSize(
            f"{DC} (Deck is 50 cards; Destiny Zone + Main Deck must add up to 50)",
            ("main", "destiny"),
            exact=50,
            what="deck (main deck and Destiny Zone together)",
        ),
        WrongSection(
            f"{DC} (Level M and Mastery cards belong in the Destiny Zone)",
            allowed={
                "main": CardFilter(
                    "Digimon below Level M, Option, Evolution and DATA cards",
                    kinds=frozenset({"digimon", "option", "evolution", "data"}),
                    not_levels=frozenset({"m"}),
                ),
            },
            forbidden=(flagged("token", "token"),),
            unchecked=("destiny",),
            missing_rule=f"{DC} (a deck is a main deck and a Destiny Zone, nothing else)",
            hints={"mastery": "Move it to the Destiny Zone.", "M": "Move it to the Destiny Zone."},
        ),
        DestinyLimit(f"{DC} (Destiny Zone limits)"),
        PartnerCheck(f"{DC} (partner R and partner C's)"),
        CopyLimit(
            f"{DC} (Digimon 4, Option 3, Evolution 2 copies in Main deck; Ace 1, Firewall 3, "
            "DATA 1 copy per deck)",
            default=4,
            by_kind={"option": 3, "evolution": 2, "data": 1},
            by_flag={"ace": 1, "firewall": 3},
            per_deck_flags=frozenset({"ace", "firewall"}),
            per_deck_kinds=frozenset({"data"}),
            per_deck_sections=("main", "destiny"),
        ),
        KindTotalLimit(f"{DC} (only 1 Ace per deck)", flagged("Ace cards", "ace"), 1),
        KindTotalLimit(
            f"{DC} (only 3 Firewalls total per deck)", flagged("Firewall cards", "firewall"), 3
        ),
        KindTotalLimit(
            f"{DC} (no more than 2 total (different) DATAs per deck)",
            kinds("DATA cards", "data"),
            2,
            distinct=True,
        ),
        DataLegality('DBE rules, "DATA card Legality"'),
    ),
    summary=(
        "The deck is 50 cards: the main deck and the Destiny Zone together.",
        "The Destiny Zone may hold up to 1 Level M Digimon, up to 2 different partner "
        "Level C Digimon (each naming your partner in its evolution box), up to 1 Proxy "
        "card and up to 1 Mastery card, and nothing else.",
        "Level M and Mastery cards never go in the main deck.",
        "You may declare a partner: a Level R Digimon in your main deck.",
        "Main deck copies per card number: Digimon 4, Option 3, Evolution 2. Per deck "
        "(main deck and Destiny Zone together): Ace 1 copy and 1 Ace in all, Firewall 3 "
        "copies and 3 Firewalls in all, DATA 1 copy and 2 different DATA cards.",
        "A card's own copy limit, where it has one, replaces these.",
        "A DATA card needs its name (without DATA) in the Destiny Zone: a card's name, "
        'an alias ("Also named") or a name in its evolution box.',
        "Flip cards are one card number, whichever side is shown.",
    ),
    sources=('dbe-rules.txt, "Deck Construction"', 'dbe-rules.txt, "DATA card Legality"'),
)
