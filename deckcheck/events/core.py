"""What the events API and the events pages share: the store of this app, the event
and submission shapes, tokens, limits, and the organizer's table (a page at a time)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, date, datetime

from flask import current_app, make_response, render_template, request

from deckcheck import service
from deckcheck.errors import ApiError, error_response, wants_json
from deckcheck.events import alike, limits, names, verdicts, writable, zones
from deckcheck.events.marks import marks_json
from deckcheck.events.opened import store  # every product asks core.store()
from deckcheck.events.store import (
    Claim,
    EventFull,
    EventLocked,
    EventStore,
    NewSubmission,
    PlayerDropped,
    PlayerExists,
)
from deckcheck.format_registry import get_format
from deckcheck.server import verdicts as server_verdicts
from deckcheck.server.packing import pack, unpack
from deckcheck.server.tokens import now_utc, token_hash, token_matches
from deckcheck.words import moment_words
from rules.cache import Bounded
from rules.custom import FormatFileError, early_codes
from rules.format import Format
from rules.games import SECTIONS
from rules.verdict import verdict_of

MAX_DESCRIPTION = 2000
MAX_LIST_BYTES = 64 * 1024
FIRST_YEAR, LAST_YEAR = 1970, 2999
JUDGE_PAGE = 100  # lists judged again per database round trip (each up to 64 KB)


def busy_response(err: Exception):
    """The events database did not answer in time (a lock held too long, a statement
    timeout, a connection lost): a 503 to send again, never a 500. Nothing was stored."""
    current_app.logger.warning("events database unavailable: %s", writable.cause(_driver(err)))
    message = "The events database is busy right now. Nothing was stored: send it again."
    if wants_json():
        response = error_response(503, "events-busy", message)
    else:
        page = render_template("error.html", status=503, message=message)
        response = make_response(page, 503)
    response.headers["Retry-After"] = "1"
    return response


def _driver(err: Exception) -> BaseException:
    """The database driver's own error under SQLAlchemy's wrapper (what names the cause)."""
    return getattr(err, "orig", None) or err


def in_pieces(parts: Iterator[str], size: int = 32 * 1024) -> Iterator[str]:
    """A streamed page in pieces of about `size` characters: Jinja yields one piece per
    template statement, 100 per row of the table, and each piece a server writes costs
    more than writing its characters (a 2,000-player table: 200,000 pieces)."""
    held: list[str] = []
    length = 0
    for part in parts:
        held.append(part)
        length += len(part)
        if length >= size:
            yield "".join(held)
            held, length = [], 0
    if held:
        yield "".join(held)


def base_url() -> str:
    return (current_app.config.get("BASE_URL") or "").rstrip("/")


def is_open(row: dict) -> bool:
    return not row["locked"] and now_utc() < row["deadline_utc"]


def event_json(row: dict, players: int | None = None) -> dict:
    data = {
        "id": row["id"],
        "name": row["name"],
        "format": row["format"],
        "date": row["date"],
        "deadline": row["deadline"],
        "deadline_utc": row["deadline_utc"],
        "description": row["description"],
        "time_zone": zones.zone_name(row),
        "locked": bool(row["locked"]),
        "open": is_open(row),
        "submit_url": f"{base_url()}/e/{row['id']}",
        "lists_url": f"{base_url()}/e/{row['id']}/lists",
        "publish": row.get("publish") or "none",
        "cutoff": row.get("cutoff") or "none",
        "venue": {
            column: "{}/{}".format(*limits.event_limit(row, column))
            for column in limits.VENUE_SETTINGS
        },
    }
    if row.get("early"):
        data["early"] = row["early"].split(",")
    if players is not None:
        data["players"] = players
    return data


def _invalid(field: str, message: str) -> ApiError:
    return names.FieldError(field, message)


def _in_range(field: str, year: int) -> None:
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise _invalid(field, f"the year must be between {FIRST_YEAR} and {LAST_YEAR}")


def parse_deadline(text: str) -> tuple[str, datetime]:
    """An ISO 8601 moment with its UTC offset (a deadline without a zone is ambiguous),
    in 1970-2999 both where it is written and in UTC."""
    if not isinstance(text, str) or len(text) > 40 or names.FORBIDDEN.search(text):
        raise _invalid("deadline", "not a date and time like 2026-12-05T09:00:00+01:00")
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError as err:
        raise _invalid("deadline", "not a date and time like 2026-12-05T09:00:00+01:00") from err
    if moment.tzinfo is None:
        raise _invalid("deadline", "add the time zone offset, e.g. +01:00 or Z")
    # Checked before the conversion: 9999-12-31T23:00-05:00 is past the last UTC year.
    _in_range("deadline", moment.year)
    utc = moment.astimezone(UTC)
    _in_range("deadline", utc.year)
    return moment.isoformat(), utc


def new_event_fields(data: dict) -> dict:
    """Checked fields of a new event (already loaded by its schema)."""
    name = names.clean("name", data.get("name"), names.EVENT_MAX)
    fmt = service.find_format(data["format"])
    deadline, utc = parse_deadline(data["deadline"])
    day = data.get("date") or datetime.fromisoformat(deadline).date()
    _in_range("date", day.year)
    return {
        "name": name,
        "format": fmt.id,
        "date": day.isoformat(),
        "deadline": deadline,
        "deadline_utc": utc.isoformat(timespec="microseconds"),
        "description": names.text_field("description", data.get("description"), MAX_DESCRIPTION),
        "time_zone": (
            zones.read_zone(data["time_zone"])
            if data.get("time_zone") is not None
            else zones.of_deadline(deadline)
        ),
        "early": _early(fmt, data.get("early")),
        "publish": data.get("publish") or "none",
        "cutoff": data.get("cutoff") or "none",
        **(limits.read_venue(data["venue"]) if data.get("venue") is not None else {}),
    }


def _early(fmt: Format, codes: list[str] | None) -> str | None:
    """The products an event makes legal early, as stored (`BT24,EX9`); None: none."""
    if not codes:
        return None
    if fmt.game != "dcg":
        raise _invalid("early", "products legal early are for DCG formats")
    try:
        return ",".join(early_codes(codes))
    except FormatFileError as err:
        raise _invalid("early", str(err).removeprefix("early: ")) from err


# (the format's id and content digest, the event's early products and date) -> the
# event's format: keyed by what the format says, not by which object says it.
_EVENT_FORMATS: Bounded[tuple[str, str, str, str], Format] = Bounded(256)


def event_format(row: dict, fmt: Format) -> Format:
    """The format an event's lists are judged in: its format, with the products it makes
    legal early counted as released from the event's date (a pre-release event). One
    object per format and event settings, so verdict keys are worked out once."""
    if not row.get("early"):
        return fmt
    key = (fmt.id, server_verdicts.format_digest(fmt), row["early"], row["date"])
    found = _EVENT_FORMATS.get(key)
    if found is None:
        early = replace(fmt, early=tuple(row["early"].split(",")), early_from=event_day(row))
        found = _EVENT_FORMATS.keep(key, early)
    return found


def moved_deadline(text: str) -> dict:
    deadline, utc = parse_deadline(text)
    return {"deadline": deadline, "deadline_utc": utc.isoformat(timespec="microseconds")}


def find_event(event_id: str) -> dict:
    row = store().event(event_id) if names.is_id(event_id) else None
    if row is None:
        raise ApiError(404, "event-not-found", "There is no event at this address.")
    return row


def find_submission(event_id: str, submission_id: str) -> dict | None:
    return store().submission(event_id, submission_id) if names.is_id(submission_id) else None


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def admin_event(event_id: str, token: str | None) -> dict:
    """The event if `token` is its admin token: 404, then 401 (none) or 403 (wrong)."""
    row = find_event(event_id)
    if not token:
        raise ApiError(
            401,
            "token-required",
            "This needs the event's admin token: send the header Authorization: Bearer <token>.",
        )
    if not EventStore.token_matches(row, token):
        raise ApiError(403, "token-wrong", "This admin token does not belong to this event.")
    return row


def organizer(row: dict, token: str | None) -> bool:
    """Does a submission carry the organizer's token? A wrong one is a 403, not ignored."""
    if not token:
        return False
    if not EventStore.token_matches(row, token):
        raise ApiError(403, "token-wrong", "This admin token does not belong to this event.")
    return True


