"""The JSON API under /api/v1 (contract). One success response per view; the rest
are errors of the one shape built in `deckcheck.errors`."""

from __future__ import annotations

import json
import threading
from datetime import date

import orjson
from flask import Blueprint, Flask, Response, current_app, jsonify, request
from marshmallow import ValidationError
from sqlalchemy.exc import OperationalError

from cardpool import freshness, list_store
from cardpool.search import find_card
from deckcheck import __version__, budgets, cardsearch, service, unread
from deckcheck.bodies import json_body, load, raw_body
from deckcheck.days import reads_date_itself
from deckcheck.db import get_db
from deckcheck.errors import ApiError
from deckcheck.format_registry import registry
from deckcheck.images import images
from deckcheck.openapi import spec
from deckcheck.products import products_json
from deckcheck.report_json import report_json, violation_json
from deckcheck.schemas import (
    BatchDeckSchema,
    BatchRequestSchema,
    ExportRequestSchema,
    OddsRequestSchema,
    ValidateRequestSchema,
    plain_deck,
)
from deckcheck.server import http, opened
from rules import odds
from rules.export import ExportError, ExportTooLarge, export
from rules.games import GAMES, LISTS_GAME, PRODUCTS_GAME
from rules.verdict import verdict_of

bp = Blueprint("api", __name__, url_prefix="/api/v1")
# `/cards?collection=` reads the collection from the events database: busy, a 503.
bp.register_error_handler(OperationalError, http.busy_response)

_validate_schema = ValidateRequestSchema()
_export_schema = ExportRequestSchema()
_odds_schema = OddsRequestSchema()
_batch_schema = BatchRequestSchema()
_batch_deck_schema = BatchDeckSchema()
_DATE_FIELD = _validate_schema.fields["date"]
MAX_FORMAT_ID = 80  # the schemas' Length(max=80) on `format`
MAX_BATCH = 20000  # BatchRequestSchema's Length(max=20000) on `decks`
# Batches checked at once per worker process. Another is refused at once (429, try
# again shortly), not queued: 70 batches in parallel once took 94 % of everyone else's
# throughput, and a queue would hold the threads that other requests need.
BATCH_SLOTS = 2
_batch_slots = threading.BoundedSemaphore(BATCH_SLOTS)


# orjson reads an integer beyond 64 bits as a float, losing its last digits; every float
# that large may have been one.
_WIDENED = 2.0**63


def _exact_batch_body() -> dict:
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


def _load_validate(data: dict) -> tuple[str, service.CheckPayload, date | None]:
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


@bp.post("/decks/validate")
def validate():
    format_id, deck, day = _load_validate(json_body())
    fmt = service.find_format(format_id)
    report = service.check(fmt, deck, day)
    return _json(report_json(report, fmt, images()))


def _json(data: dict) -> Response:
    """`jsonify(data)`, byte for byte, without its str round trip (orjson gives bytes,
    jsonify decodes them and the response encodes them again)."""
    return current_app.response_class(_dumps(data) + b"\n", mimetype="application/json")


def _dumps(data: object) -> bytes:
    """The bytes jsonify writes for `data`, without its newline. Reports have text keys
    only, so orjson's check for other keys (two fifths of its time on a report) is left
    to jsonify's own path (an int key, a huge int)."""
    try:
        return orjson.dumps(data)
    except TypeError:
        return jsonify(data).get_data()[:-1]


def _load_batch(data: dict) -> tuple[str, list, date | None]:
    """The batch body as BatchRequestSchema loads it (the common body read directly,
    as in `_load_validate`; anything else, or anything refused, by the schema)."""
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


@bp.post("/decks/validate-batch")
def validate_batch():
    format_id, decks, day = _load_batch(_exact_batch_body())
    fmt = service.find_format(format_id)
    budget = budgets.BatchBudget.for_decks(decks)
    if not _batch_slots.acquire(blocking=False):
        raise ApiError(
            429,
            "too-many-requests",
            f"This server is already checking {BATCH_SLOTS} batches; "
            "send this one again in a few seconds.",
            {"batches_at_once": BATCH_SLOTS},
        )
    try:
        pieces = _check_batch(fmt, decks, day, budget)
    finally:
        _batch_slots.release()
    # The pieces go out as they are (werkzeug counts their length): never joined, so the
    # answer is held once.
    return current_app.response_class(pieces, mimetype="application/json")


