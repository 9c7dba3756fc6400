"""The saved decks' verdicts of today and their feeds: a version judged again (by a read
or by the background pass) stored if the deck is still where it was read, and the feed
entries the change adds, each once per deck. Part of DeckStore (store.py)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from sqlalchemy import bindparam, func, select
from sqlalchemy.engine import Connection, Engine

from deckcheck.server.packing import pack
from deckcheck.server.tables.decks import deck_feed, decks
from deckcheck.server.tokens import now_utc

# The background pass's update, one statement for a batch (executemany).
_SAVE_JUDGED = (
    decks.update()
    .where(decks.c.id == bindparam("d_id"))
    .values(
        judged_world=bindparam("judged_world"),
        judged=bindparam("judged"),
        judged_legal=bindparam("judged_legal"),
        judged_changed=bindparam("judged_changed"),
    )
)


@dataclass(frozen=True)
class FeedEntry:
    change: str  # a digest naming the change: the key that keeps it once per deck
    title: str
    body: str


class Stored(NamedTuple):
    """What a batch of the background pass stored: decks, and feed entries added."""

    decks: int
    entries: int


def position_key(change: str, position: int) -> str:
    """A feed entry's key: its change (deck, version, kind, problem) and how many entries
    the deck's feed held before it. The same problem coming back (banned, unbanned,
    banned again) is a new entry; two servers storing the same judging still store one
    (only the first passes the stored verdict's check, and both would write one key)."""
    text = f"{change}/{position}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:40]


class JudgedWrites:
    """Part of DeckStore (its `engine`, `_writer` and `_insert`). Each method is one
    transaction."""

    engine: Engine
    _writer: Engine
    _insert: Callable

    def save_judged(
        self,
        deck_id: str,
        version: int,
        world: str,
        judged: dict,
        changed: bool,
        entries: Iterable[FeedEntry] = (),
        was_world: str | None = None,
    ) -> bool:
        """Store today's verdict of a version and its feed entries (each once per deck,
        whoever adds it first), if the deck is still at that version and in `was_world`,
        the world it was read in ("changed" was measured against the verdict last shown as
        read then: a read since may have shown another). False: the deck moved on
        meanwhile (nothing stored)."""
        values = {
            "judged_world": world,
            "judged": pack(judged),
            "judged_legal": judged["legal"],
            "judged_changed": changed,
        }
        with self._writer.begin() as conn:
            still = [decks.c.id == deck_id, decks.c.version == version]
            if was_world is not None:
                still.append(decks.c.judged_world == was_world)
            done = conn.execute(decks.update().where(*still).values(**values)).rowcount
            if done:
                self._add_entries(conn, {deck_id: list(entries)})
        return bool(done)

    def mark_shown(self, deck_id: str, version: int, world: str, view: dict) -> bool:
        """A reader was shown `view` (judged in `world`): the verdict the next "changed"
        is measured against. False: the deck moved on meanwhile (a new version, or judged
        in another world), and nothing is stored."""
        shown = {key: view[key] for key in ("violations", "warnings", "unresolved") if key in view}
        with self._writer.begin() as conn:
            done = conn.execute(
                decks.update()
                .where(
                    decks.c.id == deck_id,
                    decks.c.version == version,
                    decks.c.judged_world == world,
                )
                .values(legal=view["legal"], verdict=pack(shown), judged_changed=False)
            ).rowcount
        return bool(done)

    def save_judged_many(self, rows: list[dict]) -> Stored:
        """`save_judged` for a batch of the background pass, in one transaction: the decks
        still at the version and in the world they were read in (locked; a read since has
        judged them itself), their verdicts and their feed entries each written by one
        statement for the whole batch. Counts the decks stored and the entries added."""
        if not rows:
            return Stored(0, 0)
        ids = [row["id"] for row in rows]
        with self._writer.begin() as conn:
            found = select(decks.c.id, decks.c.version, decks.c.judged_world)
            current = {
                deck_id: (version, world)
                for deck_id, version, world in conn.execute(
                    found.where(decks.c.id.in_(ids)).with_for_update()
                )
            }
            kept = [r for r in rows if current.get(r["id"]) == (r["version"], r["was_world"])]
            if not kept:
                return Stored(0, 0)
            conn.execute(
                _SAVE_JUDGED,
                [
                    {
                        "d_id": row["id"],
                        "judged_world": row["world"],
                        "judged": pack(row["judged"]),
                        "judged_legal": row["judged"]["legal"],
                        "judged_changed": row["changed"],
                    }
                    for row in kept
                ],
            )
            added = self._add_entries(conn, {row["id"]: row["entries"] for row in kept})
        return Stored(len(kept), added)

    def _add_entries(self, conn: Connection, entries: dict[str, Sequence[FeedEntry]]) -> int:
        """The entries of each deck, keyed after the entries its feed holds already
        (position_key); how many were added (a key already there adds none)."""
        wanted = [deck_id for deck_id, found in entries.items() if found]
        if not wanted:
            return 0
        held: dict[str, int] = dict(
            conn.execute(
                select(deck_feed.c.deck_id, func.count())
                .where(deck_feed.c.deck_id.in_(wanted))
                .group_by(deck_feed.c.deck_id)
            ).all()
        )
        when = now_utc()
        rows = [
            {"deck_id": deck_id, "change": position_key(e.change, held.get(deck_id, 0)),
             "at": when, "title": e.title, "body": e.body}
            for deck_id in wanted
            for e in entries[deck_id]
        ]  # fmt: skip
        statement = self._insert(deck_feed).on_conflict_do_nothing()
        return len(conn.execute(statement.returning(deck_feed.c.change), rows).all())

    def feed(self, deck_id: str, limit: int = 100) -> list[dict]:
        query = (
            select(deck_feed)
            .where(deck_feed.c.deck_id == deck_id)
            .order_by(deck_feed.c.at.desc(), deck_feed.c.change)
            .limit(limit)
        )
        with self.engine.begin() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]