def check_create_key(form_key: str | None = None) -> None:
    """With DECKCHECK_EVENTS_CREATE_KEY set, creating an event takes that key."""
    key = current_app.config.get("EVENTS_CREATE_KEY")
    if not key:
        return
    given = bearer_token() or form_key
    if not given:
        raise ApiError(
            401,
            "key-required",
            "Creating an event on this server needs its key: ask whoever runs it, then send "
            "Authorization: Bearer <key> (or write it in the form's key field).",
        )
    if not token_matches(token_hash(key), given):
        raise ApiError(403, "key-wrong", "This is not the key for creating events here.")


def create_event(data: dict) -> tuple[dict, str]:
    """A new event from checked fields (the caller checked the create key first)."""
    fields = new_event_fields(data)
    limits.check_creation()
    return store().create_event(fields)


def event_day(row: dict) -> date:
    return date.fromisoformat(row["date"])


def check_list_size(entry: dict, taker: str = "an event takes") -> None:
    """A submitted list is at most 64 KB (text as UTF-8, a structured deck as JSON);
    `taker` says who refuses it ("a saved deck holds")."""
    if "decklist" in entry:
        text = entry["decklist"]
        size = (
            len(text) if len(text) * 4 <= MAX_LIST_BYTES else len(text.encode("utf-8", "replace"))
        )
    else:
        size = len(json.dumps(entry["deck"], separators=(",", ":")))
    if size > MAX_LIST_BYTES:
        raise ApiError(
            413,
            "list-too-large",
            f"This list is {size:,} bytes; {taker} lists of at most "
            f"{MAX_LIST_BYTES // 1024} KB. Send only the deck's lines.",
            {"bytes": size, "limit": MAX_LIST_BYTES},
        )


