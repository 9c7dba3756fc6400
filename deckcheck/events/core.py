"""What the events API and the events pages share: the store of this app, the event
and submission shapes, tokens, submitting a list and the errors that refuse one. The
organizer's table is organizer.py; an event's fields, event_fields.py."""

from __future__ import annotations

from flask import current_app

from deckcheck import service
from deckcheck.errors import ApiError
from deckcheck.events import limits, verdicts, zones
from deckcheck.events.event_fields import event_day, event_format, new_event_fields
from deckcheck.events.store import (
    Claim,
    EventFull,
    EventLocked,
    EventStore,
    NewSubmission,
    PlayerDropped,
    PlayerExists,
)
from deckcheck.events.venue_store import store  # every events module asks core.store()
from deckcheck.server import names
from deckcheck.server import verdicts as server_verdicts
from deckcheck.server.http import base_url, bearer_token
from deckcheck.server.limits import client_address
from deckcheck.server.names import check_list_size
from deckcheck.server.packing import pack, unpack
from deckcheck.server.tokens import now_utc, token_hash, token_matches
from deckcheck.server.verdicts.keys import current_key
from deckcheck.words import moment_words
from rules.format import Format
from rules.model import Report
from rules.verdict import verdict_of


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


def find_event(event_id: str) -> dict:
    row = store().event(event_id) if names.is_id(event_id) else None
    if row is None:
        raise ApiError(404, "event-not-found", "There is no event at this address.")
    return row


def find_submission(event_id: str, submission_id: str) -> dict | None:
    return store().submission(event_id, submission_id) if names.is_id(submission_id) else None


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
    key, index = current_key(fmt)
    # Read once, here: every later verdict of this list is judged from what it was read as.
    report, structured = server_verdicts.read(fmt, entry, event_day(row), index)
    verdict = server_verdicts.verdict_json(report)
    new = _new_submission(player, player_id, entry, report, verdict, fmt, key, structured)
    stored, token = _stored(row, new, claim)
    return stored, {"legal": report.legal, **verdict, "report": report}, token


def _new_submission(
    player: str,
    player_id: str,
    entry: dict,
    report: Report,
    verdict: dict,
    fmt: Format,
    key: str,
    structured: dict,
) -> NewSubmission:
    """The judged list as the store keeps it: what the player was told, the table's
    verdict and sheet of now (so the table judges nothing until something changes), and
    the structured list every later verdict is judged from."""
    return NewSubmission(
        player=player,
        player_id=player_id,
        entry=entry,
        fingerprint=report.fingerprint,
        legal=report.legal,
        verdict=verdict,
        client=client_address(),
        judged_key=key,
        judged=verdicts.table_verdict(
            {"legal": report.legal, **verdict, "changed": False, "new_violations": []}, True
        ),
        sheet=pack(verdicts.sheet_json(report, fmt)),
        verdict_word=verdict_of(report.violations),
        structured=pack(structured),
    )


def _stored(row: dict, new: NewSubmission, claim: Claim) -> tuple[dict, str | None]:
    """store().submit, its refusals said as the contract says them."""
    try:
        return store().submit(row["id"], new, claim, current_app.config["EVENTS_MAX_PLAYERS"])
    except KeyError as err:
        raise ApiError(404, "event-not-found", "There is no event at this address.") from err
    except EventLocked as err:
        raise locked_error(row) from err
    except (PlayerExists, PlayerDropped) as err:
        raise player_error(err) from err
    except EventFull as err:
        raise full_error() from err


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
