"""Collections: the cards a player owns, and what a saved deck still needs from them.

A collection is read from a decklist-style text ("4 Agumon BT1-010", any line a
decklist may have) or from `number,count` CSV lines, against the card list of its game;
what is kept is copies per card number. A line that names no card is reported back,
never dropped without a word.

What a deck needs is counted per card as copy limits count it: any printing of a number
(alternate arts, `BT1-010_P1`) and a printing "also treated as" that number (RB1-004
counts as P-009) are the same card.
"""

from __future__ import annotations

import re

from cardpool.search import Within
from deckcheck.db import pools
from deckcheck.errors import ApiError
from deckcheck.events import names
from deckcheck.events.packing import unpack
from rules.games import GAMES
from rules.numbers import number_key
from rules.pool import CardIndex
from rules.read import parse_lines_of

MAX_ENTRIES = 20_000
MAX_COPIES = 100_000
CSV_LINE = re.compile(r"\s*([^,\s]{1,40})\s*,\s*([0-9]{1,9})\s*,?\s*")
CSV_HEADER = re.compile(r"\s*number\s*,\s*count\s*(,.*)?", re.IGNORECASE)


def _too_large(lines: int) -> ApiError:
    return ApiError(
        422,
        "collection-too-large",
        f"This collection has {lines:,} lines; a collection holds at most {MAX_ENTRIES:,}. "
        "Send one line per card number with its count.",
        {"lines": lines, "limit": MAX_ENTRIES},
    )


def read_cards(text: str, index: CardIndex) -> tuple[dict[str, int], list[dict]]:
    """(copies per card number, the lines that named no card with why)."""
    lines = text.splitlines()
    filled = sum(1 for line in lines if line.strip())
    if filled > MAX_ENTRIES:
        raise _too_large(filled)
    cards: dict[str, int] = {}
    unread: list[dict] = []
    for at, raw in enumerate(lines, start=1):
        if not raw.strip() or CSV_HEADER.fullmatch(raw):
            continue
        number, count, why = _read_line(at, raw, index)
        if number is None:
            unread.append({"line": at, "text": raw[:200], "why": why})
            continue
        total = cards.get(number, 0) + count
        if total > MAX_COPIES:
            unread.append(
                {"line": at, "text": raw[:200], "why": f"more than {MAX_COPIES:,} copies"}
            )
            continue
        cards[number] = total
    return cards, unread


def _read_line(at: int, raw: str, index: CardIndex) -> tuple[str | None, int, str]:
    found = CSV_LINE.fullmatch(raw)
    if found:
        card = index.by_number(found.group(1))
        count = int(found.group(2))
        if card is None:
            return None, 0, "no card has this number in the card list"
        if not 1 <= count <= MAX_COPIES:
            return None, 0, f"a count from 1 to {MAX_COPIES:,}"
        return card.number, count, ""
    if len(raw) > 1000:
        return None, 0, "longer than 1,000 characters"
    for line in parse_lines_of(at, raw):
        if line.kind != "card":
            continue
        card = index.by_number(line.numbers[0]) if line.numbers else None
        if card is None and line.name:
            card = index.only_card_named(line.name)
        if card is None:
            return None, 0, "no card of the card list has this number or name"
        if not 1 <= line.count <= MAX_COPIES:
            return None, 0, f"a count from 1 to {MAX_COPIES:,}"
        return card.number, line.count, ""
    return None, 0, "not a card line"


def game_of(value: str) -> str:
    if value not in GAMES:
        raise names.FieldError("game", f"One of: {', '.join(GAMES)}.")
    return value


def find(collection_id: str) -> dict:
    from deckcheck.decks.core import store

    row = store().collection(collection_id) if names.is_id(collection_id) else None
    if row is None:
        raise ApiError(404, "collection-not-found", "There is no collection at this address.")
    return row


def within(collection_id: str) -> Within:
    """What a card search limited to this collection keeps (`?collection=<id>`)."""
    row = find(collection_id)
    numbers = frozenset(unpack(row["cards"]))
    return Within(row["game"], numbers, f"{row['id']}@{row['updated_at']}")


def collection_json(row: dict, unread: list[dict] | None = None) -> dict:
    cards = unpack(row["cards"])
    data = {
        "id": row["id"],
        "name": row["name"],
        "game": row["game"],
        "entries": row["entries"],
        "cards": [{"number": n, "count": c} for n, c in sorted(cards.items())],
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
    }
    if unread is not None:
        data["unread"] = unread
    return data


def _key(number: str, index: CardIndex) -> str:
    """The key copies of a number count under: its printing's limit key."""
    card = index.cards.get(number)
    return card.limit_key if card is not None else number_key(number)


def missing(structured: dict, collection: dict, index: CardIndex) -> dict:
    """Per card the deck holds (as copy limits group printings): need, have, when short."""
    need: dict[str, int] = {}
    shown: dict[str, str] = {}
    for items in structured["sections"].values():
        for number, count in items:
            key = _key(number, index)
            need[key] = need.get(key, 0) + count
            shown.setdefault(key, number)
    if structured.get("partner"):
        key = _key(structured["partner"], index)
        need[key] = need.get(key, 0) + 1
        shown.setdefault(key, structured["partner"])
    have: dict[str, int] = {}
    if collection["game"] == index.game:
        for number, count in unpack(collection["cards"]).items():
            key = _key(number, index)
            have[key] = have.get(key, 0) + count
    out: list[dict] = []
    for key in sorted(need, key=lambda k: shown[k]):
        if have.get(key, 0) < need[key]:
            card = index.cards.get(shown[key])
            out.append(
                {
                    "number": shown[key],
                    "name": card.name if card else "",
                    "need": need[key],
                    "have": have.get(key, 0),
                }
            )
    return {"missing": out, "cards_missing": sum(m["need"] - m["have"] for m in out)}


def pool(game: str) -> CardIndex:
    return pools().index(game)
