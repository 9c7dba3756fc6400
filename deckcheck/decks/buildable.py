"""Which saved decks a collection can build, and what to buy for the others.

Every deck is counted as `/missing` counts it (deckcheck.decks.collection: printings by
their limit key): 200 decks cost one query for their lists and one for the collection's
rows of the cards they need, not 200 of each nor a pass over 20,000 rows.

The shopping list holds, per card, the most any one chosen deck still lacks: a card
bought once can move from deck to deck (the text and CSV say so).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select

from deckcheck.csvout import to_csv
from deckcheck.decks import collection
from deckcheck.format_registry import get_format
from deckcheck.server.packing import unpack
from deckcheck.server.tables.decks import deck_versions, decks
from rules.pool import CardIndex

MAX_DECKS = 500


_LATEST = select(decks.c.id, decks.c.name, decks.c.format, deck_versions.c.structured).join(
    deck_versions,
    (deck_versions.c.deck_id == decks.c.id) & (deck_versions.c.version == decks.c.version),
)


def latest_lists(engine, ids: Sequence[str]) -> list[dict]:
    """id, name, format and latest structured list of each of these decks (one query)."""
    with engine.begin() as conn:
        return [dict(r._mapping) for r in conn.execute(_LATEST.where(decks.c.id.in_(list(ids))))]


def owned_lists(engine, account: str) -> tuple[list[dict], bool]:
    """The latest lists of an account's newest MAX_DECKS decks (as many as a request may
    name), and whether it has more (the answer says so: `more_decks`)."""
    query = (
        _LATEST.where(decks.c.owner == account)
        .order_by(decks.c.updated_at.desc(), decks.c.id)
        .limit(MAX_DECKS + 1)
    )
    with engine.begin() as conn:
        rows = [dict(r._mapping) for r in conn.execute(query)]
    return rows[:MAX_DECKS], len(rows) > MAX_DECKS


def _game(format_id: str) -> str | None:
    fmt = get_format(format_id)
    return fmt.game if fmt is not None else None


def buildable(row: dict, rows: list[dict], index: CardIndex) -> dict:
    lists = {d["id"]: unpack(d["structured"]) for d in rows if _game(d["format"]) == row["game"]}
    wanted = {key for s in lists.values() for key in collection.needs(s, index)[0]}
    have = collection.owned_keys(row, wanted, index)
    data: list[dict] = []
    short: dict[str, tuple[int, str]] = {}
    other_game = [d["id"] for d in rows if d["id"] not in lists]
    for deck in rows:
        if deck["id"] not in lists:
            continue
        lacking = collection.missing_from(lists[deck["id"]], have, index)
        data.append(
            {
                "deck": deck["id"],
                "name": deck["name"],
                "complete": lacking["cards_missing"] == 0,
                "cards_missing": lacking["cards_missing"],
            }
        )
        for item in lacking["missing"]:
            need = item["need"] - item["have"]
            if need > short.get(item["number"], (0, ""))[0]:
                short[item["number"]] = (need, item["name"])
    data.sort(key=lambda d: (d["cards_missing"], d["name"].casefold(), d["deck"]))
    shopping = [
        {"number": number, "name": name, "count": count}
        for number, (count, name) in sorted(short.items())
    ]
    return {
        "data": data,
        "shopping_list": shopping,
        "shopping_text": "".join(f"{s['count']} {s['name']} {s['number']}\n" for s in shopping),
        "shopping_csv": to_csv(
            ["number", "name", "count"], ([s["number"], s["name"], s["count"]] for s in shopping)
        ),
        "other_game": other_game,
    }
