"""Test-only card pools for rule tests.

Every card here is a test fixture: DCG, Digi-Battle and DMCG cards carry real
numbers and names (facts only) so messages read naturally; the DBE cards are the
acceptance fixture's test-only cards (no public DBE list exists).
"""

from __future__ import annotations

from rules.model import Card, Deck, Entry
from rules.pool import CardIndex


def dcg(number, name, kind="digimon", level="3", max_copies=None, flags=(), colors=("Red",)):
    return Card(
        "dcg",
        number,
        name,
        kind,
        level if kind in ("digimon", "digi-egg") else None,
        colors=tuple(colors),
        flags=frozenset(flags),
        max_copies=max_copies,
    )


DCG_CARDS = [
    dcg("ST1-01", "Koromon", "digi-egg", "2"),
    dcg("ST1-02", "Biyomon"),
    dcg("ST1-03", "Agumon"),
    dcg("ST1-07", "Greymon", level="4"),
    dcg("ST1-12", "Tai Kamiya", "tamer"),
    dcg("ST1-16", "Gaia Force", "option"),
    dcg("BT1-010", "Agumon"),
    dcg("BT2-047", "Argomon", colors=("Green",)),
    dcg("BT5-109", "Mega Digimon Fusion!", "option"),
    dcg("BT11-061", "Vemmon", max_copies=50),
    dcg("EX2-007", "Mother D-Reaper", level="6"),
    dcg("EX7-064", "Shoto Kazama", "tamer"),
    dcg("BT3-092", "MaloMyotismon", level="6", colors=("Purple",)),
    dcg("BT6-015", "SaviorHuckmon", level="5"),
    dcg("TK-01", "Test Token", flags=("token",)),
]

DBE_CARDS = [
    Card("dbe", "ACC-001", "Agumon", "digimon", "R"),
    Card("dbe", "ACC-002", "Greymon", "digimon", "C", evo_names=("Agumon",)),
    Card("dbe", "ACC-003", "Geogreymon", "digimon", "C", evo_names=("Agumon",)),
    Card("dbe", "ACC-004", "Agumon -Bond of Bravery-", "digimon", "C", evo_names=("Agumon",)),
    Card("dbe", "ACC-005", "Tyrannomon", "digimon", "C"),
    Card("dbe", "ACC-006", "Metalgreymon", "digimon", "U", evo_names=("Greymon",)),
    Card("dbe", "ACC-007", "Wargreymon", "digimon", "M", evo_names=("Metalgreymon",)),
    Card("dbe", "ACC-008", "Machinedramon", "digimon", "M"),
    Card("dbe", "ACC-009", "Wargreymon DATA", "data"),
    Card("dbe", "ACC-010", "Machinedramon DATA", "data"),
    Card("dbe", "ACC-011", "Metalgreymon DATA", "data"),
    Card("dbe", "ACC-013", "Recovery Floppy", "option", flags=frozenset({"proxy"})),
    Card("dbe", "ACC-014", "Defense Floppy", "option", flags=frozenset({"proxy"})),
    Card("dbe", "ACC-015", "Power Charge", "option"),
    Card("dbe", "ACC-016", "Digivice Burst", "evolution"),
    Card("dbe", "ACC-017", "Crest of Courage", "mastery"),
    Card("dbe", "ACC-018", "Crest of Friendship", "mastery"),
    Card("dbe", "ACC-019", "Trump Sword", "option", flags=frozenset({"ace"})),
    Card("dbe", "ACC-020", "Mega Cannon", "option", flags=frozenset({"ace"})),
    Card("dbe", "ACC-021", "Guardian Wall", "option", flags=frozenset({"firewall"})),
    Card("dbe", "ACC-022", "Iron Wall", "option", flags=frozenset({"firewall"})),
    Card("dbe", "ACC-023", "Gabumon", "digimon", "R"),
    Card("dbe", "ACC-024", "Test Swarm", "digimon", "U", max_copies=10),
    Card("dbe", "SF-003", "Blackwargreymon", "digimon", "M", aliases=("Wargreymon",)),
]

