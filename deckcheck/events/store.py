"""The events' store: events, submissions (every version kept), drops. One small
interface (`EventStore`) over SQLAlchemy Core on the server's database
(deckcheck.server.database: SQLite or PostgreSQL, its durability and timeouts).

Every rule about who may store what is checked inside the transaction that stores it,
after the event's row is locked (players.py): the deadline, the player cap, the edit
token, a drop. The parts: who a list is about and storing it (players.py), drops and
merges (drops.py), the organizer's table's reads (table_store.py), and what a venue
adds (venue_store.py, whose VenueStore is the store the app opens).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from sqlalchemy import select

from deckcheck.events import drops
from deckcheck.events.players import (
    CURRENT,
    DROPPED,
    EVENT,
    LOCK_EVENT,
    NO_CLAIM,
    PLAYERS,
    REPLACED,
    Claim,
    EventFull,
    EventLocked,
    NewSubmission,
    PlayerDropped,
    PlayerExists,
    as_dict,
    is_new,
    players_row,
    right_to_store,
    store_list,
)
from deckcheck.events.table_store import TableReads
from deckcheck.server import buckets
from deckcheck.server.database import Database
from deckcheck.server.tables.events import changes, events, submissions
from deckcheck.server.tables.events import drops as drops_table
from deckcheck.server.tokens import now_utc, token_hash, token_matches

__all__ = [
    "CURRENT",
    "DROPPED",
    "REPLACED",
    "Claim",
    "EventFull",
    "EventLocked",
    "EventStore",
    "NewSubmission",
    "PlayerDropped",
    "PlayerExists",
]


class EventStore(TableReads):
    """Everything the service keeps about events. Each method is one transaction."""

    def __init__(self, database: Database | str) -> None:
        # A setting (a path or a URL) opens a database of its own (tests, tools).
        self.database = database if isinstance(database, Database) else Database(database)
        self.engine = self.database.engine
        self._writer = self.database.writer

    def migrate(self) -> None:
        self.database.migrate()

    def close(self) -> None:
        self.database.close()

    def backup(self, target: str) -> None:
        self.database.backup(target)

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
            return as_dict(conn.execute(EVENT, {"e_id": event_id}).first())

    def players(self, event_id: str) -> int:
        with self.engine.begin() as conn:
            return conn.execute(PLAYERS, {"e_id": event_id}).scalar_one()

    @staticmethod
    def token_matches(event_row: dict, token: str) -> bool:
        return token_matches(event_row["token_hash"], token)

    def update_event(self, event_id: str, **values) -> dict | None:
        with self._writer.begin() as conn:
            conn.execute(events.update().where(events.c.id == event_id).values(**values))
            return as_dict(conn.execute(select(events).where(events.c.id == event_id)).first())

    def delete_event(self, event_id: str) -> bool:
        with self._writer.begin() as conn:
            conn.execute(drops_table.delete().where(drops_table.c.event_id == event_id))
            conn.execute(changes.delete().where(changes.c.event_id == event_id))
            conn.execute(submissions.delete().where(submissions.c.event_id == event_id))
            return conn.execute(events.delete().where(events.c.id == event_id)).rowcount > 0

    # -- submissions ----------------------------------------------------------

    def submit(
        self,
        event_id: str,
        new: NewSubmission,
        claim: Claim = NO_CLAIM,
        max_players: int = 0,
        when: str | None = None,
    ) -> tuple[dict, str | None]:
        """Store a list; the player's earlier one becomes history.

        Returns the stored row and the edit token to hand to the submitter: a new one
        for a new player (and when the organizer replaces a list), the one they proved
        when they replace their own. Raises KeyError (no event), EventLocked,
        PlayerDropped, PlayerExists or EventFull, with nothing stored.
        """
        with self._writer.begin() as conn:
            return store_list(conn, event_id, new, claim, max_players, when or now_utc())

    def check_claim(self, event_id: str, player: str, player_id: str, claim: Claim) -> None:
        """Raise PlayerExists or PlayerDropped now if storing this player's list would,
        so a form can say so before asking anything else (submit checks again)."""
        with self.engine.begin() as conn:
            latest = players_row(conn, event_id, player, player_id, claim)
            if latest is not None:
                right_to_store(conn, event_id, latest, claim, 0)

    def submission(self, event_id: str, submission_id: str) -> dict | None:
        query = select(submissions).where(
            submissions.c.event_id == event_id, submissions.c.id == submission_id
        )
        with self.engine.begin() as conn:
            return as_dict(conn.execute(query).first())

    def by_token(self, event_id: str, token: str) -> dict | None:
        """The current list this edit token belongs to, if any."""
        query = select(submissions).where(
            submissions.c.event_id == event_id,
            submissions.c.edit_hash == token_hash(token),
            submissions.c.status == CURRENT,
        )
        with self.engine.begin() as conn:
            return as_dict(conn.execute(query).first())

    def history(self, event_id: str, key: str) -> list[dict]:
        query = (
            select(submissions)
            .where(submissions.c.event_id == event_id, submissions.c.player_key == key)
            .order_by(submissions.c.seq)
        )
        with self.engine.begin() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    # -- drops and merges (drops.py) ------------------------------------------

    def drop(self, event_id: str, submission_id: str, cutoff: bool = False) -> bool:
        """Drop a player: their lists stay as history, none of them counts any more.
        `cutoff`: dropped by the cut-off at lock (unlock restores them)."""
        with self._writer.begin() as conn:
            conn.execute(LOCK_EVENT, {"e_id": event_id})
            return drops.drop(conn, event_id, submission_id, cutoff)

    def dropped(self, event_id: str) -> list[dict]:
        """The players the organizer dropped: the list that was current, and when."""
        query = (
            select(drops_table.c.submission_id, drops_table.c.player, drops_table.c.dropped_at)
            .where(drops_table.c.event_id == event_id)
            .order_by(drops_table.c.dropped_at)
        )
        with self.engine.begin() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def restore(self, event_id: str, submission_id: str, max_players: int = 0) -> dict | None:
        """Undo a drop: the list that was current is current again (None: no such drop).
        Raises EventFull when the event has no room left."""
        with self._writer.begin() as conn:
            conn.execute(LOCK_EVENT, {"e_id": event_id})
            return drops.restore(conn, event_id, submission_id, max_players)

    def merge(self, event_id: str, keep_id: str, other_id: str) -> dict | None:
        """One player written twice becomes one: `keep_id`'s list stays current (with its
        name, id and edit token) and every list of `other_id`'s player joins its history,
        numbered by when it was sent. None when either is not a current list here."""
        with self._writer.begin() as conn:
            conn.execute(LOCK_EVENT, {"e_id": event_id})
            return drops.merge(conn, event_id, keep_id, other_id)

    # -- rate limits (deckcheck.server.buckets) -------------------------------

    def take(self, key: str, count: int, seconds: float, now: float) -> bool:
        """One request against one token bucket of `count` per `seconds`."""
        return self.database.take(key, count, seconds, now)

    def take_all(self, wanted: Sequence[buckets.Bucket], now: float, player: tuple | None = None):
        """One request against token buckets, in one transaction; `player` = (event id,
        name, id, edit token): whether this is a new player (for `new_only` buckets) is
        read in the same transaction. Returns the bucket that refused, or None."""
        asks = (lambda conn: is_new(conn, *player)) if player is not None else None
        return buckets.take_all(self.database, wanted, now, asks)
