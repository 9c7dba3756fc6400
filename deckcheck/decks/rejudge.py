"""The background pass: saved decks judged again when the world changes, for the feeds
of decks nobody opens (a read judges its own deck again: deckcheck.decks.core.view_now).

For each format with saved decks, the decks judged in another world than today's are
found by their world (an index). Two worlds' facts name the card numbers whose data,
list status, announced changes or release changed (deckcheck.server.verdicts.world): only the
decks holding one of them (deck_cards, an index) are judged again, and those with lines
that named no card when cards were added; the others move to today's world as they are,
their verdict unchanged by construction. When the judge or the format's rules changed
(or the old world is not stored), every deck of that world is judged again.

Bounded: pages of BATCH decks, each stored in one short transaction (no lock held while
judging), and the whole pass stops when its budget of seconds is spent (the next pass
goes on where it stopped). Under the production server the pass runs in processes of its
own at low priority, one per core, each judging its part of the decks by id (`flask decks
rejudge --nice 10 --processes N`, started by `BackgroundRejudge`), so a worker's threads
never wait for it; of several processes and servers on one database,
one starts it per interval (a rate bucket in the events database), and two passes at
once still add each feed entry once (its key is (deck, change)).
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from flask import Flask
from sqlalchemy.exc import OperationalError

from deckcheck import service
from deckcheck.decks import core
from deckcheck.decks.judging import differs, feed_entries, judge_saved
from deckcheck.decks.store import Part, Stored
from deckcheck.format_registry import get_format
from deckcheck.server.opened import database as store  # its rate buckets
from deckcheck.server.packing import unpack
from deckcheck.server.tokens import now_utc
from deckcheck.server.verdicts import World, changed_numbers, view_of
from rules.format import Format

log = logging.getLogger("deckcheck.decks")
BATCH = 500
PASS_SECONDS = 900.0
NICE = 10
PROCESSES_MAX = 4  # the background pass judges in one process per core, at most this many


@dataclass
class PassResult:
    judged: int = 0
    moved: int = 0
    entries: int = 0
    seconds: float = 0.0
    finished: bool = True
    orphaned: bool = False  # stopped because the process that started it is gone
    formats: list[str] = field(default_factory=list)

    def words(self) -> str:
        if self.orphaned:
            state = "stopped: the process that started it is gone (the next pass goes on)"
        elif self.finished:
            state = "done"
        else:
            state = "stopped at its time budget (the next pass goes on)"
        return (
            f"{self.judged:,} decks judged again, {self.moved:,} unchanged moved to today's "
            f"lists, {self.entries:,} feed entries, in {self.seconds:.1f} s: {state}"
        )


# The characters of the ids the service makes (secrets.token_urlsafe), in byte order.
ID_CHARACTERS = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"


def parts(count: int) -> list[Part]:
    """The decks cut into `count` parts by id, about as large each (ids are random):
    one process judges each part, so the pass can use every core."""
    bounds = [ID_CHARACTERS[n * len(ID_CHARACTERS) // count] for n in range(1, count)]
    edges: list[str | None] = [None, *bounds, None]
    return [(edges[n], edges[n + 1]) for n in range(count)]


@dataclass(frozen=True)
class Budget:
    """When a pass stops, asked before each page of decks: its seconds are spent, or the
    process that started it is gone (`alive` false: a killed server's pass ends with it
    instead of running on to its budget)."""

    deadline: float
    clock: Callable[[], float]
    part: Part
    alive: Callable[[], bool]

    def spent(self, result: PassResult) -> bool:
        if not self.alive():
            result.orphaned = True
            return True
        return self.clock() > self.deadline


def run_pass(
    seconds: float = PASS_SECONDS,
    batch: int = BATCH,
    clock: Callable[[], float] = time.monotonic,
    part: Part = (None, None),
    alive: Callable[[], bool] = lambda: True,
) -> PassResult:
    """One pass over every format with saved decks (inside an app context), or over the
    decks of one `part`; `clock` measures its budget, `alive` says whether to go on.
    Each part brings its own decks to today's world: parts run at once never move a deck
    another one has still to judge."""
    result = PassResult()
    started = clock()
    budget = Budget(started + seconds, clock, part, alive)
    since = now_utc()  # decks saved after this are left for the next pass
    store = core.store()
    current = []
    for format_id in store.formats():
        fmt = get_format(format_id)
        if fmt is None:
            continue  # an organizer's format removed: its decks keep their last verdict
        now, index = core.world(fmt)
        current.append(now.id)
        for old in store.stale_worlds(format_id, now.id):
            if not _catch_up(fmt, now, index, old, since, budget, batch, result):
                result.finished = False
                break
        result.formats.append(format_id)
        if not result.finished:
            break
    if result.finished:
        store.forget_worlds(keep=current)
    result.seconds = clock() - started
    return result


def _catch_up(fmt, now: World, index, old: str, since: str, budget: Budget, batch, result) -> bool:
    """Bring the decks of `old` to `now`; False when the budget ran out first."""
    part = budget.part
    store = core.store()
    before = store.world_facts(old)
    if before is None or before["rules"] != now.rules:
        numbers: list[str] | None = None  # every deck of the old world
        unknown_too = False
    else:
        changed, added = changed_numbers(before["facts"], now.facts)
        numbers, unknown_too = sorted(changed), added
    if numbers is None or numbers or unknown_too:
        after = ""
        while True:
            if budget.spent(result):
                return False
            page = store.stale_page(fmt.id, old, after, batch, numbers, unknown_too, part)
            if not page:
                break
            rows = [_judged(fmt, now, index, row) for row in page]
            result.judged += len(rows)
            result.entries += _stored(store, rows).entries  # added, not tried
            after = page[-1]["id"]
    while not budget.spent(result):
        moved = store.move_world(fmt.id, old, now.id, batch, since, part)
        result.moved += moved
        if moved < batch:
            return True
    return False


def _stored(store, rows: list[dict], tries: int = 5) -> Stored:
    """A batch stored, waiting its turn when another part (or a request) holds the write
    lock longer than a statement waits (events.store.WAIT_MS)."""
    for attempt in range(tries):
        try:
            return store.save_judged_many(rows)
        except OperationalError:
            if attempt == tries - 1:
                raise
            time.sleep(0.2 * (attempt + 1))
    return Stored(0, 0)


def _judged(fmt: Format, now: World, index, row: dict) -> dict:
    on = service.today()
    report = judge_saved(fmt, unpack(row["structured"]), on, index)
    view = view_of(report)
    before = unpack(row["judged"])
    return {
        "id": row["id"],
        "version": row["version"],
        "world": now.id,
        "was_world": row["judged_world"],
        "judged": view,
        "changed": differs(view, unpack(row["verdict"]), bool(row["legal"])),
        "entries": feed_entries(row["id"], row["version"], before, view, report, fmt, on),
    }


class BackgroundRejudge:
    """In a serving process: a thread that, every `every` seconds, asks the events
    database whether this process is the one to run the pass now (one per interval over
    every process and server sharing it), and then runs `flask decks rejudge` in a
    process of its own at low priority."""

    def __init__(self, app: Flask, every: float) -> None:
        self.app = app
        self.every = every
        self._started = False
        self._lock = threading.Lock()

    def start(self) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._loop, name="decks-rejudge", daemon=True).start()

    def _loop(self) -> None:
        while True:
            try:
                if self._my_turn():
                    self._run()
            except Exception:  # noqa: BLE001 - a failed pass is logged; the next one tries again
                log.exception("the saved decks' background pass failed")
            time.sleep(min(self.every, 60.0))

    def _my_turn(self) -> bool:
        with self.app.app_context():
            return store().take("decks-rejudge:pass", 1, self.every, time.time())

    def _run(self) -> None:
        processes = str(min(PROCESSES_MAX, os.cpu_count() or 1))
        command, env = pass_process(
            self.app.config, "--nice", str(NICE), "--processes", processes,
            "--parent", str(os.getpid()),
        )  # fmt: skip
        subprocess.run(
            command,
            env=env,
            stdout=subprocess.DEVNULL,
            check=False,
            timeout=PASS_SECONDS * 2,
        )


def pass_process(config: Mapping, *args: str) -> tuple[list[str], dict[str, str]]:
    """The command line of `flask decks rejudge` with `args`, and the environment that
    gives it the databases of the app whose `config` this is."""
    env = {
        **os.environ,
        "DECKCHECK_DATABASE": config["DATABASE"],
        "DECKCHECK_FORMATS_DIR": config["FORMATS_DIR"],
        "DECKCHECK_EVENTS_DATABASE": config["EVENTS_DATABASE"],
    }
    command = [sys.executable, "-m", "flask", "--app", "deckcheck", "decks", "rejudge", *args]
    return command, env


def init_app(app: Flask) -> None:
    every = app.config.get("DECKS_REJUDGE_EVERY")
    if not every or app.testing:
        return
    background = BackgroundRejudge(app, every)
    app.extensions["deckcheck.decks.rejudge"] = background

    # Only a serving process gets requests: a command (flask decks rejudge) never starts it.
    @app.before_request
    def _start_rejudge() -> None:
        background.start()


__all__ = ["BackgroundRejudge", "PassResult", "run_pass"]
