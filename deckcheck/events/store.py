"""The events database: events, submissions (every version kept), drops, rate buckets.

One small interface (`EventStore`) over SQLAlchemy Core, so the same code runs on an
embedded SQLite file (the default: nothing to start) and on PostgreSQL (several
machines sharing one database). The tables are described once, in `tables.py`; the
Alembic migrations in `migrations/` build them (a test holds the two equal).

Durability: a write returns only after its transaction committed. SQLite runs in WAL
mode with `synchronous=FULL`, so a committed transaction is on disk before the 201 is
sent and survives a killed process (NORMAL could lose the last commits on power loss,
and an organizer's "your list is in" must not be a lie).

Every rule about who may store what is checked inside the transaction that stores it,
after the event's row is locked (FOR UPDATE on PostgreSQL, BEGIN IMMEDIATE on SQLite):
the deadline, the player cap, the edit token, a drop. Two requests can never both pass
a check that only one of them should.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import bindparam, create_engine, event, func, or_, select, tuple_
from sqlalchemy.engine import Connection, Engine

from deckcheck.events import changelog
from deckcheck.events.buckets import Bucket, take_statement
from deckcheck.events.migrate import upgrade
from deckcheck.events.names import fold, player_key
from deckcheck.events.tables import changes, drops, events, metadata, submissions
from deckcheck.events.writable import WriteHealth
from deckcheck.server.packing import pack
from deckcheck.server.tokens import now_utc, token_hash, token_matches

__all__ = ["metadata", "EventStore"]

CURRENT, REPLACED, DROPPED = "current", "replaced", "dropped"
# How long a statement may wait for a lock (SQLite's busy timeout; PostgreSQL's lock and
# statement timeouts): a request is answered within 2 s (contract, "Limits"), so one that
# cannot get the database in time is a 503 to send again (core.busy_response), not a
# request that hangs. Migrations wait as long as they need (migrate.py).
WAIT_MS = 1500


class EventLocked(Exception):
    """The deadline has passed or the organizer locked the event."""


class PlayerExists(Exception):
    """The player has a list, and the request proves no right to replace it."""


class PlayerDropped(Exception):
    """The organizer dropped this player; only the organizer can restore them."""


class EventFull(Exception):
    """The event holds its maximum of players."""


@dataclass(frozen=True)
class NewSubmission:
    player: str
    player_id: str
    entry: dict  # {"decklist": text} or {"deck": {...}}
    fingerprint: str
    legal: bool
    verdict: dict  # {"violations": [...], "warnings": [...]} as the player was told
    client: str
    judged_key: str = ""  # what the verdict was judged with (deckcheck.events.verdicts)
    judged: str | None = None  # the table's verdict, when not the one above (verdicts)
    sheet: str | None = None  # its registration sheet, packed (verdicts.sheet_json)
    structured: str | None = None  # its structured list, packed (server.verdicts.lists)
    verdict_word: str = ""  # legal / illegal / unconfirmed (rules.verdict.verdict_of)


@dataclass(frozen=True)
class Claim:
    """What proves a right to replace a player's list."""

    edit_token: str | None = None
    organizer: bool = False


def database_url(setting: str) -> str:
    """`DECKCHECK_EVENTS_DATABASE`: a file path (SQLite) or a postgresql:// URL."""
    if setting.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + setting.split("://", 1)[1]
    if "://" in setting:
        return setting
    return "sqlite:///" + str(Path(setting).resolve())


