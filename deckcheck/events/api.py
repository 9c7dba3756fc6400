"""The events API (/api/v1/events): create, submit, and the organizer's calls.

Organizer calls carry `Authorization: Bearer <admin token>`; the token is compared
in constant time (as a SHA-256 hash) and never written to a log or the database.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request

from deckcheck.api import _json_body, _load
from deckcheck.csvout import csv_response
from deckcheck.errors import ApiError
from deckcheck.events import core
from deckcheck.events.schemas import (
    EventChangeSchema,
    EventRequestSchema,
    SubmissionRequestSchema,
)

bp = Blueprint("events_api", __name__, url_prefix="/api/v1/events")

_event_schema = EventRequestSchema()
_change_schema = EventChangeSchema()
_submission_schema = SubmissionRequestSchema()


@bp.before_request
def _body_limit() -> None:
    request.max_content_length = current_app.config["BODY_LIMIT"]


def _admin(event_id: str) -> dict:
    return core.admin_event(event_id, core.bearer_token())


@bp.post("")
def create_event():
    fields = core.new_event_fields(_load(_event_schema, _json_body()))
    row, token = core.store().create_event(fields)
    data = core.event_json(row)
    data["admin_url"] = f"{core.base_url()}/e/{row['id']}/admin#{token}"
    data["admin_token"] = token
    return jsonify(data), 201


@bp.get("/<event_id>")
def get_event(event_id: str):
    row = core.find_event(event_id)
    return jsonify(core.event_json(row, core.store().players(event_id)))


@bp.patch("/<event_id>")
def change_event(event_id: str):
    _admin(event_id)
    data = _load(_change_schema, _json_body())
    values = {key: data[key].strip() for key in ("name", "description") if key in data}
    if "deadline" in data:
        values.update(core.moved_deadline(data["deadline"]))
    changed = core.store().update_event(event_id, **values) if values else None
    # None: nothing to change, or the event was deleted meanwhile (find_event says 404).
    row = changed or core.find_event(event_id)
    return jsonify(core.event_json(row, core.store().players(event_id)))


@bp.delete("/<event_id>")
def delete_event(event_id: str):
    _admin(event_id)
    core.store().delete_event(event_id)
    return Response(status=204)


@bp.post("/<event_id>/submissions")
def submit(event_id: str):
    row = core.find_event(event_id)
    data = _load(_submission_schema, _json_body())
    entry = {"decklist": data["decklist"]} if "decklist" in data else {"deck": data["deck"]}
    stored, verdict = core.submit(row, data["player"].strip(), data["player_id"].strip(), entry)
    return jsonify({"submission": core.submission_json(stored, verdict)}), 201


@bp.get("/<event_id>/submissions")
def submissions(event_id: str):
    return jsonify({"data": core.table(_admin(event_id))})


@bp.get("/<event_id>/submissions.csv")
def submissions_csv(event_id: str):
    row = _admin(event_id)
    rows = core.table_csv_rows(core.table(row))
    return csv_response(core.CSV_HEADER, rows, f"event-{event_id}.csv")


def _set_locked(event_id: str, locked: bool):
    _admin(event_id)
    row = core.store().update_event(event_id, locked=locked) or core.find_event(event_id)
    return jsonify(core.event_json(row, core.store().players(event_id)))


@bp.post("/<event_id>/lock")
def lock(event_id: str):
    return _set_locked(event_id, True)


@bp.post("/<event_id>/unlock")
def unlock(event_id: str):
    return _set_locked(event_id, False)


@bp.delete("/<event_id>/submissions/<submission_id>")
def drop(event_id: str, submission_id: str):
    _admin(event_id)
    if not core.store().drop(event_id, submission_id):
        raise ApiError(404, "submission-not-found", "This event has no such current submission.")
    return Response(status=204)