def _check_batch(fmt, decks: list, day, budget: budgets.BatchBudget) -> list[bytes]:
    """The batch's JSON, `{"results": [...], "warnings": [...]}` (no warnings: no key), in
    pieces: each deck's result is written as soon as it is checked, so a worker holds the
    answer's bytes and one deck's report, never every report (contract: no request
    grows a worker's memory by more than 50 MB; the budget bounds the answer's bytes)."""
    # One pool for the whole batch: every deck is judged against the same snapshot.
    index = service.pool_index(fmt)
    pieces = [b'{"results":[']
    for at, item in enumerate(decks):
        if budget.spent():
            result = budget.skip(_echoed(item.get("id")))
        else:
            result, work = _batch_result(fmt, item, day, index)
            budget.did(work)
        written = _dumps(result)
        budget.answered(len(written))
        pieces.append(b"," + written if at else written)
    warnings = budget.warnings(len(decks) - budget.skipped)
    pieces.append(b'],"warnings":' + _dumps(warnings) + b"}\n" if warnings else b"]}\n")
    return pieces


def _batch_deck(item: dict) -> service.CheckPayload:
    """A deck of a batch as BatchDeckSchema loads it: the common decks read directly, as
    in `_load_validate`; anything else, and every deck refused, by the schema."""
    plain = _plain_payload(item)
    if plain is not None:
        return plain
    deck = load(_batch_deck_schema, item, "invalid-deck", "This deck is malformed.")
    return service.as_payload(deck)


def _batch_result(fmt, item: dict, on, index) -> tuple[dict, int]:
    """A deck's result, and the work it took (budgets.deck_work: counted, not timed)."""
    lines = budgets.deck_lines(item)
    deck_id = _echoed(item.get("id"))
    if deck_id is None and item.get("id") is not None:
        return budgets.unchecked(None, _UNWRITABLE_ID.body()), budgets.deck_work(1)
    try:
        report = service.check(fmt, _batch_deck(item), on, index)
    except ApiError as err:
        return budgets.unchecked(deck_id, err.body()), budgets.deck_work(lines)
    result = {
        "id": deck_id,
        "legal": report.legal,
        "verdict": verdict_of(report.violations),
        "violations": [violation_json(v) for v in report.violations],
        "warnings": [violation_json(v) for v in report.warnings],
        "fingerprint": report.fingerprint,
    }
    return result, budgets.report_work(lines, report)


_UNWRITABLE_ID = ApiError(
    422,
    "invalid-deck",
    "This deck's id is nested too deeply to be sent back; give it a flatter id.",
    {"fields": {"id": ["nested too deeply"]}},
)


def _echoed(deck_id: object) -> object:
    """The id as it can be written back, None when it cannot: JSON reads arrays nested
    deeper than it writes (orjson: 1,024 levels read, 255 written); one made a 500. An
    integer beyond 64 bits is written by `_dumps`'s other path, exactly."""
    try:
        orjson.dumps(deck_id)
    except TypeError:
        try:
            json.dumps(deck_id)
        except (RecursionError, ValueError):
            return None
    return deck_id


def _games_with(has) -> str:
    """The registered games that `has` a feature, in words: `the Digimon Card Game (dcg)`."""
    return " and ".join(f"the {g.name} ({g.id})" for g in GAMES.values() if has(g))