def _sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record) -> None:
        # Transactions are begun by hand below (pysqlite's own BEGIN is deferred
        # and hides when the write lock is taken).
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute(f"PRAGMA busy_timeout={WAIT_MS}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        # Writers take the lock up front: a deferred transaction that upgrades to a
        # writer mid-way fails with SQLITE_BUSY instead of waiting its turn.
        immediate = conn.get_execution_options().get("write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _postgres_engine(url: str) -> Engine:
    return create_engine(
        url,
        pool_pre_ping=True,
        # A connection the pool hands out must not wait minutes on a dead peer: TCP
        # keep-alive finds a vanished server, the timeouts a lock nobody will free.
        connect_args={
            "connect_timeout": 5,
            # Which process a session belongs to (pg_stat_activity), for operators and
            # for the test that kills a worker.
            "application_name": f"deckcheck-{os.getpid()}",
            "options": f"-c statement_timeout={WAIT_MS}"
            f" -c lock_timeout={WAIT_MS}"
            " -c idle_in_transaction_session_timeout=5000",
            "keepalives": 1,
            "keepalives_idle": 5,
            "keepalives_interval": 1,
            "keepalives_count": 3,
        },
    )


# Statements every submission runs, built once: building a select() costs more than
# SQLite takes to run it (bench/events.py). Parameters are bound per call.
_EVENT = select(events).where(events.c.id == bindparam("e_id"))
# FOR UPDATE (PostgreSQL) serialises one event's writers, as SQLite's BEGIN IMMEDIATE does.
_LOCK_EVENT = (
    select(events.c.locked, events.c.deadline_utc)
    .where(events.c.id == bindparam("e_id"))
    .with_for_update()
)
_LATEST = (
    select(
        submissions.c.id,
        submissions.c.status,
        submissions.c.edit_hash,
        submissions.c.seq,
        submissions.c.player_key,
        submissions.c.checked_in,
        submissions.c.published,
    )
    .where(
        submissions.c.event_id == bindparam("e_id"), submissions.c.player_key == bindparam("p_key")
    )
    .order_by(submissions.c.seq.desc())
    .limit(1)
)
# A player's rows by edit token (the token's hash, so comparing in SQL leaks nothing of
# the token itself): the private link finds its own list whatever name is written.
_BY_TOKEN = (
    select(*_LATEST.selected_columns)
    .where(
        submissions.c.event_id == bindparam("e_id"),
        submissions.c.edit_hash == bindparam("e_hash"),
        submissions.c.status.in_([CURRENT, DROPPED]),
    )
    .limit(1)
)
# Every player of an event (at most its player cap), to compare names folded in Python:
# the database cannot fold as names.fold does.
# The rows a name may be: of that folded name (an index), or written by an older server
# that stored no folded name (each folded here to make sure).
_NAMES = select(*_LATEST.selected_columns, submissions.c.player).where(
    submissions.c.event_id == bindparam("e_id"),
    submissions.c.status.in_([CURRENT, DROPPED]),
    or_(submissions.c.name_key == bindparam("name"), submissions.c.name_key.is_(None)),
)
_PLAYERS = select(func.count()).where(
    submissions.c.event_id == bindparam("e_id"), submissions.c.status == CURRENT
)
_RETIRE_CURRENT = (
    submissions.update()
    .where(
        submissions.c.event_id == bindparam("e_id"),
        submissions.c.player_key == bindparam("p_key"),
        submissions.c.status == CURRENT,
    )
    .values(status=REPLACED)
)
# The table's columns: not the list itself (up to 64 KB a player), its structured
# list nor its sheet.
_TABLE_COLUMNS = [c for c in submissions.c if c.name not in ("entry", "sheet", "structured")]
# With the lists (the CSV): not their structured lists, which only a judging reads.
_LIST_COLUMNS = [c for c in submissions.c if c.name != "structured"]
PAGE = 200


def _row(row) -> dict | None:
    return dict(row._mapping) if row is not None else None


def _players_row(conn: Connection, event_id: str, player: str, player_id: str, claim: Claim):
    """The row of the player this submission is about, or None for a new player.

    The edit token finds its own player whatever name or id is written now. Without
    it, the same player id, or the same name folded (whatever ids the two carry), is
    that player: one row per name, so a name cannot be taken twice.
    Raises PlayerExists when the name and the id point at two different players.
    """
    if claim.edit_token:
        mine = conn.execute(
            _BY_TOKEN, {"e_id": event_id, "e_hash": token_hash(claim.edit_token)}
        ).first()
        if mine is not None:
            _no_other_named(conn, event_id, player, mine.id)
            return mine
    key = player_key(player, player_id)
    by_key = conn.execute(_LATEST, {"e_id": event_id, "p_key": key}).first()
    named = _named(conn, event_id, player)
    if by_key is not None and named is not None and named.id != by_key.id:
        raise PlayerExists(named.id)
    if by_key is None or by_key.status == REPLACED:
        return named or by_key
    return by_key


def _named(conn: Connection, event_id: str, player: str):
    """The current or dropped row whose player name folds to `player`'s, if any."""
    wanted = fold(player)
    for row in conn.execute(_NAMES, {"e_id": event_id, "name": wanted}):
        if fold(row.player) == wanted:
            return row
    return None


@contextmanager
def _relaxed(conn: Connection, sqlite: bool):
    """SQLite: commit rate buckets without waiting for the disk (synchronous=NORMAL in
    WAL mode: durable when a process dies, not always when the power goes; PostgreSQL:
    synchronous_commit off for the buckets' transaction, the same trade). A bucket
    that loses its last counts to a power cut lets a few more requests in; a list is
    never stored this way. Halves the syncs of a submission: its list's commit still
    waits for the disk, and writes the buckets' WAL frames with it."""
    raw = conn.connection.dbapi_connection if sqlite else None
    if raw is not None:
        raw.execute("PRAGMA synchronous=NORMAL")
    try:
        yield
    finally:
        # A connection thrown away meanwhile (events.writable: it could not write) is
        # closed: it has no setting left to put back.
        if raw is not None and not conn.invalidated:
            raw.execute("PRAGMA synchronous=FULL")


def _is_new(conn: Connection, event_id: str, player: str, player_id: str, token: str | None):
    """Would this submission add a player to the event (no row of this name or id)?"""
    try:
        return _players_row(conn, event_id, player, player_id, Claim(edit_token=token)) is None
    except PlayerExists:
        return False


def _drop(conn: Connection, event_id: str, submission_id: str, cutoff: bool) -> bool:
    """Drop the player of this current list (the event's row locked by the caller)."""
    found = conn.execute(
        select(submissions.c.player_key, submissions.c.player).where(
            submissions.c.event_id == event_id,
            submissions.c.id == submission_id,
            submissions.c.status == CURRENT,
        )
    ).first()
    if found is None:
        return False
    conn.execute(
        submissions.update()
        .where(
            submissions.c.event_id == event_id,
            submissions.c.player_key == found.player_key,
            submissions.c.status != DROPPED,
        )
        .values(status=DROPPED)
    )
    at = now_utc()
    conn.execute(
        drops.insert().values(
            submission_id=submission_id,
            event_id=event_id,
            player=found.player,
            dropped_at=at,
            cutoff=cutoff,
        )
    )
    changelog.record(conn, event_id, submission_id, "dropped", at)
    return True


def _restore(conn: Connection, event_id: str, submission_id: str, max_players: int):
    """Undo a drop (the event's row locked by the caller): the restored row, or None."""
    found = conn.execute(
        select(submissions.c.player_key).where(
            submissions.c.event_id == event_id,
            submissions.c.id == submission_id,
            submissions.c.status == DROPPED,
        )
    ).first()
    dropped = conn.execute(
        select(drops.c.submission_id).where(
            drops.c.event_id == event_id, drops.c.submission_id == submission_id
        )
    ).first()
    if found is None or dropped is None:
        return None
    if max_players and conn.execute(_PLAYERS, {"e_id": event_id}).scalar_one() >= max_players:
        raise EventFull(event_id)
    player = submissions.c.player_key == found.player_key
    mine = submissions.c.event_id == event_id
    conn.execute(
        submissions.update()
        .where(mine, player, submissions.c.status == DROPPED)
        .values(status=REPLACED)
    )
    conn.execute(
        submissions.update().where(mine, submissions.c.id == submission_id).values(status=CURRENT)
    )
    conn.execute(drops.delete().where(drops.c.submission_id == submission_id))
    changelog.record(conn, event_id, submission_id, "restored", now_utc())
    return _row(conn.execute(select(submissions).where(submissions.c.id == submission_id)).first())


def _no_other_named(conn: Connection, event_id: str, player: str, mine: str) -> None:
    named = _named(conn, event_id, player)
    if named is not None and named.id != mine:
        raise PlayerExists(named.id)


class EventStore:
    """Everything the service keeps about events. Each method is one transaction."""

    def __init__(self, setting: str) -> None:
        self.url = database_url(setting)
        self.sqlite = self.url.startswith("sqlite")
        if self.sqlite:
            Path(self.url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
            self.engine = create_engine(self.url, connect_args={"timeout": WAIT_MS / 1000})
            _sqlite_pragmas(self.engine)
        else:
            self.engine = _postgres_engine(self.url)
        self._writer = self.engine.execution_options(write=True)
        self.writes = WriteHealth(self.engine)  # a connection that cannot write is replaced

    def migrate(self) -> None:
        upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # -- events ---------------------------------------------------------------

    def create_event(self, fields: dict) -> tuple[dict, str]:
        """A new event and its admin token (only its hash is stored)."""
        token = secrets.token_urlsafe(24)
        row = {
            **fields,
            "id": secrets.token_urlsafe(9),
            "locked": False,
            "token_hash": token_hash(token),
            "created_at": now_utc(),
        }
        with self._writer.begin() as conn:
            conn.execute(events.insert().values(**row))
        return row, token

    def event(self, event_id: str) -> dict | None:
        with self.engine.begin() as conn:
            return _row(conn.execute(_EVENT, {"e_id": event_id}).first())

    def players(self, event_id: str) -> int:
        with self.engine.begin() as conn:
            return conn.execute(_PLAYERS, {"e_id": event_id}).scalar_one()

    @staticmethod
    def token_matches(event_row: dict, token: str) -> bool:
        return token_matches(event_row["token_hash"], token)

    def update_event(self, event_id: str, **values) -> dict | None:
        with self._writer.begin() as conn:
            conn.execute(events.update().where(events.c.id == event_id).values(**values))
            return _row(conn.execute(select(events).where(events.c.id == event_id)).first())

    def delete_event(self, event_id: str) -> bool:
        with self._writer.begin() as conn:
            conn.execute(drops.delete().where(drops.c.event_id == event_id))
            conn.execute(changes.delete().where(changes.c.event_id == event_id))
            conn.execute(submissions.delete().where(submissions.c.event_id == event_id))
            return conn.execute(events.delete().where(events.c.id == event_id)).rowcount > 0

    # -- submissions ----------------------------------------------------------

    def submit(
        self,
        event_id: str,
        new: NewSubmission,
        claim: Claim = Claim(),
        max_players: int = 0,
        when: str | None = None,
    ) -> tuple[dict, str | None]:
        """Store a list; the player's earlier one becomes history.

        Returns the stored row and the edit token to hand to the submitter: a new one
        for a new player (and when the organizer replaces a list), the one they proved
        when they replace their own. Raises KeyError (no event), EventLocked,
        PlayerDropped, PlayerExists or EventFull, with nothing stored.
        """
        when = when or now_utc()
        with self._writer.begin() as conn:
            found = conn.execute(_LOCK_EVENT, {"e_id": event_id}).first()
            if found is None:
                raise KeyError(event_id)
            if found.locked or when >= found.deadline_utc:
                raise EventLocked(event_id)
            latest = _players_row(conn, event_id, new.player, new.player_id, claim)
            token, edit_hash = self._right_to_store(conn, event_id, latest, claim, max_players)
            # A player keeps their key (and so their history) when they rewrite their name.
            key = latest.player_key if latest else player_key(new.player, new.player_id)
            conn.execute(_RETIRE_CURRENT, {"e_id": event_id, "p_key": key})
            row = {
                "id": secrets.token_urlsafe(12),
                "event_id": event_id,
                "player_key": key,
                "player": new.player,
                "name_key": fold(new.player),
                "player_id": new.player_id,
                "entry": json.dumps(new.entry, separators=(",", ":")),
                "fingerprint": new.fingerprint,
                "legal": new.legal,
                "verdict": pack(new.verdict),
                "submitted_at": when,
                "client": new.client,
                "status": CURRENT,
                "seq": (latest.seq if latest else 0) + 1,
                "edit_hash": edit_hash,
                "judged_key": new.judged_key,
                "judged": new.judged,
                "judged_legal": new.legal,
                "judged_changed": False,
                "sheet": new.sheet,
                "judged_verdict": new.verdict_word or ("legal" if new.legal else "illegal"),
                "structured": new.structured,
                # A player stays checked in and published with a new list; a list the
                # organizer accepted is that list only.
                "checked_in": bool(latest.checked_in) if latest else False,
                "published": bool(latest.published) if latest else False,
                "accepted": False,
            }
            conn.execute(submissions.insert(), row)
            if latest is not None and latest.status == CURRENT:
                # Both rows: the table takes the old one out and puts the new one in.
                changelog.record(conn, event_id, latest.id, "replaced", when)
                changelog.record(conn, event_id, row["id"], "replaced", when)
            else:
                changelog.record(conn, event_id, row["id"], "submitted", when)
        return row, token

    def check_claim(self, event_id: str, player: str, player_id: str, claim: Claim) -> None:
        """Raise PlayerExists or PlayerDropped now if storing this player's list would,
        so a form can say so before asking anything else (submit checks again)."""
        with self.engine.begin() as conn:
            latest = _players_row(conn, event_id, player, player_id, claim)
            if latest is not None:
                self._right_to_store(conn, event_id, latest, claim, 0)

    @staticmethod
    def _right_to_store(conn, event_id, latest, claim: Claim, max_players: int):
        """(token to hand back, hash to store), or the reason this submission may not be stored."""
        if latest is None:
            if (
                max_players
                and conn.execute(_PLAYERS, {"e_id": event_id}).scalar_one() >= max_players
            ):
                raise EventFull(event_id)
            token = secrets.token_urlsafe(24)
            return token, token_hash(token)
        if latest.status == DROPPED:
            raise PlayerDropped(latest.id)
        if token_matches(latest.edit_hash, claim.edit_token):
            return claim.edit_token, latest.edit_hash
        if claim.organizer:
            # The organizer replaced the list: a new token, for them to hand on.
            token = secrets.token_urlsafe(24)
            return token, token_hash(token)
        raise PlayerExists(latest.id)

    def current_ids(self, event_id: str) -> list[tuple[str, str, str]]:
        """(id, player, player_id) of every current list: small enough to sort in memory."""
        query = select(submissions.c.id, submissions.c.player, submissions.c.player_id).where(
            submissions.c.event_id == event_id, submissions.c.status == CURRENT
        )
        with self.engine.begin() as conn:
            return [tuple(r) for r in conn.execute(query)]

    def current_pages(self, event_id: str, with_entry: bool = False) -> Iterator[list[dict]]:
        """The latest list of every player who has not dropped, oldest first, PAGE rows
        at a time (each page its own short read): never the whole event in memory."""
        columns = _LIST_COLUMNS if with_entry else _TABLE_COLUMNS
        after = ("", "")
        while True:
            query = (
                select(*columns)
                .where(
                    submissions.c.event_id == event_id,
                    submissions.c.status == CURRENT,
                    tuple_(submissions.c.submitted_at, submissions.c.id) > after,
                )
                .order_by(submissions.c.submitted_at, submissions.c.id)
                .limit(PAGE)
            )
            with self.engine.begin() as conn:
                page = [dict(r._mapping) for r in conn.execute(query)]
            if not page:
                return
            yield page
            if len(page) < PAGE:
                return
            after = (page[-1]["submitted_at"], page[-1]["id"])

    def current(self, event_id: str) -> list[dict]:
        """Every current list, with entries (small events and tests)."""
        return [row for page in self.current_pages(event_id, with_entry=True) for row in page]

    def by_ids(self, event_id: str, ids: Sequence[str], with_entry: bool = True) -> list[dict]:
        """These submissions of the event, in the order of `ids`."""
        columns = list(submissions.c) if with_entry else _TABLE_COLUMNS
        query = select(*columns).where(
            submissions.c.event_id == event_id, submissions.c.id.in_(list(ids))
        )
        with self.engine.begin() as conn:
            found = {r.id: dict(r._mapping) for r in conn.execute(query)}
        return [found[i] for i in ids if i in found]

    def stale(self, event_id: str, judged_key: str) -> list[str]:
        """Ids of current lists whose stored verdict of today was judged with another key."""
        query = select(submissions.c.id).where(
            submissions.c.event_id == event_id,
            submissions.c.status == CURRENT,
            func.coalesce(submissions.c.judged_key, "") != judged_key,
        )
        with self.engine.begin() as conn:
            return [r.id for r in conn.execute(query)]

    def save_judged(self, rows: Sequence[dict]) -> None:
        """Store verdicts of today: rows of id, judged_key, judged, judged_legal,
        judged_changed, sheet, judged_verdict, and `structured`: the structured list read
        just now for a row that had none, or none in today's shape (None: the row keeps
        what it has)."""
        if not rows:
            return
        update = (
            submissions.update()
            .where(submissions.c.id == bindparam("s_id"))
            .values(
                judged_key=bindparam("judged_key"),
                judged=bindparam("judged"),
                judged_legal=bindparam("judged_legal"),
                judged_changed=bindparam("judged_changed"),
                sheet=bindparam("sheet"),
                judged_verdict=bindparam("judged_verdict"),
                structured=func.coalesce(bindparam("structured"), submissions.c.structured),
            )
        )
        with self._writer.begin() as conn:
            conn.execute(
                update,
                [
                    {"s_id": r["id"], "structured": None, **{k: r[k] for k in r if k != "id"}}
                    for r in rows
                ],
            )

    def tally(self, event_id: str) -> dict:
        """Players, not legal now, changed since submission: counted by the database."""
        query = select(
            func.count(),
            func.count().filter(submissions.c.judged_legal.is_(False)),
            func.count().filter(submissions.c.judged_changed.is_(True)),
        ).where(submissions.c.event_id == event_id, submissions.c.status == CURRENT)
        with self.engine.begin() as conn:
            players, illegal, changed = conn.execute(query).one()
        return {"players": players, "illegal": illegal, "changed": changed}

    def submission(self, event_id: str, submission_id: str) -> dict | None:
        query = select(submissions).where(
            submissions.c.event_id == event_id, submissions.c.id == submission_id
        )
        with self.engine.begin() as conn:
            return _row(conn.execute(query).first())

    def by_token(self, event_id: str, token: str) -> dict | None:
        """The current list this edit token belongs to, if any."""
        query = select(submissions).where(
            submissions.c.event_id == event_id,
            submissions.c.edit_hash == token_hash(token),
            submissions.c.status == CURRENT,
        )
        with self.engine.begin() as conn:
            return _row(conn.execute(query).first())

    def history(self, event_id: str, key: str) -> list[dict]:
        query = (
            select(submissions)
            .where(submissions.c.event_id == event_id, submissions.c.player_key == key)
            .order_by(submissions.c.seq)
        )
        with self.engine.begin() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def drop(self, event_id: str, submission_id: str, cutoff: bool = False) -> bool:
        """Drop a player: their lists stay as history, none of them counts any more.
        `cutoff`: dropped by the cut-off at lock (unlock restores them)."""
        with self._writer.begin() as conn:
            conn.execute(_LOCK_EVENT, {"e_id": event_id})
            return _drop(conn, event_id, submission_id, cutoff)

    def dropped(self, event_id: str) -> list[dict]:
        """The players the organizer dropped: the list that was current, and when."""
        query = (
            select(drops.c.submission_id, drops.c.player, drops.c.dropped_at)
            .where(drops.c.event_id == event_id)
            .order_by(drops.c.dropped_at)
        )
        with self.engine.begin() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def restore(self, event_id: str, submission_id: str, max_players: int = 0) -> dict | None:
        """Undo a drop: the list that was current is current again (None: no such drop).
        Raises EventFull when the event has no room left."""
        with self._writer.begin() as conn:
            conn.execute(_LOCK_EVENT, {"e_id": event_id})
            return _restore(conn, event_id, submission_id, max_players)

    def merge(self, event_id: str, keep_id: str, other_id: str) -> dict | None:
        """One player written twice becomes one: `keep_id`'s list stays current (with its
        name, id and edit token) and every list of `other_id`'s player joins its history,
        numbered by when it was sent. None when either is not a current list here."""
        with self._writer.begin() as conn:
            conn.execute(_LOCK_EVENT, {"e_id": event_id})
            pair = {
                r.id: r
                for r in conn.execute(
                    select(submissions.c.id, submissions.c.player_key).where(
                        submissions.c.event_id == event_id,
                        submissions.c.id.in_([keep_id, other_id]),
                        submissions.c.status == CURRENT,
                    )
                )
            }
            if keep_id == other_id or len(pair) != 2:
                return None
            key = pair[keep_id].player_key
            rows = conn.execute(
                select(submissions.c.id, submissions.c.submitted_at, submissions.c.seq).where(
                    submissions.c.event_id == event_id,
                    submissions.c.player_key.in_([key, pair[other_id].player_key]),
                )
            ).all()
            # The kept list last (the latest of its player: _LATEST reads the highest seq).
            ordered = sorted(rows, key=lambda r: (r.id == keep_id, r.submitted_at, r.seq))
            conn.execute(
                submissions.update()
                .where(submissions.c.id == bindparam("s_id"))
                .values(
                    player_key=key,
                    seq=bindparam("n"),
                    status=bindparam("new_status"),
                ),
                [
                    {"s_id": r.id, "n": n, "new_status": CURRENT if r.id == keep_id else REPLACED}
                    for n, r in enumerate(ordered, start=1)
                ],
            )
            kept = conn.execute(select(submissions).where(submissions.c.id == keep_id)).first()
            # The table shows the kept row and no longer the other (not current now).
            for sid in (other_id, keep_id):
                changelog.record(conn, event_id, sid, "replaced", now_utc())
            return _row(kept)

    # -- rate limits ----------------------------------------------------------

    def take(self, key: str, count: int, seconds: float, now: float) -> bool:
        """One request against one token bucket of `count` per `seconds`."""
        return self.take_all([Bucket(key, count, seconds, "", "")], now) is None

    def take_all(self, buckets: Sequence, now: float, player: tuple | None = None):
        """One request against token buckets (deckcheck.events.limits.Bucket): checked
        and counted by one UPSERT each, in one transaction, so simultaneous requests
        cannot all pass. `player` = (event id, name, id, edit token): whether this is a
        new player (for `new_only` buckets) is read in the same transaction. Returns
        the bucket that refused (and nothing was taken from any), or None."""
        statement = take_statement(self.engine.dialect.name)
        with self._writer.connect() as conn, _relaxed(conn, self.sqlite), conn.begin() as tx:
            if not self.sqlite:
                # PostgreSQL's equal of _relaxed, for this transaction only.
                conn.exec_driver_sql("SET LOCAL synchronous_commit = off")
            new = player is not None and _is_new(conn, *player)
            for bucket in buckets:
                if bucket.new_only and not new:
                    continue
                values = {"key": bucket.key, "cap": float(bucket.count), "now": now}
                values["rate"] = bucket.count / bucket.seconds
                if not conn.execute(statement, values).scalar_one():
                    tx.rollback()
                    return bucket
        return None

    # -- operations -----------------------------------------------------------

    def backup(self, target: str) -> None:
        """A consistent copy of a SQLite store while it serves (the online backup API)."""
        if not self.sqlite:
            raise ValueError("backup copies a SQLite store; for PostgreSQL use pg_dump")
        source = sqlite3.connect(self.url.removeprefix("sqlite:///"))
        destination = sqlite3.connect(target)
        try:
            with destination:
                source.backup(destination)
        finally:
            destination.close()
            source.close()
