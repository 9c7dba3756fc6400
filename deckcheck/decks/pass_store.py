"""The worlds saved decks were judged in, and the background pass's reads and moves:
which decks a change may touch (a page at a time, in parts), and moving the others to
the new world without judging them. Part of DeckStore (store.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from deckcheck.server.packing import pack, unpack
from deckcheck.server.tables.decks import deck_cards, deck_versions, deck_worlds, decks
from deckcheck.server.tokens import now_utc

# A part of the background pass: deck ids from the first (included) to the second (left
# out); None: no bound (deckcheck.decks.rejudge.parts).
Part = tuple[str | None, str | None]

# A stale deck with its latest structured list (stale_page adds which and how many).
_STALE = select(
    decks.c.id,
    decks.c.version,
    decks.c.legal,
    decks.c.verdict,
    decks.c.judged,
    decks.c.judged_world,
    deck_versions.c.structured,
).join(
    deck_versions,
    (deck_versions.c.deck_id == decks.c.id) & (deck_versions.c.version == decks.c.version),
)


def _touched(numbers: Sequence[str], unknown_too: bool):
    """Decks holding one of `numbers` (or, with `unknown_too`, a line that named no card)."""
    holding = select(deck_cards.c.deck_id).where(deck_cards.c.number.in_(list(numbers)))
    touched = decks.c.id.in_(holding)
    return touched | decks.c.has_unknown.is_(True) if unknown_too else touched


class PassReads:
    """Part of DeckStore (its `engine`, `_writer` and `_insert`). Each method is one
    transaction."""

    engine: Engine
    _writer: Engine
    _insert: Callable

    def keep_world(self, world: str, format_id: str, rules: str, facts: dict[str, str]) -> None:
        packed = pack({"rules": rules, "facts": facts})
        row = {"world": world, "format": format_id, "facts": packed, "created_at": now_utc()}
        with self._writer.begin() as conn:
            conn.execute(self._insert(deck_worlds).on_conflict_do_nothing(), row)

    def world_facts(self, world: str) -> dict | None:
        """{"rules", "facts"} of a stored world; None when it is not stored."""
        query = select(deck_worlds.c.facts).where(deck_worlds.c.world == world)
        with self.engine.begin() as conn:
            found = conn.execute(query).scalar_one_or_none()
        return unpack(found) if found is not None else None

    def formats(self) -> list[str]:
        with self.engine.begin() as conn:
            return list(conn.execute(select(decks.c.format).distinct()).scalars())

    def stale_worlds(self, format_id: str, world: str) -> list[str]:
        """The other worlds decks of this format were last judged in."""
        query = (
            select(decks.c.judged_world)
            .where(decks.c.format == format_id, decks.c.judged_world != world)
            .distinct()
        )
        with self.engine.begin() as conn:
            return list(conn.execute(query).scalars())

    def _in_part(self, part: Part) -> list:
        """The condition on deck ids of a part of the pass: ids from `lo` (included) to
        `hi` (left out), compared byte by byte on both databases (PostgreSQL's collation
        may order '-' and '_' otherwise)."""
        column = decks.c.id.collate("C") if self.engine.dialect.name == "postgresql" else decks.c.id
        found = []
        if part[0] is not None:
            found.append(column >= part[0])
        if part[1] is not None:
            found.append(column < part[1])
        return found

    def stale_page(
        self,
        format_id: str,
        old_world: str,
        after: str,
        limit: int,
        numbers: Sequence[str] | None = None,
        unknown_too: bool = False,
        part: Part = (None, None),
    ) -> list[dict]:
        """Up to `limit` decks of `format_id` judged in `old_world`, ids after `after` (in
        `part`), with their latest structured list; only those holding one of `numbers`
        (and, with `unknown_too`, those with lines that named no card) when numbers are
        given."""
        where = [
            decks.c.format == format_id,
            decks.c.judged_world == old_world,
            decks.c.id > after,
            *self._in_part(part),
        ]
        if numbers is not None:
            where.append(_touched(numbers, unknown_too))
        query = _STALE.where(*where).order_by(decks.c.id).limit(limit)
        with self.engine.begin() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def move_world(
        self,
        format_id: str,
        old_world: str,
        world: str,
        limit: int,
        since: str,
        part: Part = (None, None),
    ) -> int:
        """Up to `limit` decks judged in `old_world` that no change touched: their verdict
        holds in `world` too (one short transaction per batch: no long lock). Decks saved
        since the pass began (`since`) stay for the next pass: a server that had not yet
        seen the change may have judged them in the old world."""
        page = (
            select(decks.c.id)
            .where(
                decks.c.format == format_id,
                decks.c.judged_world == old_world,
                decks.c.updated_at < since,
                *self._in_part(part),
            )
            .limit(limit)
        )
        with self._writer.begin() as conn:
            ids = list(conn.execute(page).scalars())
            if ids:
                conn.execute(
                    decks.update()
                    .where(decks.c.id.in_(ids), decks.c.judged_world == old_world)
                    .values(judged_world=world)
                )
        return len(ids)

    def forget_worlds(self, keep: Sequence[str]) -> None:
        """Worlds no deck was judged in any more (and not `keep`)."""
        used = select(decks.c.judged_world).distinct()
        with self._writer.begin() as conn:
            conn.execute(
                deck_worlds.delete().where(
                    deck_worlds.c.world.not_in(used), deck_worlds.c.world.not_in(list(keep))
                )
            )

    def count(self) -> int:
        with self.engine.begin() as conn:
            return conn.execute(select(func.count()).select_from(decks)).scalar_one()
