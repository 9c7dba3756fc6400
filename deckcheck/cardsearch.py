"""Card search for the API and the card browser alike: one reading of the request,
one search, one card object. A test holds the two to the same results."""

from __future__ import annotations

import json
from datetime import date

from marshmallow import ValidationError
from werkzeug.datastructures import MultiDict

from cardpool.cards import row_to_json
from cardpool.search import Found, Limited, Query, QueryError, Within, run
from deckcheck import service
from deckcheck.db import get_db
from deckcheck.decks.collection import within
from deckcheck.errors import ApiError
from deckcheck.format_registry import registry
from deckcheck.images import image_url
from deckcheck.schemas import CardQuerySchema

_schema = CardQuerySchema()
MULTI = ("color", "number")


def read_args(args: MultiDict) -> dict:
    """Query parameters as the schema loads them: empty fields left out, `color` and
    `number` kept as lists so `color=Blue&color=Black` keeps both."""
    data: dict = {k: v for k, v in args.items() if k not in MULTI and v != ""}
    for key in MULTI:
        values = [v for v in args.getlist(key) if v != ""]
        if values:
            data[key] = values
    return data


def load_query(args: MultiDict, per_page: int | None = None) -> tuple[Query, date]:
    try:
        loaded = _schema.load(read_args(args))
    except ValidationError as err:
        raise _invalid(err.messages) from err
    day = loaded.pop("date") or service.today()
    loaded["within"] = _within(loaded.pop("collection"), loaded.pop("number"), loaded["game"])
    if per_page:
        loaded["per_page"] = per_page
    loaded["color"] = tuple(loaded["color"] or ()) or None
    return Query(**loaded), day


def _within(collection: str | None, numbers: list[str] | None, game: str | None) -> Within | None:
    """The cards a search keeps: a collection's, or the numbers asked for by name."""
    if collection and numbers:
        raise _invalid({"number": ["Ask for numbers or a collection, not both."]})
    if collection:
        return within(collection)
    if not numbers:
        return None
    if game is None:
        raise _invalid({"game": ["Say which game the numbers are of (game=dcg, ...)."]})
    asked = frozenset(numbers)
    # The tag names this set where a search that finds nothing keeps its suggestion (a
    # short one: a long key is never kept). JSON, so no two sets share a tag: joined
    # with commas, ["P-1,P-2"] and ["P-1", "P-2"] did.
    return Within(game, asked, "numbers:" + json.dumps(sorted(asked)))


def _invalid(fields: dict | list) -> ApiError:
    """The 422 for query parameters that cannot be read, each field with its reasons."""
    return ApiError(422, "invalid-request", "Some query parameters are wrong.", {"fields": fields})


def limited_on(day: date) -> Limited:
    """Cards banned / restricted in each game's main format (the format named after it)."""

    def limited(game: str) -> dict[str, str]:
        fmt = registry().formats.get(game)
        if fmt is None or fmt.lists is None:
            return {}
        return {key: status for key, (status, _) in fmt.lists.state_on(fmt.day(day)).items()}

    return limited


def find(query: Query, day: date) -> Found:
    try:
        return run(get_db(), query, limited_on(day))
    except QueryError as err:
        raise ApiError(422, "bad-query", err.message, {"term": err.term}) from err


def limits_today(game: str, number: str, day: date | None = None) -> list[dict]:
    """Where a card is banned, restricted or choice-restricted on `day` (default today)."""
    day = day or service.today()
    found = []
    for fmt in service.service_formats(game):
        if fmt.lists is None:
            continue
        on = fmt.day(day)
        state = fmt.lists.status_on(number, on)
        if state:
            found.append(_limit(fmt.id, state[0], state[1]))
        for pair in fmt.lists.pairs_on(on):
            if any(ref.number == number for ref in (*pair.a, *pair.b)):
                found.append(_limit(fmt.id, "choice-restriction", pair.change))
    return found


def _limit(format_id: str, status: str, change) -> dict:
    return {
        "format": format_id,
        "status": status,
        "effective": change.effective.isoformat() if change.effective else None,
        "announced": change.announced.isoformat() if change.announced else None,
        "doubt": change.doubt,
    }


def card_json(row: dict, day: date | None = None) -> dict:
    data = row_to_json(row)
    url = image_url(row["game"], row["number"])
    if url:
        data["image_url"] = url
    data["limits"] = limits_today(row["game"], row["number"], day)
    return data
