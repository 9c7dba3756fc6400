"""Syncing card lists and list histories from their upstreams, by hand or in the background.

`cardpool sync` and `cardpool lists sync` call `sync_one` / `sync_lists_one`, which record
each outcome (`ok`, `unchanged`, `failed`) for GET /api/v1/pools. With
`DECKCHECK_SYNC_EVERY` set, each server process starts a `BackgroundSync` thread on its
first request (never in a command, never inside a request): it wakes now and then, and
when the last sync is older than the interval, the one process that takes the sync lock
(a file lock beside the database) syncs every configured upstream. The import itself is
all or nothing (cardpool.store), so a failed sync keeps the previous pool serving, and an
unchanged upstream (ETag / Last-Modified) is not downloaded again.
"""

from __future__ import annotations

import fcntl
import logging
import os
import re
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlite_utils

from cardpool import list_store
from cardpool.db import connect
from cardpool.errors import CardPoolError
from cardpool.freshness import last_syncs, record_sync
from cardpool.imports import Progress, database_problem, sync_pool
from rules.games import LISTS_GAME

log = logging.getLogger("deckcheck.sync")
MIN_EVERY, MAX_EVERY = 10.0, 7 * 86400.0
# Tests only: a lower floor, so a test sees three syncs of a running server in seconds
# rather than half a minute. Production keeps 10s: faster would only load the upstream.
FLOOR_SETTING = "DECKCHECK_SYNC_EVERY_FLOOR"
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_EVERY = re.compile(r"([0-9]{1,7})([smhd])")
LISTS_KEY = list_store.SYNC_KEY


@dataclass(frozen=True)
class Outcome:
    result: str  # "ok", "unchanged" or "failed"
    message: str


def parse_every(text: str | None) -> float | None:
    """DECKCHECK_SYNC_EVERY in seconds (`30m`, `1d`), None when unset or empty.

    A value that is not a number with s, m, h or d from 10s to 7d stops the start: a typo
    must not leave a server that never syncs without a word.
    """
    text = (text or "").strip()
    if not text:
        return None
    found = _EVERY.fullmatch(text)
    seconds = int(found.group(1)) * _UNITS[found.group(2)] if found else -1.0
    floor = _floor()
    if not floor <= seconds <= MAX_EVERY:
        raise ValueError(
            f"DECKCHECK_SYNC_EVERY={text[:40]!r} is not an interval from {floor:g}s to 7d "
            "(a whole number with s, m, h or d, e.g. 1d)"
        )
    return float(seconds)


def _floor() -> float:
    """The shortest interval allowed: 10s, or 1s to 10s from DECKCHECK_SYNC_EVERY_FLOOR."""
    text = os.environ.get(FLOOR_SETTING, "").strip()
    if not text:
        return MIN_EVERY
    if text not in {str(n) for n in range(1, int(MIN_EVERY) + 1)}:
        raise ValueError(f"{FLOOR_SETTING}={text[:20]!r} is not a whole number from 1 to 10")
    return float(text)


def sync_one(
    db: sqlite_utils.Database, game: str, url: str, progress: Progress | None = None
) -> Outcome:
    """Sync one game's pool from `url` and record how it went."""
    try:
        count = sync_pool(db, game, url, progress)
    except (CardPoolError, sqlite3.Error) as err:
        problem = database_problem(err) if isinstance(err, sqlite3.Error) else str(err)
        outcome = Outcome("failed", f"sync failed, nothing changed: {problem}")
    else:
        outcome = (
            Outcome("unchanged", "unchanged since the last sync")
            if count is None
            else Outcome("ok", f"imported {count} cards")
        )
    _record(db, game, outcome)
    return outcome


def sync_lists_one(db: sqlite_utils.Database, game: str, url: str) -> Outcome:
    """Sync one game's list history from `url` and record how it went."""
    try:
        stored, warnings = list_store.sync_lists(db, game, url)
    except (CardPoolError, sqlite3.Error) as err:
        problem = database_problem(err) if isinstance(err, sqlite3.Error) else str(err)
        outcome = Outcome("failed", f"lists not synced, nothing changed: {problem}")
    else:
        if stored is None:
            outcome = Outcome("unchanged", "unchanged since the last sync")
        else:
            noted = f" ({len(warnings)} warnings: {warnings[0]})" if warnings else ""
            outcome = Outcome("ok", f"imported {len(stored.history.changes)} changes{noted}")
    _record(db, LISTS_KEY.format(game=game), outcome)
    return outcome


def _record(db: sqlite_utils.Database, key: str, outcome: Outcome) -> None:
    try:
        record_sync(db, key, outcome.result, outcome.message)
    except sqlite3.Error as err:
        log.warning("sync of %s not recorded: %s", key, err)


class BackgroundSync:
    """One daemon thread per server process; at most one process syncs at a time."""

    def __init__(
        self,
        database: str,
        every: float,
        urls: dict[str, str],
        lists_url: str | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.database = database
        self.every = every
        self.urls = dict(urls)
        self.lists_url = lists_url
        self.clock = clock
        # Wake often enough to notice the interval passing, rarely enough to cost nothing.
        self.tick = min(max(every / 10, 1.0), 60.0)
        self._started = False
        self._start_lock = threading.Lock()
        self._stop = threading.Event()

    def start(self) -> None:
        with self._start_lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._run, name="deckcheck-sync", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while True:
            try:
                self.run_if_due()
            except Exception:  # a sync thread that dies would stop syncing without a word
                log.exception("background sync failed")
            if self._stop.wait(self.tick):
                return

    def _keys(self) -> list[tuple[str, str, bool]]:
        """(record key, url, is a list history) of every configured upstream."""
        keys = [(game, url, False) for game, url in sorted(self.urls.items())]
        if self.lists_url:
            keys.append((LISTS_KEY.format(game=LISTS_GAME), self.lists_url, True))
        return keys

    def due(self, db: sqlite_utils.Database) -> list[tuple[str, str, bool]]:
        """The upstreams whose last sync is older than the interval (or never was)."""
        syncs = last_syncs(db)
        now = self.clock()
        found = []
        for key, url, is_lists in self._keys():
            last = syncs.get(key)
            if last is None or (now - datetime.fromisoformat(last["at"])).total_seconds() >= (
                self.every
            ):
                found.append((key, url, is_lists))
        return found

    def run_if_due(self) -> list[tuple[str, Outcome]]:
        """Sync what is due, if this process gets the sync lock; the outcomes."""
        with sync_lock(self.database) as held:
            if not held:
                return []
            db = connect(self.database)
            try:
                done = []
                for key, url, is_lists in self.due(db):
                    if is_lists:
                        outcome = sync_lists_one(db, LISTS_GAME, url)
                    else:
                        outcome = sync_one(db, key, url)
                    level = logging.WARNING if outcome.result == "failed" else logging.INFO
                    log.log(level, "background sync of %s: %s", key, outcome.message)
                    done.append((key, outcome))
                return done
            finally:
                db.close()


class sync_lock:  # noqa: N801 - used as a context manager, like open()
    """A non-blocking file lock beside the database: True when this process holds it.

    flock is released by the kernel when the process dies, so a killed worker never
    leaves the lock held.
    """

    def __init__(self, database: str) -> None:
        self.path = f"{database}.sync-lock"
        self.fd: int | None = None

    def __enter__(self) -> bool:
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            self.fd = None
            return False
        return True

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None
