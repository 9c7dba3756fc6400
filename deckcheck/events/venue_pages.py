"""The events pages of an event at a venue (issue 44): the organizer's marks as forms,
the rows the live table fetches, the open decklists page, the exports. Routes on the
events pages' blueprint (deckcheck.events.pages)."""

from __future__ import annotations

from flask import redirect, render_template, request, stream_template

from deckcheck.csvout import csv_response
from deckcheck.errors import ApiError
from deckcheck.events import core, organizer, published, venue, zones
from deckcheck.events.admin_pages import admin_row
from deckcheck.events.pages import _choices, bp
from deckcheck.server import http, names
from rules.games import SECTION_NAMES

YES = {"yes": True, "no": False}
MAX_ROWS = 500  # rows one live update fetches (the changes API pages at this size too)


@bp.post("/e/<event_id>/admin/submissions/<submission_id>/marks")
def admin_mark(event_id: str, submission_id: str):
    """A mark set from the table's form (without scripts): back to the organizer's page,
    its token in the fragment again (browsers never send a fragment anywhere)."""
    row = admin_row(event_id)
    values = {k: YES[v] for k, v in request.form.items() if k in venue.MARKS and v in YES}
    if not values:
        raise ApiError(400, "no-mark", "Choose a mark to set (checked in, accepted, published).")
    venue.mark(row, submission_id, values)
    return redirect(f"/e/{event_id}/admin#{request.form.get('token', '')}", 303)


@bp.get("/e/<event_id>/admin/rows")
def admin_rows(event_id: str):
    """The table's rows of these submissions (`ids`, comma-separated), as the whole
    table renders them: the live table puts them in place of the rows it has."""
    row = admin_row(event_id)
    ids = [i for i in request.args.get("ids", "").split(",") if names.is_id(i)][:MAX_ROWS]
    organizer.refresh(row)
    page = stream_template(
        "events/_rows.html",
        event=core.event_json(row),
        rows=organizer.rows(row, ids),
        zone=zones.zone_name(row),
    )
    return http.in_pieces(page)


@bp.get("/e/<event_id>/lists")
def open_lists(event_id: str):
    """The published lists, printable, names only (404 before lists close)."""
    row = core.find_event(event_id)
    published.check_published(row)
    # A list, not a generator: the page names every player before their lists.
    return render_template(
        "events/lists.html",
        event=core.event_json(row),
        lists=list(published.open_lists(row)),
        section_names=SECTION_NAMES,
    )


EXPORTS = {
    "players.csv": lambda row: csv_response(
        published.PLAYERS_HEADER, published.players_rows(row), f"event-{row['id']}-players.csv"
    ),
    "cards.csv": lambda row: csv_response(
        published.CARDS_HEADER, published.cards_rows(row), f"event-{row['id']}-cards.csv"
    ),
}


@bp.post("/e/<event_id>/admin/export/<name>")
def admin_export(event_id: str, name: str):
    """The exports from the organizer's page (a form carries the token): the same files
    as the API's."""
    row = admin_row(event_id)
    if name == "lists.json":
        return published.json_download(published.lists_json(row), f"event-{event_id}-lists.json")
    if name not in EXPORTS:
        raise ApiError(
            404,
            "export-not-found",
            "There is no such export: players.csv, lists.json or cards.csv.",
        )
    return EXPORTS[name](row)


@bp.post("/e/<event_id>/admin/settings")
def admin_settings(event_id: str):
    """Publishing and the cut-off, from the organizer's form (without scripts): the form
    sends both, as the create form does (a value not offered is a 422)."""
    admin_row(event_id)
    core.store().update_event(event_id, **_choices(request.form))
    return redirect(f"/e/{event_id}/admin#{request.form.get('token', '')}", 303)
