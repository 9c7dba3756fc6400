"""The events API for an event at a venue (contract "Events at a venue"): the
organizer's marks and check-in, the published lists, the exports, the live table's
changes. Routes on the events API's blueprint (deckcheck.events.api)."""

from __future__ import annotations

from flask import jsonify, request

from deckcheck.bodies import json_body, load
from deckcheck.csvout import csv_response
from deckcheck.events import core, published, venue
from deckcheck.events.api import _admin, bp
from deckcheck.events.marks import marks_json
from deckcheck.events.schemas import MarksRequestSchema
from deckcheck.server import names

_marks_schema = MarksRequestSchema()
CHANGES_PAGE = 500  # changes per answer: one update of the live table stays small


def marked_json(row: dict, sub: dict) -> dict:
    """A list as the player was told, with the organizer's marks and today's verdict."""
    return {"submission": {**core.submission_json(sub), **marks_json(sub, row)}}


@bp.patch("/<event_id>/submissions/<submission_id>")
def mark(event_id: str, submission_id: str):
    """Mark a list for "marked" publishing, or accept a "needs a look" list."""
    row = _admin(event_id)
    values = load(_marks_schema, json_body())
    return jsonify(marked_json(row, venue.mark(row, submission_id, values)))


@bp.post("/<event_id>/submissions/<submission_id>/check-in")
def check_in(event_id: str, submission_id: str):
    row = _admin(event_id)
    return jsonify(marked_json(row, venue.mark(row, submission_id, {"checked_in": True})))


@bp.delete("/<event_id>/submissions/<submission_id>/check-in")
def undo_check_in(event_id: str, submission_id: str):
    row = _admin(event_id)
    return jsonify(marked_json(row, venue.mark(row, submission_id, {"checked_in": False})))


def _cursor(text: str | None) -> int:
    """A cursor the changes call handed out (a change id); absent: from the start."""
    if text is None or text == "":
        return 0
    if not text.isascii() or not text.isdigit() or len(text) > 18:
        raise names.FieldError("since", "Not a cursor this call handed out (a number).")
    return int(text)


@bp.get("/<event_id>/changes")
def changes(event_id: str):
    """What changed since the cursor, oldest first, at most CHANGES_PAGE at a time (ask
    again with the cursor returned until `data` is empty)."""
    row = _admin(event_id)
    found, cursor = core.store().changes_since(
        event_id, _cursor(request.args.get("since")), CHANGES_PAGE
    )
    wanted = list({c.submission_id for c in found})
    subs = {s["id"]: s for s in core.store().by_ids(event_id, wanted, with_entry=False)}
    data = [
        {"kind": c.kind, "submission": _changed_json(row, subs[c.submission_id])}
        for c in found
        if c.submission_id in subs
    ]
    return jsonify({"data": data, "cursor": str(cursor)})


def _changed_json(row: dict, sub: dict) -> dict:
    return {**marked_json(row, sub)["submission"], "status": sub["status"]}


@bp.get("/<event_id>/lists")
def open_lists(event_id: str):
    """The published lists (names only): once lists close, if the organizer publishes."""
    row = core.find_event(event_id)
    published.check_published(row)
    return published.json_download(published.open_lists(row))


@bp.get("/<event_id>/players.csv")
def players_csv(event_id: str):
    row = _admin(event_id)
    rows = published.players_rows(row)
    return csv_response(published.PLAYERS_HEADER, rows, f"event-{event_id}-players.csv")


@bp.get("/<event_id>/lists.json")
def lists_json(event_id: str):
    """Every current list in Limitless's shape and as a deck code, for pairing software."""
    return published.json_download(
        published.lists_json(_admin(event_id)), f"event-{event_id}-lists.json"
    )


@bp.get("/<event_id>/cards.csv")
def cards_csv(event_id: str):
    row = _admin(event_id)
    rows = published.cards_rows(row)
    return csv_response(published.CARDS_HEADER, rows, f"event-{event_id}-cards.csv")
