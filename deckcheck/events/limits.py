"""The events' rate limits: submissions per player, address and event; per address
and event, submissions and new players; event creations per address. How a limit holds
is deckcheck.server.limits.

A venue's players all come from one Wi-Fi address (issue 44): the submission limit counts
per player there (event + player key + address), and the address as a whole has a
ceiling high enough for a hall (`DECKCHECK_EVENTS_ADDRESS_LIMIT`, 600 in 10 minutes)
and a ceiling on names it has never sent before (`DECKCHECK_EVENTS_NEW_PLAYERS_LIMIT`,
400 in 10 minutes): 300 real players pass, a script inventing names does not. An
organizer may raise the two per-address ceilings for their event.
"""

from __future__ import annotations

import hashlib
import time

from flask import current_app

from deckcheck.events.venue_store import store
from deckcheck.server.buckets import Bucket
from deckcheck.server.limits import check, client_address, parse_rate, refused
from deckcheck.server.names import FieldError, player_key

VENUE_SETTINGS = {
    "address_limit": "EVENTS_ADDRESS_LIMIT",
    "new_players_limit": "EVENTS_NEW_PLAYERS_LIMIT",
}


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

    who = (row["id"], player, player_id, edit_token)
    found = store().take_all(buckets, time.time(), who)
    if found is not None:
        raise refused(found)


def check_creation() -> None:
    check(
        "events",
        "create",
        "EVENTS_CREATE_LIMIT",
        "At most {count} new events per {seconds} seconds from one address; "
        "wait a while and try again.",
    )
