"""The events API (/api/v1/events): create, submit, and the organizer's calls.

Organizer calls carry `Authorization: Bearer <admin token>`; the token is compared
in constant time (as a SHA-256 hash) and never written to a log or the database.
"""

from __future__ import annotations

import json

import orjson
from flask import Blueprint, Response, current_app, jsonify, stream_with_context

from deckcheck.bodies import json_body, load
from deckcheck.csvout import csv_response
from deckcheck.errors import ApiError
from deckcheck.events import core, event_fields, limits, organizer, venue, zones
from deckcheck.events.schemas import (
    EventChangeSchema,
    EventRequestSchema,
    MergeRequestSchema,
    SubmissionRequestSchema,
)
from deckcheck.events.store import EventFull
from deckcheck.server import http, names

bp = Blueprint("events_api", __name__, url_prefix="/api/v1/events")

_event_schema = EventRequestSchema()
_change_schema = EventChangeSchema()
_submission_schema = SubmissionRequestSchema()
_merge_schema = MergeRequestSchema()


def _admin(event_id: str) -> dict:
    return core.admin_event(event_id, http.bearer_token())


@bp.post("")
def create_event():
    core.check_create_key()  # before the body is read: no key, nothing else to say
    row, token = core.create_event(load(_event_schema, json_body()))
    data = core.event_json(row)
    data["admin_url"] = f"{http.base_url()}/e/{row['id']}/admin#{token}"
    data["admin_token"] = token
    return jsonify(data), 201


@bp.get("/<event_id>")
def get_event(event_id: str):
    row = core.find_event(event_id)
    return jsonify(core.event_json(row, core.store().players(event_id)))


@bp.patch("/<event_id>")
def change_event(event_id: str):
    _admin(event_id)
    data = load(_change_schema, json_body())
    values = {}
    if "name" in data:
        values["name"] = names.clean("name", data["name"], names.EVENT_MAX)
    if "description" in data:
        values["description"] = names.text_field(
            "description", data["description"], event_fields.MAX_DESCRIPTION
        )
    if "deadline" in data:
        values.update(event_fields.moved_deadline(data["deadline"]))
    if "time_zone" in data:
        values["time_zone"] = zones.read_zone(data["time_zone"])
    values.update({k: data[k] for k in ("publish", "cutoff") if k in data})
    if "venue" in data:
        values.update(limits.read_venue(data["venue"]))
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
    data = load(_submission_schema, json_body())
    player, player_id = event_fields.player_fields(data["player"], data["player_id"])
    entry = {"decklist": data["decklist"]} if "decklist" in data else {"deck": data["deck"]}
    stored, verdict, token = core.submit(
        row, player, player_id, entry, data.get("edit_token"), http.bearer_token()
    )
    body = {"submission": core.submission_json(stored, verdict), "edit_token": token}
    return jsonify(body), 201


@bp.get("/<event_id>/submissions/mine")
def own_submission(event_id: str):
    """The player's own current list, for their private link to fill the form with."""
    sub = core.own_submission(event_id, http.bearer_token())
    body = {
        "submission": core.submission_json(sub),
        "decklist": organizer.list_text(json.loads(sub["entry"])),
    }
    return jsonify(body)


def _json_table(row: dict):
    """{"data": [...]} written a row at a time: 2,000 players never sit in memory at once."""
    yield b'{"data":['
    for n, item in enumerate(organizer.table(row)):
        yield (b"," if n else b"") + orjson.dumps(item)
    yield b"]}"


@bp.get("/<event_id>/submissions")
def submissions(event_id: str):
    row = _admin(event_id)
    organizer.refresh(row)
    return Response(stream_with_context(_json_table(row)), mimetype="application/json")


@bp.get("/<event_id>/submissions.csv")
def submissions_csv(event_id: str):
    row = _admin(event_id)
    organizer.refresh(row)
    rows = organizer.table_csv_rows(organizer.table(row, with_lists=True))
    return csv_response(organizer.CSV_HEADER, rows, f"event-{event_id}.csv")


@bp.post("/<event_id>/lock")
def lock(event_id: str):
    """Lock lists; with the event's cut-off "drop", players with illegal lists drop."""
    row = venue.lock(_admin(event_id))
    return jsonify(core.event_json(row, core.store().players(event_id)))


@bp.post("/<event_id>/unlock")
def unlock(event_id: str):
    """Unlock lists; the players the cut-off dropped are back."""
    row = venue.unlock(_admin(event_id))
    return jsonify(core.event_json(row, core.store().players(event_id)))


@bp.delete("/<event_id>/submissions/<submission_id>")
def drop(event_id: str, submission_id: str):
    _admin(event_id)
    if not names.is_id(submission_id) or not core.store().drop(event_id, submission_id):
        raise ApiError(404, "submission-not-found", "This event has no such current submission.")
    return Response(status=204)


@bp.get("/<event_id>/submissions/<submission_id>")
def organizer_submission(event_id: str, submission_id: str):
    """One player's current list as text, for the organizer's table to show on demand."""
    row = _admin(event_id)
    sub = organizer.organizer_submission(row, submission_id)
    body = {
        "submission": core.submission_json(sub),
        "decklist": organizer.list_text(json.loads(sub["entry"])),
    }
    return jsonify(body)


@bp.post("/<event_id>/submissions/<submission_id>/merge")
def merge(event_id: str, submission_id: str):
    """One player written twice: this row's list stays, the other row's lists (`from`)
    become its history."""
    row = _admin(event_id)
    merged = organizer.merge(row, submission_id, load(_merge_schema, json_body())["merge_from"])
    return jsonify({"submission": core.submission_json(merged)})


@bp.post("/<event_id>/submissions/<submission_id>/restore")
def restore(event_id: str, submission_id: str):
    """Take a dropped player back: the list that was current when they were dropped."""
    _admin(event_id)
    try:
        restored = names.is_id(submission_id) and core.store().restore(
            event_id, submission_id, current_app.config["EVENTS_MAX_PLAYERS"]
        )
    except EventFull as err:
        raise core.full_error() from err
    if not restored:
        raise ApiError(404, "submission-not-found", "This event has no such dropped player.")
    return jsonify({"submission": core.submission_json(restored)})
