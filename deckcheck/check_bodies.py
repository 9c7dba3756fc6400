"""How the bodies of validate and validate-batch are read: the common bodies (a text
`decklist` or a structured `deck`, a `format`, maybe a `date`) in a few µs by plain
checks, anything else, and every body the schemas would refuse, by the schemas (same
errors; tests/web/test_api_fast_paths.py holds the two paths equal). A batch's deck ids
are read exactly, since a batch sends each back as it came."""

from __future__ import annotations

import json
from datetime import date

from marshmallow import ValidationError

from deckcheck import service
from deckcheck.bodies import json_body, load, raw_body
from deckcheck.errors import ApiError
from deckcheck.schemas import (
    BatchDeckSchema,
    BatchRequestSchema,
    ValidateRequestSchema,
    plain_deck,
)

_validate_schema = ValidateRequestSchema()
_batch_schema = BatchRequestSchema()
_batch_deck_schema = BatchDeckSchema()
_DATE_FIELD = _validate_schema.fields["date"]
MAX_FORMAT_ID = 80  # the schemas' Length(max=80) on `format`
MAX_BATCH = 20000  # BatchRequestSchema's Length(max=20000) on `decks`


# orjson reads an integer beyond 64 bits as a float, losing its last digits; every float
# that large may have been one.
_WIDENED = 2.0**63


def exact_batch_body() -> dict:
    """The batch body as `json_body` reads it, its deck ids exact: a batch sends each id
    back as it came, and an id of 20 digits must not come back as a float. When an id
    holds a float that large, the body is read again by Python's json, which keeps
    integers whole (orjson refused first any number of more than about 310 digits, well
    under Python's limit of 4,300)."""
    raw = raw_body()
    data = json_body(raw)
    decks = data.get("decks")
    if type(decks) is not list or not any(_may_be_widened(item) for item in decks):
        return data
    try:
        return json.loads(raw)
    except RecursionError as err:
        raise ApiError(
            400,
            "malformed-json",
            "The body holds an id too long to read exactly, nested too deeply to read it "
            "again: send long ids as strings.",
        ) from err


def _may_be_widened(item: object) -> bool:
    """Does this deck's id hold a float that orjson may have made of an integer? A loop,
    not a recursion: an id may be nested a thousand levels deep."""
    found = item.get("id") if type(item) is dict else None
    if type(found) not in (float, list, dict):
        return False  # the common case, one type check a deck
    stack = [found]
    while stack:
        value = stack.pop()
        if type(value) is float and abs(value) >= _WIDENED:
            return True
        if type(value) is list:
            stack.extend(value)
        elif type(value) is dict:
            stack.extend(value.values())
    return False


def _plain_date(data: dict) -> tuple[bool, date | None]:
    """(read?, the day) of a body's `date`, read by the schema's own field; (False, None)
    when the field refuses it, so the whole schema load gives its usual error."""
    value = data.get("date")
    if value is None:
        return True, None
    try:
        return True, _DATE_FIELD.deserialize(value)
    except ValidationError:
        return False, None


def _plain_format(data: dict) -> str | None:
    value = data.get("format")
    return value if type(value) is str and 0 < len(value) <= MAX_FORMAT_ID else None


def _plain_payload(data: dict) -> service.CheckPayload | None:
    """The body's text `decklist` as it is, or its structured `deck` when the schema
    would take it as it is; None for anything else (the schema says what is wrong)."""
    text = data.get("decklist")
    if type(text) is str and "deck" not in data:
        return {"decklist": text}
    loaded = plain_deck(data.get("deck")) if "decklist" not in data else None
    return None if loaded is None else {"deck": loaded}


def load_validate(data: dict) -> tuple[str, service.CheckPayload, date | None]:
    """The validate body as ValidateRequestSchema loads it. The common bodies (a text
    `decklist` or a structured `deck`, a `format`, maybe a `date`) are read here in a
    few µs; any other body, and every body the schema would refuse, goes through the
    schema (same errors)."""
    format_id = _plain_format(data)
    if format_id is not None:
        plain = _plain_payload(data)
        read, day = _plain_date(data)
        if plain is not None and read:
            return format_id, plain, day
    payload = load(_validate_schema, data)
    return payload["format"], service.as_payload(payload), payload["date"]


def load_batch(data: dict) -> tuple[str, list, date | None]:
    """The batch body as BatchRequestSchema loads it (the common body read directly,
    as in `load_validate`; anything else, or anything refused, by the schema)."""
    decks, format_id = data.get("decks"), _plain_format(data)
    if (
        type(decks) is list
        and len(decks) <= MAX_BATCH
        and format_id is not None
        and all(type(item) is dict for item in decks)
    ):
        read, day = _plain_date(data)
        if read:
            return format_id, decks, day
    payload = load(_batch_schema, data)
    return payload["format"], payload["decks"], payload["date"]


def batch_deck(item: dict) -> service.CheckPayload:
    """A deck of a batch as BatchDeckSchema loads it: the common decks read directly, as
    in `load_validate`; anything else, and every deck refused, by the schema."""
    plain = _plain_payload(item)
    if plain is not None:
        return plain
    deck = load(_batch_deck_schema, item, "invalid-deck", "This deck is malformed.")
    return service.as_payload(deck)
