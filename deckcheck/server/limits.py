"""Rate limits that hold, for every product: each limit is a token bucket of `count`
requests that refills at `count` per `seconds` (so `20/60` lets 20 through at once and
then one every 3 seconds). Checking and counting is ONE statement, an UPSERT on the
bucket's row (deckcheck.server.buckets):

    INSERT ... ON CONFLICT (key) DO UPDATE SET tokens = <refilled, less one if >= 1>,
                                            allowed = <refilled >= 1> RETURNING allowed

PostgreSQL locks the row for the update and re-reads it for each waiting statement;
SQLite runs it under the database's write lock: 40 simultaneous requests see 40
different counts, and only `count` of them pass. A request takes from its buckets in
one transaction, always in the same order (so two PostgreSQL transactions never wait on
each other in a circle); when one refuses, the transaction rolls back and the request
takes nothing from any.

The address is the socket's (`request.remote_addr`). With `DECKCHECK_TRUSTED_PROXIES=N`
the app is wrapped in werkzeug's ProxyFix (deckcheck.create_app), which sets it from
the N nearest `X-Forwarded-For` hops; nothing in deckcheck reads that header itself.
The events' own limits (per player, per venue) are deckcheck.events.limits.
"""

from __future__ import annotations

import hashlib
import time

from flask import current_app, request

from deckcheck.errors import ApiError
from deckcheck.server.buckets import Bucket
from deckcheck.server.opened import database


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


def refused(bucket: Bucket) -> ApiError:
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
    if database().take_all([bucket], time.time()) is not None:
        raise refused(bucket)
