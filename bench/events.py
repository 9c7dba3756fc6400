"""Events at 1,050 players: the organizer's table, CSV and sheets, and a flood.

    .venv/bin/python bench/events.py [--players 1050] [--against DIR] [--postgres URL|auto]
                                     [--shared DIR]

The production server (gunicorn -c gunicorn.conf.py wsgi:app, 2 workers) on 127.0.0.1
with the full shared pools; the events database a fresh SQLite file (or a fresh
PostgreSQL database: `auto` starts one as the tests do, tests/events/pg.py). 8 client
threads with keep-alive send the submissions (each the 55-card list; one answered 503
is sent again, up to 3 times, as the answer asks); the rate limits are off for the run.
Then, per server:

- table: GET /api/v1/events/<id>/submissions, the first view and the median of 5 more;
- CSV: GET .../submissions.csv, median of 3; sheets: POST /e/<id>/admin/sheets, median of 3;
- memory: the most any worker's RSS grew over those views;
- rejudged: the table's first view after a new card pool (every list judged again);
- flood: 120 submissions of 1 MB lists (how many were taken), then 120 players with a
  list of the largest size taken (64 KB, 1,000 lines naming no card) and the same views.

`--against DIR` runs the same on another checkout (`git worktree add /tmp/c3fba1a c3fba1a`)
first, side by side: its routes are the same (it has no edit tokens: nothing else differs
for these calls). Must: table <= 1 s, CSV <= 1 s, sheets <= 2 s, memory +50 MB (issue 22).
"""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import common  # noqa: E402
from common import (  # noqa: E402
    DECK_55,
    ROOT,
    free_port,
    full_database,
    rss_mb,
    start_server,
    worker_pids,
)

CLIENTS = 8
FLOOD = 120
MUST = {"table": 1.0, "CSV": 1.0, "sheets": 2.0}
TRIES = 3
POOL_CHECK = 1.0  # seconds between a worker's looks at the pool (DECKCHECK_POOL_CHECK_SECONDS)


def submit_all(url: str, lists: list[tuple[str, str]]) -> tuple[float, dict[int, int]]:
    """(seconds, count per status) for `lists` of (player, decklist) from 8 clients."""
    statuses: dict[int, int] = {}
    lock = threading.Lock()

    def client(first: int) -> None:
        session = requests.Session()
        for player, text in lists[first::CLIENTS]:
            for _ in range(TRIES):  # a 503 events-busy says "send it again": a client does
                try:
                    status = session.post(
                        url, json={"player": player, "decklist": text}, timeout=60
                    ).status_code
                except requests.RequestException:
                    status = 0
                with lock:
                    statuses[status] = statuses.get(status, 0) + 1
                if status != 503:
                    break

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - started, statuses


def timed(call) -> float:
    started = time.perf_counter()
    response = call()
    elapsed = time.perf_counter() - started
    if response.status_code != 200:
        sys.exit(f"{response.status_code}: {response.text[:300]}")
    return elapsed


def views(base: str, event: dict, players: int, server: subprocess.Popen, database: str) -> dict:
    """The organizer's three views of one event, and the workers' memory growth."""
    api = f"{base}/api/v1/events/{event['id']}"
    auth = {"Authorization": "Bearer " + event["admin_token"]}
    token = {"token": event["admin_token"]}
    before = {pid: rss_mb(pid) for pid in worker_pids(server)}
    first = timed(lambda: requests.get(f"{api}/submissions", headers=auth, timeout=300))
    table = [
        timed(lambda: requests.get(f"{api}/submissions", headers=auth, timeout=300))
        for _ in range(5)
    ]
    rows = requests.get(f"{api}/submissions", headers=auth, timeout=300).json()["data"]
    assert len(rows) == players, (len(rows), players)
    csv = [
        timed(lambda: requests.get(f"{api}/submissions.csv", headers=auth, timeout=300))
        for _ in range(3)
    ]
    sheets_url = f"{base}/e/{event['id']}/admin/sheets"
    sheets = [timed(lambda: requests.post(sheets_url, data=token, timeout=300)) for _ in range(3)]
    grown = max(rss_mb(pid) - rss for pid, rss in before.items())
    new_pool(database)
    rejudged = timed(lambda: requests.get(f"{api}/submissions", headers=auth, timeout=600))
    return {
        "table first": first,
        "table": statistics.median(table),
        "CSV": statistics.median(csv),
        "sheets": statistics.median(sheets),
        "memory MB": grown,
        "rejudged": rejudged,
    }


def new_pool(database: str) -> None:
    """What an import does to the DCG pool's row: a new generation, so the next view of
    the table judges every list again (from its stored structured list, or its text on
    a tree that keeps none); waited for until the workers look at the pool again."""
    conn = sqlite3.connect(database)
    with conn:
        conn.execute("UPDATE pools SET generation = generation + 1 WHERE game = 'dcg'")
    conn.close()
    time.sleep(POOL_CHECK + 0.5)


