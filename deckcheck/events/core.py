"""What the events API and the events pages share: the store of this app, the event
and submission shapes, admin tokens, the rate limit and the organizer's table."""

from __future__ import annotations

import hashlib
import json
import threading
from datetime import UTC, date, datetime, timedelta

from flask import current_app, request

from deckcheck import service
from deckcheck.db import pools
from deckcheck.errors import ApiError
from deckcheck.events.judge import judge, rejudged, verdict_json
from deckcheck.events.store import EventLocked, EventStore, NewSubmission, now_utc
from deckcheck.format_registry import get_format

_lock = threading.Lock()
MAX_DESCRIPTION = 2000


def store() -> EventStore:
    """The app's store, opened (and migrated) on first use, so an app that never
    sees an event never creates its database."""
    found = current_app.extensions.get("deckcheck.events")
    if found is None:
        with _lock:
            found = current_app.extensions.get("deckcheck.events")
            if found is None:
                found = EventStore(current_app.config["EVENTS_DATABASE"])
                found.migrate()
                current_app.extensions["deckcheck.events"] = found
    return found


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
        "locked": bool(row["locked"]),
        "open": is_open(row),
        "submit_url": f"{base_url()}/e/{row['id']}",
    }
    if players is not None:
        data["players"] = players
    return data


def parse_deadline(text: str) -> tuple[str, datetime]:
    """An ISO 8601 moment with its UTC offset (a deadline without a zone is ambiguous)."""
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError as err:
        raise _invalid("deadline", "not a date and time like 2026-12-05T09:00:00+01:00") from err
    if moment.tzinfo is None:
        raise _invalid("deadline", "add the time zone offset, e.g. +01:00 or Z")
    return moment.isoformat(), moment.astimezone(UTC)


def _invalid(field: str, message: str) -> ApiError:
    return ApiError(
        422, "invalid-request", "Some fields are missing or wrong.", {"fields": {field: [message]}}
    )


def new_event_fields(data: dict) -> dict:
    """Checked fields of a new event (already loaded by its schema)."""
    fmt = service.find_format(data["format"])
    deadline, utc = parse_deadline(data["deadline"])
    day = data.get("date") or datetime.fromisoformat(deadline).date()
    return {
        "name": data["name"].strip(),
        "format": fmt.id,
        "date": day.isoformat(),
        "deadline": deadline,
        "deadline_utc": utc.isoformat(timespec="microseconds"),
        "description": (data.get("description") or "").strip()[:MAX_DESCRIPTION],
    }


def moved_deadline(text: str) -> dict:
    deadline, utc = parse_deadline(text)
    return {"deadline": deadline, "deadline_utc": utc.isoformat(timespec="microseconds")}


def find_event(event_id: str) -> dict:
    row = store().event(event_id)
    if row is None:
        raise ApiError(404, "event-not-found", "There is no event at this address.")
    return row


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


def client_key() -> str:
    """The submitter's address, hashed: enough to rate-limit, nothing to leak."""
    return hashlib.sha256((request.remote_addr or "?").encode()).hexdigest()[:32]


def check_rate(event_id: str, client: str) -> None:
    count, seconds = current_app.config["EVENTS_SUBMIT_LIMIT"]
    if count <= 0:
        return
    since = (datetime.now(UTC) - timedelta(seconds=seconds)).isoformat(timespec="microseconds")
    if store().recent_from(event_id, client, since) >= count:
        raise ApiError(
            429,
            "too-many-submissions",
            f"At most {count} submissions per {seconds} seconds from one address to one "
            "event; wait a little and send it again.",
            {"limit": count, "seconds": seconds},
        )


def event_day(row: dict) -> date:
    return date.fromisoformat(row["date"])


def submit(row: dict, player: str, player_id: str, entry: dict) -> tuple[dict, dict]:
    """Judge and store one list; returns (stored row, the verdict the player is shown)."""
    if not is_open(row):
        raise locked_error(row)
    client = client_key()
    check_rate(row["id"], client)
    fmt = service.find_format(row["format"])
    cache = _verdict_cache(row, fmt)
    report = judge(fmt, entry, event_day(row))
    verdict = verdict_json(report)
    new = NewSubmission(
        player=player,
        player_id=player_id,
        entry=entry,
        fingerprint=report.fingerprint,
        legal=report.legal,
        verdict=verdict,
        client=client,
    )
    try:
        stored = store().submit(row["id"], new)
    except EventLocked as err:
        raise locked_error(row) from err
    # Judged just now with the cache's format and pool: the table need not judge it again.
    cache[stored["id"]] = {"legal": report.legal, **verdict, "changed": False, "new_violations": []}
    return stored, {"legal": report.legal, **verdict, "report": report}


def locked_error(row: dict) -> ApiError:
    why = "locked by the organizer" if row["locked"] else f"closed at {row['deadline']}"
    return ApiError(
        409,
        "event-locked",
        f"This event no longer takes lists: it was {why}.",
        {"locked": bool(row["locked"]), "deadline": row["deadline"]},
    )


def receipt_url(row: dict) -> str:
    return f"{base_url()}/e/{row['event_id']}/r/{row['id']}"


def submission_json(row: dict, verdict: dict | None = None, admin: bool = False) -> dict:
    given = verdict or json.loads(row["verdict"])
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
    }
    if "unresolved" in given:
        data["unresolved"] = given["unresolved"]
    return data


# Verdicts of stored lists, per (format, day): valid while the format object (its
# rules and banned lists) and the game's card index are the very same objects. An
# import or a changed organizer format makes new ones, and every list is judged
# again; until then a table view re-judges only lists it has not seen.
_verdicts: dict[tuple[str, str], tuple[tuple, dict[str, dict]]] = {}
MAX_CACHED = 50_000


def _verdict_cache(row: dict, fmt) -> dict[str, dict]:
    key = (row["format"], row["date"])
    state = (fmt, pools().index(fmt.game)) if fmt is not None else (None, None)
    found = _verdicts.get(key)
    if found is None or found[0][0] is not state[0] or found[0][1] is not state[1]:
        if sum(len(cache) for _, cache in _verdicts.values()) > MAX_CACHED:
            _verdicts.clear()
        found = (state, {})
        _verdicts[key] = found
    return found[1]


def table(row: dict) -> list[dict]:
    """Every player's latest list, judged again now (the organizer's view)."""
    fmt = get_format(row["format"])
    on = event_day(row)
    cache = _verdict_cache(row, fmt)
    found = []
    for sub in store().current(row["id"]):
        now = cache.get(sub["id"])
        if now is None:
            now = cache[sub["id"]] = rejudged(sub, fmt, on)
        data = submission_json(sub)
        data.update(
            {
                "submitted_legal": bool(sub["legal"]),
                "legal": now["legal"],
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
        found.append(data)
    return found


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
)


def table_csv_rows(rows: list[dict]) -> list[list]:
    def words(items: list[dict]) -> str:
        return " | ".join(item["message"] for item in items)

    return [
        [
            r["player"],
            r["player_id"],
            r["submitted_at"],
            "legal" if r["legal"] else "not legal",
            "changed" if r["changed"] else "",
            words(r["violations"]),
            words(r["new_violations"]),
            words(r["warnings"]),
            r["fingerprint"],
            r["version"],
        ]
        for r in rows
    ]
