"""The store's reads for the organizer's table: the current lists a page at a time, by
id, those whose stored verdict is out of date, and the verdicts of today stored back."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from sqlalchemy import bindparam, func, select, tuple_
from sqlalchemy.engine import Engine

from deckcheck.events.players import CURRENT
from deckcheck.server.tables.events import submissions

# The table's columns: not the list itself (up to 64 KB a player), its structured
# list nor its sheet.
TABLE_COLUMNS = [c for c in submissions.c if c.name not in ("entry", "sheet", "structured")]
# With the lists (the CSV): not their structured lists, which only a judging reads.
LIST_COLUMNS = [c for c in submissions.c if c.name != "structured"]
PAGE = 200
_SAVE_JUDGED = (
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


class TableReads:
    """Part of EventStore (its `engine` and `_writer`). Each method is one transaction."""

    engine: Engine
    _writer: Engine

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
        columns = LIST_COLUMNS if with_entry else TABLE_COLUMNS
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
        columns = list(submissions.c) if with_entry else TABLE_COLUMNS
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
        with self._writer.begin() as conn:
            conn.execute(
                _SAVE_JUDGED,
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