def player_fields(player: object, player_id: object) -> tuple[str, str]:
    return (
        names.clean("player", player, names.PLAYER_MAX),
        names.clean("player_id", player_id, names.PLAYER_ID_MAX, required=False),
    )


def submit(
    row: dict,
    player: str,
    player_id: str,
    entry: dict,
    edit_token: str | None = None,
    admin_token: str | None = None,
) -> tuple[dict, dict, str | None]:
    """Judge and store one list; returns (stored row, the verdict the player is shown,
    the edit token to hand back). Names are already normalised (player_fields)."""
    check_list_size(entry)
    if not is_open(row):
        raise locked_error(row)
    claim = Claim(edit_token=edit_token or None, organizer=organizer(row, admin_token))
    limits.check_submission(row, player, player_id, claim.edit_token)
    fmt = event_format(row, service.find_format(row["format"]))
    key, index = verdicts.current_key(fmt)
    # Read once, here: every later verdict of this list is judged from what it was read as.
    report, structured = server_verdicts.read(fmt, entry, event_day(row), index)
    verdict = server_verdicts.verdict_json(report)
    new = NewSubmission(
        player=player,
        player_id=player_id,
        entry=entry,
        fingerprint=report.fingerprint,
        legal=report.legal,
        verdict=verdict,
        client=limits.client_address(),
        judged_key=key,
        judged=verdicts.table_verdict(
            {"legal": report.legal, **verdict, "changed": False, "new_violations": []}, True
        ),
        sheet=pack(verdicts.sheet_json(report, fmt)),
        verdict_word=verdict_of(report.violations),
        structured=pack(structured),
    )
    try:
        stored, token = store().submit(
            row["id"], new, claim, current_app.config["EVENTS_MAX_PLAYERS"]
        )
    except KeyError as err:
        raise ApiError(404, "event-not-found", "There is no event at this address.") from err
    except EventLocked as err:
        raise locked_error(row) from err
    except (PlayerExists, PlayerDropped) as err:
        raise player_error(err) from err
    except EventFull as err:
        raise full_error() from err
    return stored, {"legal": report.legal, **verdict, "report": report}, token


def check_player(row: dict, player: str, player_id: str, edit_token: str | None) -> None:
    """A 409 now for a name or id another player holds (before a form asks "send anyway?")."""
    try:
        store().check_claim(row["id"], player, player_id, Claim(edit_token=edit_token or None))
    except (PlayerExists, PlayerDropped) as err:
        raise player_error(err) from err


