"""The token buckets' one statement (deckcheck.events.limits says how limits hold): its
own module, under the store that runs it, so the store and the limits that ask it do
not import each other (issue 40)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from sqlalchemy import Float, bindparam, case, func
from sqlalchemy.dialects import postgresql, sqlite

from deckcheck.server.tables.events import rate_buckets


@cache
def take_statement(dialect: str):
    """The check-and-count UPSERT for one database's dialect."""
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    least = func.least if dialect == "postgresql" else func.min
    cap, rate, now = (bindparam(n, type_=Float) for n in ("cap", "rate", "now"))
    stmt = insert(rate_buckets).values(key=bindparam("key"), tokens=cap - 1, at=now, allowed=True)
    # The bucket refilled since its last use, never above its size.
    refilled = least(cap, rate_buckets.c.tokens + (now - rate_buckets.c.at) * rate)
    return stmt.on_conflict_do_update(
        index_elements=[rate_buckets.c.key],
        set_={
            "tokens": case((refilled >= 1, refilled - 1), else_=refilled),
            "at": now,
            "allowed": refilled >= 1,
        },
    ).returning(rate_buckets.c.allowed)


@dataclass(frozen=True)
class Bucket:
    """One limit a request takes from: `new_only` buckets count new players only."""

    key: str
    count: int
    seconds: float
    code: str
    message: str
    new_only: bool = False
