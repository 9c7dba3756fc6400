"""Who a submission is about, and storing it: the player's row (by edit token, id or
name folded), the right to store a list for them, and the row a new list becomes.

Every rule is checked inside the transaction that stores the list, after the event's
row is locked (FOR UPDATE on PostgreSQL, BEGIN IMMEDIATE on SQLite): the deadline, the
player cap, the edit token, a drop. Two requests can never both pass a check that only
one of them should. The statements every submission runs are built once here: building
a select() costs more than SQLite takes to run it (bench/events.py).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass

from sqlalchemy import bindparam, func, or_, select
from sqlalchemy.engine import Connection

from deckcheck.events import changelog
from deckcheck.server.names import fold, player_key
from deckcheck.server.packing import pack
from deckcheck.server.tables.events import events, submissions
from deckcheck.server.tokens import token_hash, token_matches

CURRENT, REPLACED, DROPPED = "current", "replaced", "dropped"


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
    """A judged list to store; each field is a column of its row (`stored_row`)."""

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


NO_CLAIM = Claim()


EVENT = select(events).where(events.c.id == bindparam("e_id"))
# FOR UPDATE (PostgreSQL) serialises one event's writers, as SQLite's BEGIN IMMEDIATE does.
LOCK_EVENT = (
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
# The rows a name may be, to compare names folded in Python (the database cannot fold
# as names.fold does): of that folded name (an index), or written by an older server
# that stored no folded name (each folded here to make sure).
_NAMES = select(*_LATEST.selected_columns, submissions.c.player).where(
    submissions.c.event_id == bindparam("e_id"),
    submissions.c.status.in_([CURRENT, DROPPED]),
    or_(submissions.c.name_key == bindparam("name"), submissions.c.name_key.is_(None)),
)
PLAYERS = select(func.count()).where(
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


def as_dict(row) -> dict | None:
    return dict(row._mapping) if row is not None else None


def players_row(conn: Connection, event_id: str, player: str, player_id: str, claim: Claim):
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


def _no_other_named(conn: Connection, event_id: str, player: str, mine: str) -> None:
    named = _named(conn, event_id, player)
    if named is not None and named.id != mine:
        raise PlayerExists(named.id)


def is_new(conn: Connection, event_id: str, player: str, player_id: str, token: str | None):
    """Would this submission add a player to the event (no row of this name or id)?"""
    try:
        return players_row(conn, event_id, player, player_id, Claim(edit_token=token)) is None
    except PlayerExists:
        return False


def right_to_store(conn: Connection, event_id: str, latest, claim: Claim, max_players: int):
    """(token to hand back, hash to store), or the reason this submission may not be stored."""
    if latest is None:
        if max_players and conn.execute(PLAYERS, {"e_id": event_id}).scalar_one() >= max_players:
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


def stored_row(event_id: str, key: str, new: NewSubmission, latest, when: str) -> dict:
    """The row a new list is stored as (its edit hash added by the caller)."""
    return {
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


def store_list(
    conn: Connection, event_id: str, new: NewSubmission, claim: Claim, max_players: int, when: str
) -> tuple[dict, str | None]:
    """`EventStore.submit` inside its write transaction: the checks, then the row."""
    found = conn.execute(LOCK_EVENT, {"e_id": event_id}).first()
    if found is None:
        raise KeyError(event_id)
    if found.locked or when >= found.deadline_utc:
        raise EventLocked(event_id)
    latest = players_row(conn, event_id, new.player, new.player_id, claim)
    token, edit_hash = right_to_store(conn, event_id, latest, claim, max_players)
    # A player keeps their key (and so their history) when they rewrite their name.
    key = latest.player_key if latest else player_key(new.player, new.player_id)
    conn.execute(_RETIRE_CURRENT, {"e_id": event_id, "p_key": key})
    row = {**stored_row(event_id, key, new, latest, when), "edit_hash": edit_hash}
    conn.execute(submissions.insert(), row)
    if latest is not None and latest.status == CURRENT:
        # Both rows: the table takes the old one out and puts the new one in.
        changelog.record(conn, event_id, latest.id, "replaced", when)
        changelog.record(conn, event_id, row["id"], "replaced", when)
    else:
        changelog.record(conn, event_id, row["id"], "submitted", when)
    return row, token