def player_error(err: PlayerExists | PlayerDropped) -> ApiError:
    if isinstance(err, PlayerDropped):
        return ApiError(
            409,
            "player-dropped",
            "The organizer dropped this player from the event. Only the organizer can "
            "take them back in; ask them.",
            {"submission": str(err)},
        )
    return ApiError(
        409,
        "player-exists",
        "A player with this name (or player id) already sent a list to this event. "
        "To change that list, open the private link on its receipt: it fills in the "
        "form, and sending it replaces the list (a program sends the new list with the "
        "list's edit token). Lost the link? Ask the organizer to replace it. Another "
        "player with the same name: add something that tells you apart, such as a last "
        "name or an initial.",
        {"submission": str(err)},
    )


def full_error() -> ApiError:
    cap = current_app.config["EVENTS_MAX_PLAYERS"]
    return ApiError(
        409,
        "event-full",
        f"This event is full: it takes at most {cap:,} players.",
        {"limit": cap},
    )


def locked_error(row: dict) -> ApiError:
    why = (
        "locked by the organizer" if row["locked"] else f"closed on {moment_words(row['deadline'])}"
    )
    return ApiError(
        409,
        "event-locked",
        f"This event no longer takes lists: it was {why}.",
        {"locked": bool(row["locked"]), "deadline": row["deadline"]},
    )


def receipt_url(row: dict) -> str:
    return f"{base_url()}/e/{row['event_id']}/r/{row['id']}"


def edit_url(row: dict, token: str) -> str:
    """The player's private link: the event's form with the token in the fragment,
    which browsers never send (events.js puts it in the form)."""
    return f"{base_url()}/e/{row['event_id']}#edit={token}"


SECTION_HEADINGS = {s.id: s.heading for s in SECTIONS.values()}  # the registry's


def list_text(entry: dict) -> str:
    """A stored list as text: the text the player sent, or their structured deck as
    one `<count> <card>` line per entry under its section's heading."""
    if "decklist" in entry:
        return str(entry["decklist"])
    deck = entry.get("deck") or {}
    lines = [f"Partner: {deck['partner']}"] if deck.get("partner") else []
    for section, items in deck.items():
        if section == "partner" or not items:
            continue
        lines.append(f"// {SECTION_HEADINGS.get(section, section)}")
        lines.extend(f"{item['count']} {item['card']}" for item in items)
    return "\n".join(lines)


def own_submission(event_id: str, token: str | None) -> dict:
    """The current list the edit token belongs to: 401 without one, 403 for a wrong one."""
    find_event(event_id)
    if not token:
        raise ApiError(
            401,
            "token-required",
            "This needs your edit token: send the header Authorization: Bearer <token> "
            "(it is in the private link on your receipt).",
        )
    row = store().by_token(event_id, token)
    if row is None:
        raise ApiError(
            403,
            "token-wrong",
            "This edit token belongs to no current list of this event (the organizer may "
            "have replaced or dropped it).",
        )
    return row


def submission_json(row: dict, verdict: dict | None = None) -> dict:
    given = verdict or unpack(row["verdict"])
    data = {
        "id": row["id"],
        "player": row["player"],
        "player_id": row["player_id"],
        "submitted_at": row["submitted_at"],
        "fingerprint": row["fingerprint"],
        "legal": bool(row["legal"]) if verdict is None else verdict["legal"],
        "violations": given["violations"],
        "warnings": given["warnings"],
        "receipt_url": receipt_url(row),
        # legal / illegal / unconfirmed, as the player was told (the report's own
        # violations when it was judged just now: they know their product).
        "verdict": verdict_of(verdict["report"].violations)
        if verdict and "report" in verdict
        else verdict_of(given["violations"]),
        "checked_in": bool(row.get("checked_in")),
    }
    if "unresolved" in given:
        data["unresolved"] = given["unresolved"]
    return data


# -- the organizer's table ------------------------------------------------------


def refresh(row: dict) -> None:
    """Judge again, and store, only the lists whose stored verdict is out of date."""
    fmt = get_format(row["format"])
    fmt = event_format(row, fmt) if fmt is not None else None
    key, index = verdicts.current_key(fmt)
    ids = store().stale(row["id"], key)
    on = event_day(row)
    for start in range(0, len(ids), JUDGE_PAGE):
        subs = store().by_ids(row["id"], ids[start : start + JUDGE_PAGE])
        store().save_judged([verdicts.judged_row(s, fmt, on, key, index) for s in subs])


