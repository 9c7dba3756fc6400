"""A product added to a collection at once: a starter deck by its fixed list (only the
decks rules/data/dcg_starter_decks.json lists, each from a named source), or a playset
of a set (4 of every card of the set in the card list)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from deckcheck.decks.collection_views import PLAYSET, set_code
from deckcheck.errors import ApiError
from rules.games import DEFAULT_GAME, GAMES
from rules.pool import CardIndex


def starter_decks(game: str = DEFAULT_GAME) -> dict:
    """{"ST1": {"name", "cards": {number: copies}}, ...}: the game's fixed starter decks
    (rules.games `dated.starter_decks`; the collections page offers the service's own
    game's), none for a game without."""
    found = GAMES.get(game)
    name = found.dated.starter_decks if found is not None else None
    return _read_decks(name) if name is not None else {}


@cache
def _read_decks(name: str) -> dict:
    """Read once per process, by file name: never keyed by a game id a request sent."""
    text = resources.files("rules.data").joinpath(name).read_text("utf-8")
    return json.loads(text)["decks"]


def _refused(code: str, what: str, known: list[str]) -> ApiError:
    return ApiError(
        422,
        "unknown-product",
        f"deckcheck does not know {what} {code!r}. Known: {', '.join(known) or 'none'}.",
        {"product": code, "known": known},
    )


def starter(code: str, game: str) -> tuple[str, dict[str, int]]:
    """(the deck's name, its cards) for a starter deck code (`ST1`, `st-1`)."""
    decks = starter_decks(game)
    wanted = code.strip().upper().replace("-", "")
    found = decks.get(wanted)
    if found is None:
        raise _refused(code, "the contents of the starter deck", sorted(decks))
    return found["name"], dict(found["cards"])


def playset(code: str, index: CardIndex) -> dict[str, int]:
    """4 of every card number of set `code` in the card list (alternate arts aside)."""
    wanted = set_code(code.strip().upper() + "-0")
    cards = {
        card.number: PLAYSET
        for card in index.cards.values()
        if "_" not in card.number and set_code(card.number) == wanted
    }
    if not cards:
        raise ApiError(
            422,
            "unknown-product",
            f"No card of the card list is in a set {code!r}.",
            {"playset": code},
        )
    return cards
