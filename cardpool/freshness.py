"""How current each card list is: cards, newest sets, source, import time, last sync.

`GET /api/v1/pools` returns `status()`; the home page, the report and the card browser
show `line()` per game. A game's newest sets are worked out once per pool generation
(one query over its card numbers), so asking on every page costs two small queries.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import sqlite_utils

from cardpool import list_store
from cardpool.adding import added
from cardpool.store import pool_info
from rules.cache import Bounded
from rules.games import GAME_IDS, GAMES, game_label
from rules.sets import newest_sets

# Series whose newest set names the list in one line ("newest BT26 / EX12").
HEADLINE_SERIES = ("BT", "EX")
_lock = threading.Lock()
# (database path, game) -> (generation, newest set codes)
_newest: Bounded[tuple[str, str], tuple[int, list[str]]] = Bounded(64)


def _db_key(db: sqlite_utils.Database) -> str:
    row = db.execute("PRAGMA database_list").fetchone()
    return row[2] if row else ""


def newest_set_codes(db: sqlite_utils.Database, game: str, generation: int) -> list[str]:
    """The newest numbered set of each series the pool holds (DCG: BT26, EX12, ST24, ...),
    then the series without numbered sets (P, LM). Other games number cards without sets."""
    if game not in GAMES or not GAMES[game].set_numbers:
        return []
    key = (_db_key(db), game)
    cached = _newest.get(key)
    if cached and cached[0] == generation:
        return cached[1]
    numbers = (row[0] for row in db.execute("SELECT number FROM cards WHERE game = ?", [game]))
    newest = newest_sets(numbers)
    codes = sorted(s.code for s in newest.values() if s.number is not None) + sorted(
        s.code for s in newest.values() if s.number is None
    )
    with _lock:
        _newest.keep(key, (generation, codes))
    return codes


def last_syncs(db: sqlite_utils.Database) -> dict[str, dict]:
    return {row["game"]: row for row in db.query("SELECT * FROM syncs")}


def record_sync(db: sqlite_utils.Database, game: str, result: str, message: str) -> None:
    """Keep the last sync's outcome (`ok`, `unchanged` or `failed`) for GET /api/v1/pools."""
    db.execute(
        "INSERT OR REPLACE INTO syncs (game, at, result, message) VALUES (?, ?, ?, ?)",
        [game, datetime.now(UTC).isoformat(timespec="seconds"), result, message[:500]],
    )
    db.conn.commit()


def status(db: sqlite_utils.Database) -> list[dict]:
    """One entry per game, in the games' order; a game with no pool says so (0 cards)."""
    pools = pool_info(db)
    syncs = last_syncs(db)
    found = []
    for game in GAME_IDS:
        pool = pools.get(game)
        sync = syncs.get(game)
        found.append(
            {
                "game": game,
                "cards": pool["count"] if pool else 0,
                "newest_sets": newest_set_codes(db, game, pool["generation"]) if pool else [],
                "source": pool["source"] if pool else None,
                "imported_at": pool["imported_at"] if pool else None,
                "list_date": list_date(pool) if pool else None,
                "last_sync": _sync_json(sync),
                "added": added(db, game),
            }
        )
    return found


def with_lists(db: sqlite_utils.Database) -> list[dict]:
    """`status()` for GET /api/v1/pools: a game with a list history (DCG) also says where
    its history came from and how its last list sync went, beside its card sync."""
    syncs = last_syncs(db)
    found = status(db)
    for entry in found:
        if entry["game"] not in list_store.GAMES_WITH_LISTS:
            continue
        stored = list_store.current(db, entry["game"])
        sync = syncs.get(list_store.SYNC_KEY.format(game=entry["game"]))
        entry["lists"] = {
            "source": stored.source,
            "updated": stored.updated,
            "changes": len(stored.history.changes),
            "last_sync": _sync_json(sync),
        }
    return found


def _sync_json(sync: dict | None) -> dict | None:
    if sync is None:
        return None
    return {"at": sync["at"], "result": sync["result"], "message": sync["message"]}


def list_date(pool: dict) -> str:
    """The date the list is of: the one it says (the shipped list), else its import day."""
    return pool.get("list_date") or (pool["imported_at"] or "")[:10]


def line(entry: dict) -> str:
    """`Card list: 4,391 DCG cards, newest BT26 / EX12, updated 2026-08-20`."""
    game = game_label(entry["game"])
    if not entry["cards"]:
        return f"Card list: no {game} cards yet (an organizer imports them: docs/data.md)"
    text = f"Card list: {entry['cards']:,} {game} cards"
    headline = [c for c in entry["newest_sets"] if c.rstrip("0123456789") in HEADLINE_SERIES]
    if headline:
        text += f", newest {' / '.join(headline)}"
    text += f", updated {entry['list_date']}"
    sync = entry["last_sync"]
    if sync and sync["result"] == "failed":
        text += f" (the last update, {sync['at'][:10]}, failed: the list may be behind)"
    return text
