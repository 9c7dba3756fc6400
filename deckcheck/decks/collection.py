"""Collections: the cards a player owns, and what a saved deck still needs from them.

A collection is read (deckcheck.decks.imports) from a decklist-style text, `number,count`
lines or another app's export, against the card list of its game; what is kept is
copies per card number (deckcheck.decks.collection_store). A line that names no card is
reported back, never dropped without a word.

What a deck needs, and what "owned only" finds, is counted per card as copy limits count
it: any printing of a number (alternate arts, `BT1-010_P1`) and a printing "also treated
as" that number (RB1-004 counts as P-009) are the same card.
"""

from __future__ import annotations

from functools import lru_cache

from cardpool.search import Within
from deckcheck.db import pools
from deckcheck.errors import ApiError
from deckcheck.events import names
from rules.games import GAMES
from rules.numbers import number_key
from rules.pool import CardIndex


def game_of(value: str) -> str:
    if value not in GAMES:
        raise names.FieldError("game", f"One of: {', '.join(GAMES)}.")
    return value


def store():
    from deckcheck.decks.core import store as deck_store

    return deck_store().collections


def not_found() -> ApiError:
    return ApiError(404, "collection-not-found", "There is no collection at this address.")


def find(collection_id: str) -> dict:
    row = store().row(collection_id) if names.is_id(collection_id) else None
    if row is None:
        raise not_found()
    return row


def within(collection_id: str) -> Within:
    """What a card search limited to this collection keeps (`?collection=<id>`): the
    numbers it holds and every printing that counts as one of them (as /missing counts)."""
    row = find(collection_id)
    owned = store().cards(row["id"])
    numbers = set(owned)
    if row["game"] in GAMES:
        sharing = _sharing(pool(row["game"]))
        for number in sharing.keys() & owned.keys():  # a few numbers, found in C
            numbers.update(sharing[number])
    return Within(row["game"], frozenset(numbers), f"{row['id']}@{row['updated_at']}")


@lru_cache(maxsize=8)
def _sharing(index: CardIndex) -> dict[str, tuple[str, ...]]:
    """Per number whose limit key another number shares, all the numbers of that key
    (P-009 and RB1-004: both): worked out once per card list."""
    groups: dict[str, list[str]] = {}
    for card in index.cards.values():
        groups.setdefault(card.limit_key, []).append(card.number)
    return {
        number: tuple(numbers)
        for numbers in groups.values()
        if len(numbers) > 1
        for number in numbers
    }


def summary_json(row: dict) -> dict:
    return {
        "id": row["id"],
        "name": row["name"],
        "game": row["game"],
        "entries": row["entries"],
        "url": f"/c/{row['id']}",
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
    }


def collection_json(row: dict, cards: dict[str, int], unread: list[dict] | None = None) -> dict:
    data = summary_json(row)
    data["cards"] = [{"number": n, "count": c} for n, c in sorted(cards.items())]
    if unread is not None:
        data["unread"] = unread
    return data


def key_of(number: str, index: CardIndex) -> str:
    """The key copies of a number count under: its printing's limit key."""
    card = index.cards.get(number)
    return card.limit_key if card is not None else number_key(number)


def owned_keys(cards: dict[str, int], game: str, index: CardIndex) -> dict[str, int]:
    """Copies owned per limit key (one pass over the collection, for any number of decks)."""
    have: dict[str, int] = {}
    if game == index.game:
        for number, count in cards.items():
            key = key_of(number, index)
            have[key] = have.get(key, 0) + count
    return have


def needs(structured: dict, index: CardIndex) -> tuple[dict[str, int], dict[str, str]]:
    """(copies a deck needs per limit key, the number it shows for each key)."""
    need: dict[str, int] = {}
    shown: dict[str, str] = {}
    for items in structured["sections"].values():
        for number, count in items:
            key = key_of(number, index)
            need[key] = need.get(key, 0) + count
            shown.setdefault(key, number)
    if structured.get("partner"):
        key = key_of(structured["partner"], index)
        need[key] = need.get(key, 0) + 1
        shown.setdefault(key, structured["partner"])
    return need, shown


def missing_from(structured: dict, have: dict[str, int], index: CardIndex) -> dict:
    """Per card the deck holds (as copy limits group printings): need, have, when short."""
    need, shown = needs(structured, index)
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


def missing(structured: dict, collection: dict, index: CardIndex) -> dict:
    have = owned_keys(store().cards(collection["id"]), collection["game"], index)
    return missing_from(structured, have, index)


def pool(game: str) -> CardIndex:
    return pools().index(game)