def new_event(base: str) -> dict:
    body = {"name": "Bench", "format": "dcg", "date": "2024-06-01"}
    body["deadline"] = "2099-01-01T00:00:00Z"
    response = requests.post(f"{base}/api/v1/events", json=body, timeout=30)
    assert response.status_code == 201, response.text
    return response.json()


def largest_list() -> str:
    """1,000 lines naming no card, just under 64 KB: the most an event takes."""
    return "".join(f"1 Zorblax Quintessence Nonesuch Holo Variant {n:06d}\n" for n in range(1000))[
        : 64 * 1024 - 100
    ]


def run(root: Path, database: str, events_db: str, players: int) -> dict:
    env = {
        **os.environ,
        "DECKCHECK_DATABASE": database,
        "DECKCHECK_EVENTS_DATABASE": events_db,
        "DECKCHECK_EVENTS_SUBMIT_LIMIT": "0",
        "DECKCHECK_EVENTS_CREATE_LIMIT": "0",
        "DECKCHECK_EVENTS_ADDRESS_LIMIT": "0",
        "DECKCHECK_EVENTS_NEW_PLAYERS_LIMIT": "0",
        "DECKCHECK_SECRET_KEY": "bench",
        "PYTHONPATH": str(root),
    }
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    workers = int(os.environ.get("DECKCHECK_GUNICORN_WORKERS", "2"))
    server = start_server(
        database, port, workers, root=root, production=True, env=env, own_session=True
    )
    found: dict = {}
    try:
        event = new_event(base)
        url = f"{base}/api/v1/events/{event['id']}/submissions"
        lists = [(f"Player {n}", DECK_55) for n in range(players)]
        elapsed, statuses = submit_all(url, lists)
        assert statuses.get(201) == players, statuses
        found["submissions/s"] = players / elapsed
        found["sent again"] = statuses.get(503, 0)
        found.update(views(base, event, players, server, database))
        flood = new_event(base)
        url = f"{base}/api/v1/events/{flood['id']}/submissions"
        # Just under the 1 MB body limit once in JSON (each newline is written \\n).
        megabyte = ("4 BT1-010\n" * 100_000)[:940_000]
        _, statuses = submit_all(url, [(f"Flood {n}", megabyte) for n in range(FLOOD)])
        found["1 MB lists taken"] = statuses.get(201, 0)
        found["1 MB statuses"] = statuses
        largest = new_event(base)
        url = f"{base}/api/v1/events/{largest['id']}/submissions"
        _, statuses = submit_all(url, [(f"Large {n}", largest_list()) for n in range(FLOOD)])
        assert statuses.get(201) == FLOOD, statuses
        found["64 KB"] = views(base, largest, FLOOD, server, database)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    return found


def show(name: str, found: dict) -> None:
    again = found["sent again"]
    print(f"{name}: {found['submissions/s']:.0f} submissions/s ({again} sent again after a 503)")
    for label, values in (("1,050 players", found), ("120 x 64 KB", found["64 KB"])):
        keys = ("table first", "table", "CSV", "sheets", "rejudged")
        parts = [f"{k} {values[k]:.3f} s" for k in keys]
        print(f"  {label}: {', '.join(parts)}, memory +{values['memory MB']:.0f} MB")
    print(f"  120 lists of 1 MB: {found['1 MB lists taken']} taken ({found['1 MB statuses']})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1050)
    parser.add_argument("--against", type=Path, help="another checkout to run first")
    parser.add_argument("--postgres", help="a fresh PostgreSQL URL, or auto")
    parser.add_argument("--shared", type=Path, help="the shared data folder (default ../shared)")
    args = parser.parse_args()
    if args.shared:
        # A worktree's ../shared may not be the project's: read the pools from here.
        common.POOLS = {
            game: args.shared / path.relative_to(ROOT.parent / "shared")
            for game, path in common.POOLS.items()
        }
    database = full_database()
    with common.postgres_for(args.postgres) as pg:
        results = {}
        for name, root in (("before", args.against), ("this tree", ROOT)):
            if root is not None:
                db = common.events_database(args.postgres, pg)
                results[name] = run(root.resolve(), database, db, args.players)
                show(f"{name} ({root})", results[name])
    mine = results["this tree"]
    ok = all(mine[k] <= v and mine["64 KB"][k] <= v for k, v in MUST.items())
    ok = ok and max(mine["memory MB"], mine["64 KB"]["memory MB"]) <= 50
    verdict = "met" if ok else "NOT met"
    print(f"must: table <= 1 s, CSV <= 1 s, sheets <= 2 s, memory +50 MB: {verdict}")


if __name__ == "__main__":
    main()
