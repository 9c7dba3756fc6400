"""The events pages of an event at a venue (issue 44): the organizer's marks as forms,
the rows the live table fetches, the open decklists page, the exports. Routes on the
events pages' blueprint (deckcheck.events.pages)."""

from __future__ import annotations

from flask import redirect, request, stream_template

from deckcheck.errors import ApiError
from deckcheck.events import core, names, venue
from deckcheck.events.pages import _admin_row, bp

YES = {"yes": True, "no": False}
MAX_ROWS = 500  # rows one live update fetches (the changes API pages at this size too)


@bp.post("/e/<event_id>/admin/submissions/<submission_id>/marks")
def admin_mark(event_id: str, submission_id: str):
    """A mark set from the table's form (without scripts): back to the organizer's page,
    its token in the fragment again (browsers never send a fragment anywhere)."""
    row = _admin_row(event_id)
    values = {k: YES[v] for k, v in request.form.items() if k in venue.MARKS and v in YES}
    if not values:
        raise ApiError(400, "no-mark", "Choose a mark to set (checked in, accepted, published).")
    venue.mark(row, submission_id, values)
    return redirect(f"/e/{event_id}/admin#{request.form.get('token', '')}", 303)


@bp.get("/e/<event_id>/admin/rows")
def admin_rows(event_id: str):
    """The table's rows of these submissions (`ids`, comma-separated), as the whole
    table renders them: the live table puts them in place of the rows it has."""
    row = _admin_row(event_id)
    ids = [i for i in request.args.get("ids", "").split(",") if names.is_id(i)][:MAX_ROWS]
    core.refresh(row)
    return stream_template(
        "events/_rows.html", event=core.event_json(row), rows=core.rows(row, ids)
    )