def table_row(sub: dict) -> dict:
    """One player's row of the table: lists of problems capped (`more` says by how much)."""
    now = verdicts.shown(verdicts.verdict_now(sub))
    data = {
        "id": sub["id"],
        "player": sub["player"],
        "player_id": sub["player_id"],
        "submitted_at": sub["submitted_at"],
        "fingerprint": sub["fingerprint"],
        "receipt_url": receipt_url(sub),
    }
    data.update(
        {
            "submitted_legal": bool(sub["legal"]),
            "legal": now["legal"],
            "verdict": verdict_of(now["violations"]),
            "changed": now["changed"],
            "violations": now["violations"],
            "warnings": now["warnings"],
            "new_violations": now["new_violations"],
            "version": sub["seq"],
        }
    )
    if now.get("unresolved"):
        data["unresolved"] = now["unresolved"]
    if now.get("error"):
        data["error"] = now["error"]
    if now.get("more"):
        data["more"] = now["more"]
    return data


def table(row: dict, with_lists: bool = False) -> Iterator[dict]:
    """Every player's latest list with its verdict of today, oldest first, read a page
    at a time (call `refresh` first); `with_lists` adds each list as text (`decklist`).
    A row that looks like another player's (alike.py) names it in `alike`."""
    flagged = alike.near_duplicates(store().current_ids(row["id"]))
    for page in store().current_pages(row["id"], with_entry=with_lists):
        for sub in page:
            item = _table_item(sub, row, flagged)
            if with_lists:
                item["decklist"] = list_text(json.loads(sub["entry"]))
            yield item


def rows(row: dict, ids: list[str]) -> Iterator[dict]:
    """Table rows of these current lists (the live table's update), in `ids`' order."""
    found = store().by_ids(row["id"], ids, with_entry=False)
    current = [sub for sub in found if sub["status"] == "current"]
    if not current:
        return
    flagged = alike.near_duplicates(store().current_ids(row["id"]))
    for sub in current:
        yield _table_item(sub, row, flagged)


def _table_item(sub: dict, row: dict, flagged: dict) -> dict:
    """A table row with the organizer's marks and the rows it looks like."""
    item = table_row(sub)
    item.update(marks_json(sub, row))
    item["alike"] = flagged.get(sub["id"], [])
    return item


def organizer_submission(row: dict, submission_id: str) -> dict:
    """A current list of the event, for the organizer: 404 for any other id."""
    sub = find_submission(row["id"], submission_id)
    if sub is None or sub["status"] != "current":
        raise ApiError(404, "submission-not-found", "This event has no such current submission.")
    return sub


def merge(row: dict, keep_id: str, other_id: object) -> dict:
    """Two rows of one player made one: `keep_id`'s list stays, `other_id`'s lists
    become its history (store.merge)."""
    if not isinstance(other_id, str) or not names.is_id(other_id):
        raise names.FieldError("from", "Not a submission id of this event.")
    if other_id == keep_id:
        raise names.FieldError("from", "A row cannot be merged with itself: choose the other row.")
    merged = store().merge(row["id"], keep_id, other_id) if names.is_id(keep_id) else None
    if merged is None:
        raise ApiError(
            404,
            "submission-not-found",
            "Both rows must be current lists of this event (one may have been dropped, "
            "replaced or merged meanwhile: reload the table).",
        )
    return merged


CSV_HEADER = (
    "player",
    "player_id",
    "submitted_at",
    "legal",
    "changed",
    "problems",
    "new_problems",
    "warnings",
    "fingerprint",
    "version",
    "decklist",
)


def table_csv_rows(rows) -> Iterator[list]:
    def words(r: dict, name: str) -> str:
        text = " | ".join(item["message"] for item in r[name])
        left = r.get("more", {}).get(name)
        return f"{text} | ... and {left} more" if left else text

    for r in rows:
        yield [
            r["player"],
            r["player_id"],
            r["submitted_at"],
            "legal" if r["legal"] else "not legal",
            "changed" if r["changed"] else "",
            words(r, "violations"),
            words(r, "new_violations"),
            words(r, "warnings"),
            r["fingerprint"],
            r["version"],
            r.get("decklist", ""),
        ]