@bp.post("/decks/export")
def export_deck():
    payload = load(_export_schema, json_body())
    fmt = service.find_format(payload["format"])
    if payload["style"] == "deck-code" and not GAMES[fmt.game].has_deck_codes:
        raise ApiError(
            422,
            "style-not-supported",
            f"Deck codes exist for {_games_with(lambda g: g.has_deck_codes)} only.",
            {"style": "deck-code", "game": fmt.game},
        )
    report = service.check(fmt, service.as_payload(payload), payload["date"])
    try:
        content = export(report.deck, payload["style"])
    except ExportTooLarge as err:
        raise ApiError(422, "export-too-large", str(err), err.details) from err
    except ExportError as err:
        raise ApiError(422, "style-not-supported", str(err)) from err
    return jsonify(
        {
            "style": payload["style"],
            "content": content,
            "warnings": unread.warnings(report.deck),
        }
    )


@bp.post("/decks/odds")
def deck_odds():
    payload = load(_odds_schema, json_body())
    fmt = service.find_format(payload["format"])
    if GAMES[fmt.game].draws is None:
        # A game registered without its draw rules (rules/games.py) has no odds to give.
        raise ApiError(
            422,
            "odds-not-known",
            f"deckcheck does not know how a {GAMES[fmt.game].name} hand is drawn, so it "
            f"has no odds for its decks (it has them for {_games_with(lambda g: g.draws)}).",
            {"game": fmt.game},
        )
    report = service.check(fmt, service.as_payload(payload), payload["date"])
    body = odds.deck_odds(report.deck, payload["turn"])
    copy_limit = fmt.check_of("copy-limit")
    body["limits"] = {
        e.card.number: copy_limit.limit_for(e.card) if copy_limit else None
        for e in report.deck.entries
    }
    return jsonify(body)


@bp.get("/formats")
def formats():
    loaded = registry()
    return jsonify(
        {
            "data": [service.format_json(f, full=False) for f in loaded.formats.values()],
            "errors": loaded.errors,
        }
    )


@bp.get("/formats/<format_id>")
def format_detail(format_id: str):
    fmt = registry().formats.get(format_id)
    if fmt is None:
        raise ApiError(404, "unknown-format", f"There is no format {format_id!r}.")
    return jsonify(service.format_detail_json(fmt))


@bp.get("/cards")
@reads_date_itself  # CardQuerySchema answers for every field it cannot read, date included
def cards():
    query, day = cardsearch.load_query(request.args)
    found = cardsearch.find(query, day)
    body = {
        "data": [cardsearch.card_json(row) for row in found.rows],
        "total": found.total,
        "page": query.page,
        "has_more": query.page * query.per_page < found.total,
    }
    if found.did_you_mean:
        body["did_you_mean"] = found.did_you_mean
    if found.note:
        body["note"] = found.note
    return jsonify(body)


@bp.get("/cards/<game>/<path:number>")
def card(game: str, number: str):
    if game not in GAMES:
        raise ApiError(
            404, "unknown-game", f"There is no game {game!r}; games: {', '.join(GAMES)}."
        )
    row = find_card(get_db(), game, number)
    if row is None:
        raise ApiError(404, "card-not-found", f"No {game} card has the number {number!r}.")
    return jsonify(cardsearch.card_json(row))


@bp.get("/pools")
def pools_status():
    return jsonify({"data": freshness.with_lists(get_db())})


@bp.get("/formats/dcg/products")
def dcg_products():
    fmt = service.find_format(GAMES[PRODUCTS_GAME].format_id)
    return jsonify(products_json(service.pool_index(fmt)))


@bp.get("/formats/dcg/lists")
def dcg_lists():
    return jsonify(list_store.current(get_db(), LISTS_GAME).raw)


@bp.get("/health")
def health():
    # The database as this worker has it (health opens nothing): while it does not
    # take writes, a 503 tells a load balancer to send saves elsewhere.
    database = current_app.extensions.get(opened.KEY)
    problem = database.writes.problem() if database is not None else None
    if problem is not None:
        raise ApiError(
            503,
            "database-not-writable",
            f"The server's database does not take writes ({problem}): "
            "saves are answered 503 until it does.",
            {"cause": problem},
        )
    return jsonify({"status": "ok", "version": __version__})


@bp.get("/openapi.json")
def openapi():
    return jsonify(spec(tuple(registry().formats)))


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
