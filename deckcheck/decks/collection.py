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
from deckcheck.decks.core import store as deck_store
from deckcheck.errors import ApiError
from deckcheck.server import names
from rules.games import GAMES
from rules.numbers import number_key
from rules.pool import CardIndex


def game_of(value: str) -> str:
    if value not in GAMES:
        raise names.FieldError("game", f"One of: {', '.join(GAMES)}.")
    return value


def store():
    """The collections' store (deckcheck.decks.collection_store), beside the decks'."""
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
    index = pool(row["game"]) if row["game"] in GAMES else None
    numbers = _owned_numbers(row["id"], row["updated_at"], index)
    return Within(row["game"], numbers, f"{row['id']}@{row['updated_at']}")


@lru_cache(maxsize=8)
def _owned_numbers(collection_id: str, version: str, index: CardIndex | None) -> frozenset[str]:
    """The numbers a search keeps, per collection *version* (`updated_at` changes with
    every change) and card list: a builder searching as the player types reads 20,000
    rows once, not on every key."""
    owned = store().cards(collection_id)
    numbers = set(owned)
    if index is not None:
        sharing = _sharing(index)
        for number in sharing.keys() & owned.keys():  # a few numbers, found in C
            numbers.update(sharing[number])
    return frozenset(numbers)


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


@lru_cache(maxsize=8)
def _limits(index: CardIndex) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """(each number key's limit key, each limit key's number keys): once per card list."""
    limit_of: dict[str, str] = {}
    keys_of: dict[str, list[str]] = {}
    for card in index.cards.values():
        limit_of[card.key] = card.limit_key
        keys_of.setdefault(card.limit_key, []).append(card.key)
    return limit_of, {limit: tuple(keys) for limit, keys in keys_of.items()}


def owned_keys(row: dict, wanted: set[str], index: CardIndex) -> dict[str, int]:
    """Copies owned per limit key, for the limit keys `wanted` (what some decks need):
    any printing of a number and any printing "also treated as" it counts, read from
    the collection's rows of those keys only."""
    if row["game"] != index.game or not wanted:
        return {}
    limit_of, keys_of = _limits(index)
    keys = {key for limit in wanted for key in keys_of.get(limit, (limit,))}
    have: dict[str, int] = {}
    for key, count in store().key_counts(row["id"], keys).items():
        limit = limit_of.get(key, key)
        have[limit] = have.get(limit, 0) + count
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
    have = owned_keys(collection, set(needs(structured, index)[0]), index)
    return missing_from(structured, have, index)


def pool(game: str) -> CardIndex:
    return pools().index(game)
