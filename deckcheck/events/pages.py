"""The events pages: create an event, the player's form and receipt (/e/<id>), and the
QR codes of their addresses; the organizer's pages (/e/<id>/admin) are in
`deckcheck.events.admin_pages`, on this blueprint.

The admin token lives in the address's fragment (#...), which browsers never send:
static JS (admin.js) hands it over as an Authorization header or a form field.
"""

from __future__ import annotations

import io
import re

import segno
from flask import (
    Blueprint,
    Response,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)

from deckcheck import service
from deckcheck.days import read_day
from deckcheck.errors import ApiError, wants_json
from deckcheck.events import core, event_fields, venue
from deckcheck.events.judge import judge
from deckcheck.events.schemas import CUTOFF, PUBLISH
from deckcheck.format_registry import registry
from deckcheck.server import http, kept_tokens, names
from deckcheck.server.packing import unpack
from deckcheck.server.tokens import token_matches
from deckcheck.server.verdicts import verdict_json
from rules.games import DEFAULT_FORMAT

bp = Blueprint("events", __name__)
MAX_UPLOAD = 1024 * 1024


# An origin the browser says it is at: scheme, host and port, nothing else.
ORIGIN = re.compile(
    r"https?://[A-Za-z0-9.-]{1,200}(:[0-9]{1,5})?|https?://\[[0-9A-Fa-f:.]{2,60}\](:[0-9]{1,5})?"
)


def whole(path: str) -> str:
    """A full address of one of this site's paths for a QR code: DECKCHECK_BASE_URL's,
    else the origin the browser says it is at (`?origin=`, page.js adds it), never the
    request's Host header. Without either it stays a path (and the admin page says so)."""
    base = http.base_url()
    if base:
        return base + path
    origin = request.args.get("origin", "")
    return origin + path if ORIGIN.fullmatch(origin) else path


def qr_image(address: str, private: bool = False) -> Response:
    """A QR code as a standalone SVG image: with its xmlns (or browsers show nothing)
    and a viewBox, so it scales to the box a page gives it."""
    out = io.BytesIO()
    segno.make(address, error="m").save(
        out, kind="svg", border=2, xmldecl=False, svgns=True, omitsize=True, title=address
    )
    cache = "private, no-store" if private else "public, max-age=86400"
    return Response(out.getvalue(), mimetype="image/svg+xml", headers={"Cache-Control": cache})


def _remember_token(submission_id: str, token: str) -> None:
    """The edit token for the receipt page that follows: in this browser's session cookie,
    sealed (kept_tokens), never in an address, where logs would keep it."""
    kept_tokens.remember(session, submission_id, token)


def _remembered_token(submission_id: str) -> str | None:
    return kept_tokens.remembered(session, submission_id)


@bp.app_context_processor
def _links() -> dict:
    """Whether the server knows its own address (else page.js completes links and QRs)."""
    return {"base_url": http.base_url()}


@bp.get("/e/new")
def new_event():
    return render_template(
        "events/new.html",
        formats=registry().formats.values(),
        today=service.today(),
        needs_key=bool(current_app.config.get("EVENTS_CREATE_KEY")),
    )


@bp.post("/e/new")
def create_event():
    form = request.form
    core.check_create_key(form.get("key"))
    deadline = form.get("deadline", "").strip()
    offset = form.get("offset", "").strip() or "Z"
    if deadline and len(deadline) <= 16:
        # <input type="datetime-local"> has no zone: events.js adds the browser's offset.
        deadline = f"{deadline}:00{offset}" if len(deadline) == 16 else deadline
    row, token = core.create_event(
        {
            "name": form.get("name", ""),
            "format": form.get("format", DEFAULT_FORMAT),
            "date": _date(form.get("date")),
            "deadline": deadline or "",
            "description": form.get("description", "")[: event_fields.MAX_DESCRIPTION],
            "time_zone": form.get("time_zone") or None,
            **_choices(form),
        }
    )
    # POST-redirect-GET: a reload of the next page shows it again, never a second event.
    # The token waits sealed in this browser's session cookie (never in an address,
    # never readable in the cookie): deckcheck.server.kept_tokens.
    kept_tokens.remember(session, row["id"], token, kind="created")
    return redirect(url_for("events.created", event_id=row["id"]), 303)


@bp.get("/e/<event_id>/created")
def created(event_id: str):
    """The new event's links, for the browser that created it (its session holds the
    admin token); any other browser is told to use the organizer's link it was given."""
    row = core.find_event(event_id)
    token = kept_tokens.remembered(session, event_id, kind="created")
    mine = token is not None and token_matches(row["token_hash"], token)
    page = render_template(
        "events/created.html",
        event=core.event_json(row),
        admin_url=f"{http.base_url()}/e/{row['id']}/admin#{token}" if mine else None,
    )
    return Response(page, headers={"Cache-Control": "private, no-store"})


def _choices(form) -> dict:
    """Publishing and the cut-off chosen on the form (a value not offered is a 422)."""
    chosen = {}
    for key, allowed in (("publish", PUBLISH), ("cutoff", CUTOFF)):
        value = form.get(key) or "none"
        if value not in allowed:
            raise ApiError(422, "invalid-request", f"{key}: one of {', '.join(allowed)}.")
        chosen[key] = value
    return chosen


def _date(text: str | None):
    """The event's day as every page reads a day (deckcheck.days: 1970-2999, or a DCG
    product code); anything else a 422 bad-date, as on the other pages."""
    if not text or not text.strip():
        return None
    try:
        return read_day(text)
    except ValueError as err:
        raise ApiError(422, "bad-date", str(err)) from err


