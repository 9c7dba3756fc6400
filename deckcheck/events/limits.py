"""Rate limits that hold: submissions per player, address and event; per address and
event, submissions and new players; event creations per address.

A venue's players all come from one Wi-Fi address (issue 44): the submission limit counts
per player there (event + player key + address), and the address as a whole has a
ceiling high enough for a hall (`DECKCHECK_EVENTS_ADDRESS_LIMIT`, 600 in 10 minutes)
and a ceiling on names it has never sent before (`DECKCHECK_EVENTS_NEW_PLAYERS_LIMIT`,
400 in 10 minutes): 300 real players pass, a script inventing names does not. An
organizer may raise the two per-address ceilings for their event.

Each limit is a token bucket of `count` requests that refills at `count` per `seconds`
(so `20/60` lets 20 through at once and then one every 3 seconds). Checking and
counting is ONE statement, an UPSERT on the bucket's row:

    INSERT ... ON CONFLICT (key) DO UPDATE SET tokens = <refilled, less one if >= 1>,
                                            allowed = <refilled >= 1> RETURNING allowed

PostgreSQL locks the row for the update and re-reads it for each waiting statement;
SQLite runs it under the database's write lock: 40 simultaneous requests see 40
different counts, and only `count` of them pass. A submission takes from its buckets in
one transaction, always in the same order (so two PostgreSQL transactions never wait on
each other in a circle); when one refuses, the transaction rolls back and the request
takes nothing from any.

The address is the socket's (`request.remote_addr`). With `DECKCHECK_TRUSTED_PROXIES=N`
the app is wrapped in werkzeug's ProxyFix (deckcheck.create_app), which sets it from
the N nearest `X-Forwarded-For` hops; nothing in deckcheck reads that header itself.
"""

from __future__ import annotations

import hashlib
import time

from flask import current_app, request

from deckcheck.errors import ApiError
from deckcheck.events.opened import store
from deckcheck.server.buckets import Bucket
from deckcheck.server.names import FieldError, player_key

VENUE_SETTINGS = {
    "address_limit": "EVENTS_ADDRESS_LIMIT",
    "new_players_limit": "EVENTS_NEW_PLAYERS_LIMIT",
}


def parse_rate(name: str, text: str | None, default: str) -> tuple[int, int]:
    """`"20/60"`: 20 per 60 seconds; `"0"` turns the limit off. Anything else stops
    the start with a message (a typo must not silently lift a limit)."""
    text = (text or "").strip() or default
    count, _, seconds = text.partition("/")
    try:
        parsed = int(count), int(seconds or 60)
    except ValueError:
        parsed = (-1, -1)
    if parsed[0] < 0 or parsed[1] <= 0 or parsed[0] > 1_000_000:
        raise ValueError(f"{name}={text[:40]!r} is not a limit like 20/60 (count/seconds) or 0")
    return parsed


def client_address() -> str:
    """The submitter's address, hashed: enough to tell addresses apart, nothing to leak."""
    return hashlib.sha256((request.remote_addr or "?").encode()).hexdigest()[:32]


def _refused(bucket: Bucket) -> ApiError:
    return ApiError(
        429,
        bucket.code,
        bucket.message.format(count=bucket.count, seconds=bucket.seconds),
        {"limit": bucket.count, "seconds": bucket.seconds},
    )


def check(what: str, scope: str, setting: str, message: str) -> None:
    """Take one request from the bucket of (what, scope, this address), or a 429."""
    count, seconds = current_app.config[setting]
    if count <= 0:
        return
    bucket = Bucket(
        f"{what}:{scope}:{client_address()}", count, seconds, f"too-many-{what}", message
    )
    if store().take_all([bucket], time.time()) is not None:
        raise _refused(bucket)


def event_limit(row: dict, column: str) -> tuple[int, int]:
    """A per-address limit of this event: the organizer's, else the server's."""
    if row.get(column):
        return parse_rate(column, row[column], "0")
    return current_app.config[VENUE_SETTINGS[column]]


def read_venue(venue: object) -> dict:
    """The `venue` object of a create or PATCH: the per-address limits an organizer
    raises for their event, each "count/seconds" at least the server's (in count and
    in rate: an event cannot lower the flood protection, nor turn it off)."""
    if not isinstance(venue, dict):
        raise FieldError("venue", 'An object like {"address_limit": "1000/600"}.')
    values = {}
    for column, setting in VENUE_SETTINGS.items():
        if venue.get(column) is None:
            continue
        text = venue[column]
        try:
            count, seconds = parse_rate(column, text if isinstance(text, str) else "?", "0")
        except ValueError:
            raise FieldError(f"venue.{column}", "A limit like 1000/600 (count/seconds).") from None
        least, per = current_app.config[setting]
        if least > 0 and (count < least or count * per < least * seconds):
            raise FieldError(
                f"venue.{column}",
                f"This server's limit is {least}/{per}; an event can only raise it.",
            )
        values[column] = f"{count}/{seconds}"
    return values


def submission_buckets(row: dict, player: str, player_id: str) -> list[Bucket]:
    """The limits one submission takes from, in the order they are taken. A per-address
    bucket's key holds its limit: one the organizer raised starts full, at once."""
    address = client_address()
    event = row["id"]
    who = hashlib.sha256(player_key(player, player_id).encode("utf-8", "surrogatepass"))
    found = []
    count, seconds = current_app.config["EVENTS_SUBMIT_LIMIT"]
    if count > 0:
        found.append(Bucket(
            f"player:{event}:{who.hexdigest()[:24]}:{address}", count, seconds,
            "too-many-submissions",
            "At most {count} submissions of one player per {seconds} seconds from one "
            "address; wait a little and send it again.",
        ))  # fmt: skip
    count, seconds = event_limit(row, "address_limit")
    if count > 0:
        found.append(Bucket(
            f"address:{event}:{count}/{seconds}:{address}", count, seconds, "too-many-submissions",
            "At most {count} submissions per {seconds} seconds from one address to this "
            "event; wait a little and send it again (the organizer can raise this limit).",
        ))  # fmt: skip
    count, seconds = event_limit(row, "new_players_limit")
    if count > 0:
        found.append(Bucket(
            f"new:{event}:{count}/{seconds}:{address}", count, seconds, "too-many-new-players",
            "At most {count} new players per {seconds} seconds from one address to this "
            "event; wait a little and send it again (the organizer can raise this limit).",
            new_only=True,
        ))  # fmt: skip
    return found


def check_submission(row: dict, player: str, player_id: str, edit_token: str | None) -> None:
    """Count this submission against its limits in one transaction, or a 429."""
    buckets = submission_buckets(row, player, player_id)
    if not buckets:
        return

    refused = store().take_all(buckets, time.time(), (row["id"], player, player_id, edit_token))
    if refused is not None:
        raise _refused(refused)


def check_creation() -> None:
    check(
        "events",
        "create",
        "EVENTS_CREATE_LIMIT",
        "At most {count} new events per {seconds} seconds from one address; "
        "wait a while and try again.",
    )
