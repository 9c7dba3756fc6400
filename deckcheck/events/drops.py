"""A player's lists taken out of the event and back in: a drop, its undoing, and two
rows of one player merged into one. Each runs inside its caller's write transaction,
after the event's row is locked (players.LOCK_EVENT), so its change ids commit in
order (changelog.py)."""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from deckcheck.events import changelog
from deckcheck.events.players import CURRENT, DROPPED, PLAYERS, REPLACED, EventFull, as_dict
from deckcheck.server.tables.events import drops, submissions
from deckcheck.server.tokens import now_utc


def drop(conn: Connection, event_id: str, submission_id: str, cutoff: bool) -> bool:
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


def restore(conn: Connection, event_id: str, submission_id: str, max_players: int):
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
    if max_players and conn.execute(PLAYERS, {"e_id": event_id}).scalar_one() >= max_players:
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
    return as_dict(
        conn.execute(select(submissions).where(submissions.c.id == submission_id)).first()
    )


_RENUMBER = (
    submissions.update()
    .where(submissions.c.id == bindparam("s_id"))
    .values(player_key=bindparam("p_key"), seq=bindparam("n"), status=bindparam("new_status"))
)


def merge(conn: Connection, event_id: str, keep_id: str, other_id: str) -> dict | None:
    """`EventStore.merge` inside its transaction (the event's row locked by the caller)."""
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
    _renumber(conn, key, keep_id, rows)
    kept = conn.execute(select(submissions).where(submissions.c.id == keep_id)).first()
    # The table shows the kept row and no longer the other (not current now).
    for sid in (other_id, keep_id):
        changelog.record(conn, event_id, sid, "replaced", now_utc())
    return as_dict(kept)


def _renumber(conn: Connection, key: str, keep_id: str, rows) -> None:
    """Both players' lists as one history under `key`, numbered by when each was sent;
    the kept list last (the latest of its player: players_row reads the highest seq)."""
    ordered = sorted(rows, key=lambda r: (r.id == keep_id, r.submitted_at, r.seq))
    params = []
    for n, r in enumerate(ordered, start=1):
        status = CURRENT if r.id == keep_id else REPLACED
        params.append({"s_id": r.id, "p_key": key, "n": n, "new_status": status})
    conn.execute(_RENUMBER, params)
