"""The store's part for an event at a venue (issue 44): the organizer's marks on a list
(published, accepted, checked in), the cut-off at lock and its undoing at unlock, the
changes the live table polls, and the published lists.

Every write here locks the event's row first (FOR UPDATE on PostgreSQL, BEGIN IMMEDIATE
on SQLite), as store.py's writes do, so its change ids commit in order (changelog.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from sqlalchemy import select

from deckcheck.events import changelog
from deckcheck.events.drops import drop, restore
from deckcheck.events.players import CURRENT, LOCK_EVENT, as_dict
from deckcheck.events.store import EventStore
from deckcheck.server.names import fold
from deckcheck.server.opened import product_store
from deckcheck.server.tables.events import drops, events, submissions
from deckcheck.server.tokens import now_utc

MARKS = ("published", "accepted", "checked_in")
KEY = "deckcheck.events"  # app.extensions' key of the app's events store
LISTS_PAGE = 200


class VenueStore(EventStore):
    def mark(self, event_id: str, submission_id: str, values: dict) -> dict | None:
        """Set marks (MARKS) on a current list; None when it is not one. A check-in or
        its undoing is a change the live table sees."""
        values = {k: bool(v) for k, v in values.items() if k in MARKS}
        with self._writer.begin() as conn:
            conn.execute(LOCK_EVENT, {"e_id": event_id})
            mine = (
                submissions.c.event_id == event_id,
                submissions.c.id == submission_id,
                submissions.c.status == CURRENT,
            )
            if values and conn.execute(submissions.update().where(*mine).values(**values)).rowcount:
                if "checked_in" in values:
                    changelog.record(conn, event_id, submission_id, "checked-in", now_utc())
            return as_dict(conn.execute(select(submissions).where(*mine)).first())

    def set_locked(self, event_id: str, locked: bool) -> tuple[dict | None, int]:
        """Lock or unlock the event; unlocking restores every player the cut-off dropped
        (not those the organizer dropped by hand). Returns (the event, players restored)."""
        restored = 0
        with self._writer.begin() as conn:
            conn.execute(LOCK_EVENT, {"e_id": event_id})
            conn.execute(events.update().where(events.c.id == event_id).values(locked=locked))
            if not locked:
                cut = select(drops.c.submission_id).where(
                    drops.c.event_id == event_id, drops.c.cutoff.is_(True)
                )
                for (sid,) in conn.execute(cut).all():
                    # The cut-off made the room they take back: no player cap to check.
                    restored += restore(conn, event_id, sid, 0) is not None
            row = conn.execute(select(events).where(events.c.id == event_id)).first()
        return as_dict(row), restored

    def cut_off(self, event_id: str, ids: Sequence[str]) -> int:
        """Drop these current lists as the cut-off's, if the event is still locked (an
        unlock meanwhile wins). Returns how many players were dropped."""
        with self._writer.begin() as conn:
            found = conn.execute(LOCK_EVENT, {"e_id": event_id}).first()
            if found is None or not found.locked:
                return 0
            return sum(drop(conn, event_id, sid, True) for sid in ids)

    def cut_off_drop(self, event_id: str, submission_id: str) -> bool:
        """Was this list dropped by the cut-off (for its receipt page)?"""
        query = select(drops.c.cutoff).where(
            drops.c.event_id == event_id, drops.c.submission_id == submission_id
        )
        with self.engine.begin() as conn:
            return bool(conn.execute(query).scalar())

    def changes_since(self, event_id: str, after: int, most: int) -> tuple[list, int]:
        """(changes after the cursor `after`, oldest first, at most `most`; the cursor
        to ask with next)."""
        with self.engine.begin() as conn:
            found = changelog.since(conn, event_id, after, most)
        return found, (found[-1].id if found else after)

    def last_change(self, event_id: str) -> int:
        with self.engine.begin() as conn:
            return changelog.last(conn, event_id)

    def lists_pages(self, event_id: str, marked_only: bool) -> Iterator[list[dict]]:
        """The current lists to publish, by player name, a page at a time (names sorted
        as they are compared, in Python: the database cannot fold as names.fold does)."""
        query = select(submissions.c.id, submissions.c.player).where(
            submissions.c.event_id == event_id,
            submissions.c.status == CURRENT,
            *((submissions.c.published.is_(True),) if marked_only else ()),
        )
        with self.engine.begin() as conn:
            found = conn.execute(query).all()
        ids = [r.id for r in sorted(found, key=lambda r: (fold(r.player), r.id))]
        for start in range(0, len(ids), LISTS_PAGE):
            yield self.by_ids(event_id, ids[start : start + LISTS_PAGE])


def store() -> VenueStore:
    """The app's events store, on the app's database (opened and migrated on first use,
    so an app that never sees an event never creates it)."""
    return product_store(KEY, VenueStore)
