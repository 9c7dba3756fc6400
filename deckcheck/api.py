"""The JSON API under /api/v1 (contract). One success response per view; the rest
are errors of the one shape built in `deckcheck.errors`."""

from __future__ import annotations

import orjson
from flask import Blueprint, Flask, jsonify, request
from marshmallow import Schema, ValidationError

from cardpool.search import find_card
from deckcheck import __version__, cardsearch, service, unread
from deckcheck.db import get_db
from deckcheck.errors import ApiError
from deckcheck.format_registry import registry
from deckcheck.schemas import (
    BatchDeckSchema,
    BatchRequestSchema,
    ExportRequestSchema,
    OddsRequestSchema,
    ValidateRequestSchema,
)
from rules import odds
from rules.export import ExportError, export
from rules.games import GAMES

bp = Blueprint("api", __name__, url_prefix="/api/v1")

_validate_schema = ValidateRequestSchema()
_export_schema = ExportRequestSchema()
_odds_schema = OddsRequestSchema()
_batch_schema = BatchRequestSchema()
_batch_deck_schema = BatchDeckSchema()


def _json_body() -> dict:
    raw = request.get_data(cache=False)
    try:
        data = orjson.loads(raw)
    except (orjson.JSONDecodeError, RecursionError) as err:
        raise ApiError(400, "malformed-json", f"The body is not valid JSON: {err}") from err
    if not isinstance(data, dict):
        raise ApiError(400, "malformed-json", "The body must be a JSON object.")
    return data


def _load(
    schema: Schema,
    data: dict,
    code: str = "invalid-request",
    message: str = "Some fields are missing or wrong.",
) -> dict:
    try:
        return schema.load(data)
    except ValidationError as err:
        raise ApiError(422, code, message, {"fields": err.messages}) from err


@bp.post("/decks/validate")
def validate():
    payload = _load(_validate_schema, _json_body())
    fmt = service.find_format(payload["format"])
    report = service.check(fmt, service.as_payload(payload), payload["date"])
    return jsonify(service.report_json(report, fmt))


@bp.post("/decks/validate-batch")
def validate_batch():
    payload = _load(_batch_schema, _json_body())
    fmt = service.find_format(payload["format"])
    results = [_batch_result(fmt, item, payload["date"]) for item in payload["decks"]]
    return jsonify({"results": results})


def _batch_result(fmt, item: dict, on) -> dict:
    deck_id = item.get("id")
    try:
        deck = _load(_batch_deck_schema, item, "invalid-deck", "This deck is malformed.")
        report = service.check(fmt, service.as_payload(deck), on)
    except ApiError as err:
        return {
            "id": deck_id,
            "legal": False,
            "violations": [],
            "warnings": [],
            "fingerprint": None,
            **err.body(),
        }
    return {
        "id": deck_id,
        "legal": report.legal,
        "violations": [service.violation_json(v) for v in report.violations],
        "warnings": [service.violation_json(v) for v in report.warnings],
        "fingerprint": report.fingerprint,
    }


@bp.post("/decks/export")
def export_deck():
    payload = _load(_export_schema, _json_body())
    fmt = service.find_format(payload["format"])
    if payload["style"] == "deck-code" and not GAMES[fmt.game].has_deck_codes:
        raise ApiError(
            422,
            "style-not-supported",
            "Deck codes exist for the Digimon Card Game (dcg) only.",
            {"style": "deck-code", "game": fmt.game},
        )
    report = service.check(fmt, service.as_payload(payload), payload["date"])
    try:
        content = export(report.deck, payload["style"])
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
    payload = _load(_odds_schema, _json_body())
    fmt = service.find_format(payload["format"])
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
    return jsonify(service.format_json(fmt))


@bp.get("/cards")
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


@bp.get("/health")
def health():
    return jsonify({"status": "ok", "version": __version__})


@bp.get("/openapi.json")
def openapi():
    from deckcheck.openapi import spec

    return jsonify(spec(tuple(registry().formats)))


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
