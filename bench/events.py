"""Events: 1,000 players' submissions, then the organizer's table (all judged again).

    .venv/bin/python bench/events.py [--players 1000] [--postgres postgresql://...]

The production server (gunicorn -c gunicorn.conf.py wsgi:app, 2 workers) on 127.0.0.1
with the full shared pools; the events database is a fresh SQLite file (or the given
PostgreSQL database, which should be empty). 8 client threads with keep-alive send
the submissions (each a 55-card list); the rate limit is off for the run. Prints
submissions per second, then the table's time (first view and the median of 5).
Must: table <= 1.5 s, submissions >= 150/s. Aim: table <= 0.5 s.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import DECK_55, ROOT, free_port, full_database, wait_until_up  # noqa: E402

CLIENTS = 8


def start(env: dict, port: int) -> subprocess.Popen:
    gunicorn = Path(sys.executable).with_name("gunicorn")
    server = subprocess.Popen(
        [str(gunicorn), "-c", "gunicorn.conf.py", "--log-level", "warning", "wsgi:app"],
        cwd=ROOT,
        env={**env, "DECKCHECK_BIND": f"127.0.0.1:{port}"},
        start_new_session=True,
    )
    return wait_until_up(server, port, kill=lambda: os.killpg(server.pid, signal.SIGKILL))


def submit_all(base: str, event_id: str, players: int) -> float:
    failures: list[str] = []

    def client(first: int) -> None:
        session = requests.Session()
        for n in range(first, players, CLIENTS):
            body = {"player": f"Player {n}", "player_id": f"{n:010d}", "decklist": DECK_55}
            response = session.post(f"{base}/{event_id}/submissions", json=body, timeout=30)
            if response.status_code != 201:
                failures.append(f"{response.status_code} {response.text[:200]}")

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    if failures:
        sys.exit(f"{len(failures)} submissions failed, e.g. {failures[0]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--postgres", help="an empty PostgreSQL database URL")
    args = parser.parse_args()
    events_db = args.postgres or str(Path(tempfile.mkdtemp(prefix="deckcheck-ev-")) / "e.db")
    env = {
        **os.environ,
        "DECKCHECK_DATABASE": full_database(),
        "DECKCHECK_EVENTS_DATABASE": events_db,
        "DECKCHECK_EVENTS_SUBMIT_LIMIT": "0",
        "DECKCHECK_SECRET_KEY": "bench",
        "DECKCHECK_GUNICORN_WORKERS": os.environ.get("DECKCHECK_GUNICORN_WORKERS", "2"),
    }
    port = free_port()
    server = start(env, port)
    base = f"http://127.0.0.1:{port}/api/v1/events"
    try:
        event = requests.post(
            base,
            json={"name": "Bench", "format": "dcg", "deadline": "2099-01-01T00:00:00Z"},
            timeout=30,
        ).json()
        elapsed = submit_all(base, event["id"], args.players)
        print(f"submissions: {args.players} in {elapsed:.2f} s = {args.players / elapsed:.0f}/s")
        auth = {"Authorization": "Bearer " + event["admin_token"]}
        times = []
        for _ in range(6):
            started = time.perf_counter()
            response = requests.get(f"{base}/{event['id']}/submissions", headers=auth, timeout=60)
            times.append(time.perf_counter() - started)
            assert len(response.json()["data"]) == args.players
        print(f"table ({args.players} lists judged again): first {times[0]:.3f} s, "
              f"median of 5 more {statistics.median(times[1:]):.3f} s")  # fmt: skip
        started = time.perf_counter()
        requests.get(f"{base}/{event['id']}/submissions.csv", headers=auth, timeout=60)
        print(f"submissions.csv: {time.perf_counter() - started:.3f} s")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
