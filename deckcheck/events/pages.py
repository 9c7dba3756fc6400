"""The events pages: create an event, the player's form and receipt (/e/<id>), the
organizer's table, sheets and deck check (/e/<id>/admin).

The admin token lives in the address's fragment (#...), which browsers never send:
static JS (admin.js) hands it over as an Authorization header or a form field.
"""

from __future__ import annotations

import json

import segno
from flask import Blueprint, current_app, redirect, render_template, request, url_for

from deckcheck import service
from deckcheck.csvout import csv_response
from deckcheck.errors import ApiError
from deckcheck.events import core
from deckcheck.events.judge import judge, unresolved_lines
from deckcheck.format_registry import registry
from deckcheck.report_json import report_json
from rules.games import SECTIONS
from rules.lock import compare

bp = Blueprint("events", __name__)
MAX_UPLOAD = 1024 * 1024
SECTION_NAMES = {s.id: s.heading for s in SECTIONS.values()}  # the registry's (rules.games)


@bp.before_request
def _body_limit() -> None:
    request.max_content_length = current_app.config["BODY_LIMIT"]


def qr_svg(address: str) -> str:
    """A QR code of an address as inline SVG (no script, no image request)."""
    return segno.make(address, error="m").svg_inline(scale=2, border=2, title=address)


@bp.get("/e/new")
def new_event():
    return render_template(
        "events/new.html", formats=registry().formats.values(), today=service.today()
    )


@bp.post("/e/new")
def create_event():
    form = request.form
    deadline = form.get("deadline", "").strip()
    offset = form.get("offset", "").strip() or "Z"
    if deadline and len(deadline) <= 16:
        # <input type="datetime-local"> has no zone: events.js adds the browser's offset.
        deadline = f"{deadline}:00{offset}" if len(deadline) == 16 else deadline
    fields = core.new_event_fields(
        {
            "name": form.get("name", "").strip()[:200] or "Event",
            "format": form.get("format", "dcg"),
            "date": _date(form.get("date")),
            "deadline": deadline or "",
            "description": form.get("description", "")[: core.MAX_DESCRIPTION],
        }
    )
    row, token = core.store().create_event(fields)
    return render_template(
        "events/created.html",
        event=core.event_json(row),
        admin_url=f"{core.base_url()}/e/{row['id']}/admin#{token}",
    )


def _date(text: str | None):
    from datetime import date

    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError as err:
        raise ApiError(400, "bad-date", f"{text!r} is not a date like 2024-03-01.") from err


@bp.get("/e/<event_id>")
def event_page(event_id: str):
    row = core.find_event(event_id)
    return render_template(
        "events/event.html", event=core.event_json(row, core.store().players(event_id))
    )


@bp.post("/e/<event_id>")
def submit(event_id: str):
    row = core.find_event(event_id)
    player = request.form.get("player", "").strip()
    text = request.form.get("decklist", "")
    upload = request.files.get("file")
    if upload and upload.filename:
        text = upload.read(MAX_UPLOAD + 1).decode("utf-8", errors="replace")
    if not player or len(player) > 200:
        raise ApiError(400, "no-player", "Write your name (up to 200 characters).")
    if not text.strip():
        raise ApiError(400, "empty-decklist", "Paste your decklist (or choose a file) first.")
    player_id = request.form.get("player_id", "").strip()[:100]
    stored, _ = core.submit(row, player, player_id, {"decklist": text})
    return redirect(url_for("events.receipt", event_id=event_id, submission_id=stored["id"]), 303)


@bp.get("/e/<event_id>/r/<submission_id>")
def receipt(event_id: str, submission_id: str):
    row = core.find_event(event_id)
    sub = core.store().submission(event_id, submission_id)
    if sub is None:
        raise ApiError(404, "submission-not-found", "There is no receipt at this address.")
    address = core.receipt_url(sub)
    verdict = json.loads(sub["verdict"])
    return render_template(
        "events/receipt.html",
        event=core.event_json(row),
        sub=sub,
        verdict=verdict,
        qr=qr_svg(address),
        address=address,
    )


@bp.get("/e/<event_id>/admin")
def admin(event_id: str):
    row = core.find_event(event_id)
    return render_template(
        "events/admin.html", event=core.event_json(row, core.store().players(event_id))
    )


def _admin_row(event_id: str) -> dict:
    return core.admin_event(event_id, core.bearer_token() or request.form.get("token"))


@bp.get("/e/<event_id>/admin/table")
def admin_table(event_id: str):
    row = _admin_row(event_id)
    rows = core.table(row)
    return render_template(
        "events/_table.html",
        event=core.event_json(row, len(rows)),
        rows=rows,
        illegal=sum(not r["legal"] for r in rows),
        changed=sum(r["changed"] for r in rows),
    )


@bp.post("/e/<event_id>/admin/submissions.csv")
def admin_csv(event_id: str):
    row = _admin_row(event_id)
    rows = core.table_csv_rows(core.table(row))
    return csv_response(core.CSV_HEADER, rows, f"event-{event_id}.csv")


@bp.post("/e/<event_id>/admin/sheets")
def admin_sheets(event_id: str):
    row = _admin_row(event_id)
    fmt = service.find_format(row["format"])
    only = request.form.get("only")
    subs = [s for s in core.store().current(event_id) if not only or s["id"] == only]
    subs.sort(key=lambda s: (s["player"].casefold(), s["player_id"]))
    sheets = []
    for sub in subs:
        report = judge(fmt, json.loads(sub["entry"]), core.event_day(row))
        sheets.append(
            {
                "player": sub["player"],
                "player_id": sub["player_id"],
                "legal": report.legal,
                "problems": [v.message for v in report.violations],
                "warnings": [v.message for v in report.warnings],
                "unresolved": unresolved_lines(report),
                "data": report_json(report, fmt),
                "qr": qr_svg(core.receipt_url(sub)),
                "submitted_at": sub["submitted_at"],
            }
        )
    return render_template(
        "events/sheets.html",
        title=row["name"],
        subtitle=f"{fmt.name} ({fmt.id}) · {row['date']}",
        sheets=sheets,
        section_names=SECTION_NAMES,
    )


@bp.post("/e/<event_id>/admin/deck-check")
def admin_deck_check(event_id: str):
    row = _admin_row(event_id)
    fmt = service.find_format(row["format"])
    sub = core.store().submission(event_id, request.form.get("submission", ""))
    if sub is None:
        raise ApiError(404, "submission-not-found", "Choose a player of this event.")
    presented_text = request.form.get("presented", "")
    if not presented_text.strip():
        raise ApiError(400, "empty-decklist", "Type or paste the deck presented at the table.")
    on = core.event_day(row)
    registered = judge(fmt, json.loads(sub["entry"]), on)
    presented = judge(fmt, {"decklist": presented_text}, on)
    return render_template(
        "events/deck_check.html",
        event=core.event_json(row),
        sub=sub,
        same=registered.fingerprint == presented.fingerprint,
        registered=registered,
        presented=presented,
        differences=compare(registered.deck, presented.deck),
        unread=unresolved_lines(presented),
    )