DIGIBATTLE_CARDS = [
    Card("digibattle", "ST-01", "Agumon", "digimon", "rookie"),
    Card("digibattle", "ST-02", "Greymon", "digimon", "champion"),
    Card("digibattle", "ST-44", "Wizardmon", "digimon", "champion"),
    Card("digibattle", "ST-44S", "Wizardmon", "digimon", "champion"),
    *[
        Card("digibattle", f"BO-{n}", f"Test Champion {n}", "digimon", "champion")
        for n in range(1, 40)
    ],
    Card("digibattle", "BO-90", "Test Many", "digimon", "champion", max_copies=3),
]

DMCG_CARDS = [
    Card("dmcg", "St-1", "Agumon", "digimon", "III"),
    Card("dmcg", "St-2", "Greymon", "digimon", "IV"),
    Card("dmcg", "St-91", "Greymon", "digimon", "IV"),
    Card("dmcg", "Bo-1", "Test Booster", "digimon", "IV"),
    Card("dmcg", "P-1", "Test Promo", "digimon", "IV"),
    Card("dmcg", "St-50", "Plug-In B", "option", max_copies=5),
    *[Card("dmcg", f"St-{n}", f"Test Perfect {n}", "digimon", "perfect") for n in range(100, 115)],
]

POOLS = {
    "dcg": CardIndex("dcg", DCG_CARDS),
    "dbe": CardIndex("dbe", DBE_CARDS),
    "digibattle": CardIndex("digibattle", DIGIBATTLE_CARDS),
    "dmcg": CardIndex("dmcg", DMCG_CARDS),
}


def make_deck(game: str, partner: str | None = None, **sections: dict[str, int]) -> Deck:
    """`make_deck("dcg", main={"ST1-03": 4}, eggs={"ST1-01": 4})`."""
    index = POOLS[game]
    entries = tuple(
        Entry(index.by_number(number), count, section)
        for section, cards in sections.items()
        for number, count in cards.items()
    )
    return Deck(game, entries, index.by_number(partner) if partner else None)


# The DCG starter deck ST-1 as printed (real numbers and counts; in the bundled starter pool).
ST1_COUNTS = [
    ("ST1-02", 4), ("ST1-03", 4), ("ST1-04", 4), ("ST1-05", 4), ("ST1-06", 4), ("ST1-07", 2),
    ("ST1-08", 4), ("ST1-09", 4), ("ST1-10", 2), ("ST1-11", 2), ("ST1-12", 4), ("ST1-13", 4),
    ("ST1-14", 4), ("ST1-15", 2), ("ST1-16", 2),
]  # fmt: skip
ST1_DECK = {
    "main": [{"card": number, "count": count} for number, count in ST1_COUNTS],
    "eggs": [{"card": "ST1-01", "count": 4}],
}
ST1_TEXT = "\n".join(
    ["// Digimon Deck List", "4 Koromon ST1-01"] + [f"{c} {n}" for n, c in ST1_COUNTS]
)


def dbe_codes(partner=None, **sections):
    """The violation codes of a partial DBE deck, deck size aside."""
    from datetime import date

    from rules.builtin import BUILT_IN

    sections = {s: {n: c for n, c in cards.items() if c} for s, cards in sections.items()}
    violations, _ = BUILT_IN["dbe"].judge(
        make_deck("dbe", partner=partner, **sections), date(2024, 1, 1)
    )
    return sorted({v.code for v in violations} - {"deck-size"})


def pool_rows(prefix: str, n: int) -> list[dict]:
    """`n` test-only DMCG database rows named `<prefix>1..n`: one pool to swap for another."""
    from cardpool.cards import make_row

    empty = dict.fromkeys(("types", "aliases", "evo_names", "flags", "colors", "traits"), [])
    nothing = dict.fromkeys(("max_copies", "set_name", "name_ja", "play_cost", "dp", "rarity"))
    return [
        make_row(
            "dmcg",
            number=f"St-{i}",
            name=f"{prefix}{i}",
            kind="digimon",
            level="III",
            **empty,
            **nothing,
        )
        for i in range(1, n + 1)
    ]


def entries(pairs) -> list[dict]:
    """Structured entries, as a request holds them, from (card, count) pairs."""
    return [{"card": card, "count": count} for card, count in pairs]
