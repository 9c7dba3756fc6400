"""The organizer's pages of an event (/e/<id>/admin): the table, its CSV, the
registration sheets and the deck check at the table. Routes on the events pages'
blueprint (deckcheck.events.pages); every one but the page itself asks for the admin
token (`admin_row`), which admin.js sends as an Authorization header or a form field.
"""

from __future__ import annotations

from flask import render_template, request, stream_template, url_for

from deckcheck import service
from deckcheck.csvout import csv_response
from deckcheck.errors import ApiError
from deckcheck.events import core, event_fields, organizer, verdicts, zones
from deckcheck.events.judge import judge, stored_report
from deckcheck.events.pages import bp
from deckcheck.server import http, names
from deckcheck.server.verdicts.keys import current_key
from rules.games import SECTION_NAMES
from rules.lock import compare_decks

SHEETS_PAGE = 100  # lists read and judged per database round trip


@bp.get("/e/<event_id>/admin")
def admin(event_id: str):
    row = core.find_event(event_id)
    return render_template(
        "events/admin.html", event=core.event_json(row, core.store().players(event_id))
    )


def admin_row(event_id: str) -> dict:
    return core.admin_event(event_id, http.bearer_token() or request.form.get("token"))


@bp.get("/e/<event_id>/admin/table")
def admin_table(event_id: str):
    row = admin_row(event_id)
    # The cursor before the rows: a change made while they are read is fetched again
    # by the live table (harmless), never missed.
    cursor = core.store().last_change(event_id)
    organizer.refresh(row)
    tally = core.store().tally(event_id)
    return http.in_pieces(stream_template(
        "events/_table.html",
        cursor=cursor,
        event=core.event_json(row, tally["players"]),
        rows=organizer.table(row),
        tally=tally,
        zone=zones.zone_name(row),
        dropped=core.store().dropped(event_id),
    ))  # fmt: skip


@bp.post("/e/<event_id>/admin/submissions.csv")
def admin_csv(event_id: str):
    row = admin_row(event_id)
    organizer.refresh(row)
    rows = organizer.table_csv_rows(organizer.table(row, with_lists=True))
    return csv_response(organizer.CSV_HEADER, rows, f"event-{event_id}.csv")


def _sheets(row: dict, fmt, ids: list[str]):
    """One sheet per list, a page of lists at a time: each list's stored sheet, judged
    again (and stored) only when its format, list history or card pool changed."""
    key, index = current_key(fmt)
    on = event_fields.event_day(row)
    for start in range(0, len(ids), SHEETS_PAGE):
        fresh = []
        for sub in core.store().by_ids(row["id"], ids[start : start + SHEETS_PAGE]):
            sheet, stored = verdicts.sheet_now(sub, fmt, on, key, index)
            if stored is not None:
                fresh.append(stored)
            yield {
                **sheet,
                "player": sub["player"],
                "player_id": sub["player_id"],
                "data": {"deck": sheet["deck"]} if sheet.get("deck") else None,
                "qr_url": url_for("events.receipt_qr", event_id=row["id"], submission_id=sub["id"]),
                "submitted_at": sub["submitted_at"],
            }
        core.store().save_judged(fresh)


@bp.post("/e/<event_id>/admin/sheets")
def admin_sheets(event_id: str):
    row = admin_row(event_id)
    fmt = event_fields.event_format(row, service.find_format(row["format"]))
    only = request.form.get("only")
    players = [p for p in core.store().current_ids(event_id) if not only or p[0] == only]
    players.sort(key=lambda p: (names.fold(p[1]), p[2]))
    return stream_template(
        "events/sheets.html",
        title=row["name"],
        subtitle=f"{fmt.name} ({fmt.id}) · {row['date']}",
        sheets=_sheets(row, fmt, [p[0] for p in players]),
        count=len(players),
        section_names=SECTION_NAMES,
        zone=zones.zone_name(row),
    )


@bp.post("/e/<event_id>/admin/deck-check")
def admin_deck_check(event_id: str):
    row = admin_row(event_id)
    fmt = event_fields.event_format(row, service.find_format(row["format"]))
    sub = core.find_submission(event_id, request.form.get("submission", ""))
    if sub is None:
        raise ApiError(404, "submission-not-found", "Choose a player of this event.")
    presented_text = request.form.get("presented", "")
    if not presented_text.strip():
        raise ApiError(400, "empty-decklist", "Type or paste the deck presented at the table.")
    on = event_fields.event_day(row)
    registered = stored_report(fmt, sub, on)[0]  # as it was read when it was sent
    presented = judge(fmt, {"decklist": presented_text}, on)
    return render_template(
        "events/deck_check.html",
        event=core.event_json(row),
        sub=sub,
        comparison=compare_decks(registered.deck, presented.deck),
        registered=registered,
        presented=presented,
        section_names=SECTION_NAMES,
    )