@bp.get("/e/<event_id>")
def event_page(event_id: str):
    row = core.find_event(event_id)
    return render_template(
        "events/event.html", event=core.event_json(row, core.store().players(event_id))
    )


@bp.post("/e/<event_id>")
def submit(event_id: str):
    row = core.find_event(event_id)
    form = request.form
    text = form.get("decklist", "")
    upload = request.files.get("file")
    if upload and upload.filename:
        text = upload.read(MAX_UPLOAD + 1).decode("utf-8", errors="replace")
    player, player_id = event_fields.player_fields(
        form.get("player", ""), form.get("player_id", "")
    )
    if not text.strip():
        raise ApiError(400, "empty-decklist", "Paste your decklist (or choose a file) first.")
    entry = {"decklist": text}
    names.check_list_size(entry)
    edit_token = form.get("edit_token") or _kept_token(row["id"], form.get("replace", ""))
    try:
        core.check_player(row, player, player_id, edit_token)
    except ApiError as err:
        if err.code != "player-exists" or wants_json():
            raise
        return _taken_page(row, player, player_id, text, err)
    if not form.get("anyway"):
        # An illegal list is stored only once the player has seen why and said so.
        fmt = event_fields.event_format(row, service.find_format(row["format"]))
        report = judge(fmt, entry, event_fields.event_day(row))
        if not report.legal:
            return _confirm_page(row, player, player_id, text, report, edit_token)
    stored, _, token = core.submit(row, player, player_id, entry, edit_token or None)
    if token:
        _remember_token(stored["id"], token)
    return redirect(url_for("events.receipt", event_id=event_id, submission_id=stored["id"]), 303)


def _confirm_page(
    row: dict, player: str, player_id: str, text: str, report, edit_token: str | None
):
    """The form again, filled in, with the list's problems and "Send anyway"."""
    return render_template(
        "events/event.html",
        event=core.event_json(row, core.store().players(row["id"])),
        confirm=verdict_json(report),
        filled=_filled(player, player_id, text),
        replace=request.form.get("replace", "") if not request.form.get("edit_token") else "",
    )


def _filled(player: str, player_id: str, text: str) -> dict:
    return {
        "player": player,
        "player_id": player_id,
        "decklist": text,
        "edit_token": request.form.get("edit_token", ""),
    }


def _kept_token(event_id: str, submission_id: str) -> str | None:
    """ "Replace my earlier list": the edit token of that list this browser kept when it
    sent one of its versions (the session, never the page), or None."""
    sub = core.find_submission(event_id, submission_id) if names.is_id(submission_id) else None
    if sub is None:
        return None
    kept = kept_tokens.every_remembered(session)
    return next((token for token in kept if _token_current(sub, token)), None)


def _taken_page(row: dict, player: str, player_id: str, text: str, err: ApiError):
    """A name another list holds: the form again, filled in (nothing lost), with why and,
    when this browser sent that list, "Replace my earlier list" (its token stays in the
    session: the page only names the list)."""
    taken = str(err.details.get("submission", ""))
    mine = _kept_token(row["id"], taken) is not None
    page = render_template(
        "events/event.html",
        event=core.event_json(row, core.store().players(row["id"])),
        taken={"mine": mine, "submission": taken if mine else "", "message": err.message},
        filled=_filled(player, player_id, text),
    )
    return page, 409


@bp.get("/e/<event_id>/r/<submission_id>")
def receipt(event_id: str, submission_id: str):
    row = core.find_event(event_id)
    sub = core.find_submission(event_id, submission_id)
    if sub is None:
        raise ApiError(404, "submission-not-found", "There is no receipt at this address.")
    address = core.receipt_url(sub)
    verdict = unpack(sub["verdict"])
    token = _remembered_token(submission_id)
    # Shown only to the browser that sent the list, and only while it is the token
    # of this list (a later list by the organizer gets a new one).
    private = core.edit_url(sub, token) if token and _token_current(sub, token) else None
    response = Response(
        render_template(
            "events/receipt.html",
            event=core.event_json(row),
            sub=sub,
            verdict=verdict,
            address=address,
            private=private,
            note=venue.receipt_note(row, sub),
        )
    )
    if private:
        response.headers["Cache-Control"] = "no-store"
    return response


def _token_current(sub: dict, token: str) -> bool:
    return token_matches(sub.get("edit_hash"), token)


@bp.get("/e/<event_id>/r/<submission_id>/qr.svg")
def receipt_qr(event_id: str, submission_id: str):
    """The QR code of a receipt's address, as an image: the sheets show one per player
    without making every QR code inside the one request that prints them."""
    sub = core.find_submission(event_id, submission_id) if names.is_id(event_id) else None
    if sub is None:
        raise ApiError(404, "submission-not-found", "There is no receipt at this address.")
    # Vary: one receipt's image differs by the origin a browser says it is at.
    return qr_image(whole(f"/e/{sub['event_id']}/r/{sub['id']}"))


@bp.get("/e/<event_id>/r/<submission_id>/private-qr.svg")
def private_qr(event_id: str, submission_id: str):
    """The QR code of the player's private link, for the browser that sent the list
    only: its token comes from that browser's session, never from the address."""
    sub = core.find_submission(event_id, submission_id) if names.is_id(event_id) else None
    token = _remembered_token(submission_id) if sub else None
    if sub is None or not token or not _token_current(sub, token):
        raise ApiError(404, "submission-not-found", "There is no private link here.")
    return qr_image(whole(f"/e/{sub['event_id']}#edit={token}"), private=True)


@bp.get("/e/<event_id>/qr.svg")
def event_qr(event_id: str):
    """The QR code of the players' link (/e/<id>), to print or show at the venue."""
    row = core.find_event(event_id)
    return qr_image(whole(f"/e/{row['id']}"))
