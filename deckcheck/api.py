"""The JSON API under /api/v1 (contract). One success response per view; the rest
are errors of the one shape built in `deckcheck.errors`. The validate and batch bodies
are read by `deckcheck.check_bodies`."""

from __future__ import annotations

import json
import threading

import orjson
from flask import Blueprint, Flask, Response, current_app, jsonify, request

from cardpool import freshness, list_store
from cardpool.search import find_card
from deckcheck import __version__, budgets, cardsearch, check_bodies, service, unread
from deckcheck.bodies import json_body, load
from deckcheck.days import reads_date_itself
from deckcheck.db import get_db
from deckcheck.errors import ApiError
from deckcheck.format_registry import registry
from deckcheck.images import images
from deckcheck.openapi import spec
from deckcheck.products import products_json
from deckcheck.report_json import report_json, violation_json
from deckcheck.schemas import ExportRequestSchema, OddsRequestSchema
from deckcheck.server import opened
from rules import odds
from rules.export import ExportError, ExportTooLarge, export
from rules.games import GAMES, LISTS_GAME, PRODUCTS_GAME
from rules.verdict import verdict_of

bp = Blueprint("api", __name__, url_prefix="/api/v1")

_export_schema = ExportRequestSchema()
_odds_schema = OddsRequestSchema()
# Batches checked at once per worker process. Another is refused at once (429, try
# again shortly), not queued: 70 batches in parallel once took 94 % of everyone else's
# throughput, and a queue would hold the threads that other requests need.
BATCH_SLOTS = 2
_batch_slots = threading.BoundedSemaphore(BATCH_SLOTS)


@bp.post("/decks/validate")
def validate():
    format_id, deck, day = check_bodies.load_validate(json_body())
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


@bp.post("/decks/validate-batch")
def validate_batch():
    format_id, decks, day = check_bodies.load_batch(check_bodies.exact_batch_body())
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


def _batch_result(fmt, item: dict, on, index) -> tuple[dict, int]:
    """A deck's result, and the work it took (budgets.deck_work: counted, not timed)."""
    lines = budgets.deck_lines(item)
    deck_id = _echoed(item.get("id"))
    if deck_id is None and item.get("id") is not None:
        return budgets.unchecked(None, _UNWRITABLE_ID.body()), budgets.deck_work(1)
    try:
        report = service.check(fmt, check_bodies.batch_deck(item), on, index)
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
