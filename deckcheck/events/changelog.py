"""What changed in an event, for the organizer's live table (GET .../changes?since=).

Each write that changes the table adds a row to `event_changes` in its own transaction,
after it locked the event's row (store.py): one event's change ids are committed in the
order they were given, so "every change after id n" never misses one that commits
late, on one server or on several sharing a PostgreSQL database. The cursor is that id,
from the database, never a process's memory.
"""

from __future__ import annotations

from sqlalchemy import bindparam, func, select
from sqlalchemy.engine import Connection

from deckcheck.server.tables.events import changes

KINDS = ("submitted", "replaced", "dropped", "restored", "checked-in")
_INSERT = changes.insert().values(
    event_id=bindparam("e_id"),
    submission_id=bindparam("s_id"),
    kind=bindparam("kind"),
    at=bindparam("at"),
)
_SINCE = (
    select(changes.c.id, changes.c.submission_id, changes.c.kind)
    .where(changes.c.event_id == bindparam("e_id"), changes.c.id > bindparam("after"))
    .order_by(changes.c.id)
    .limit(bindparam("most"))
)
_LAST = select(func.max(changes.c.id)).where(changes.c.event_id == bindparam("e_id"))


def record(conn: Connection, event_id: str, submission_id: str, kind: str, at: str) -> None:
    """Add a change (inside the transaction that made it, the event's row locked)."""
    conn.execute(_INSERT, {"e_id": event_id, "s_id": submission_id, "kind": kind, "at": at})


def since(conn: Connection, event_id: str, after: int, most: int) -> list:
    """At most `most` changes after the id `after`, oldest first."""
    return list(conn.execute(_SINCE, {"e_id": event_id, "after": after, "most": most}).all())


def last(conn: Connection, event_id: str) -> int:
    """The id of the event's latest change (0: none yet): a cursor for "from now on"."""
    return conn.execute(_LAST, {"e_id": event_id}).scalar() or 0
