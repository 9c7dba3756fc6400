"""Saved decks on the production server: saving, reading, and the background pass.

    .venv/bin/python bench/decks.py [--decks 100000] [--postgres URL|auto] [--shared DIR]

The production server (gunicorn -c gunicorn.conf.py wsgi:app, 2 workers) on 127.0.0.1
with the full shared pools; the events database a fresh SQLite file (or PostgreSQL:
`auto` starts one as the tests do). Side by side, in one run:

- save: POST /api/v1/decks of the real 55-card list, one client, median of 200;
- read: GET /api/v1/decks/<id> of a deck whose verdict is current, median of 300 (and
  GET /api/v1/health, the floor of any request on this machine);
- quiet validate p99: 4 clients sending POST /api/v1/decks/validate (the 55-card list,
  80 requests a second in all) for 20 s;
- the pass: `--decks` saved decks (stored straight into the database: saving 100,000
  through the API would take the run's time), a list change that bans a card every one
  of them holds (so the pass must judge them all), then `flask decks rejudge` as the
  background runs it (its own processes, one per core, nice 10), timed, while the same 4 validate
  clients run: their p99 during the pass against the quiet one.

Must (issue 34): save <= 20 ms, read <= 5 ms, the pass <= 120 s for 100,000 decks,
validate p99 during the pass <= 2x quiet.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
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

from common import (  # noqa: E402
    DECK_55,
    ROOT,
    events_database,
    free_port,
    full_database,
    postgres_for,
    start_server,
)

CLIENTS = 4
PACE = 0.05  # each client sends at most one request per PACE seconds: 80 requests/s
QUIET_SECONDS = 20
SEED_CHUNK = 5000
BANNED = "EX9-013"  # BlitzGreymon: 4 copies in the 55-card list


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def validating(base: str, stop: threading.Event, times: list[float]) -> list[threading.Thread]:
    """CLIENTS threads validating the 55-card list until `stop` (keep-alive sessions), each
    at most one request per PACE seconds: normal traffic, not a flood (a flood would leave
    a low-priority pass no time at all, and time nothing but the queue)."""
    body = {"format": "dcg", "decklist": DECK_55}

    def client() -> None:
        session = requests.Session()
        while not stop.is_set():
            started = time.perf_counter()
            response = session.post(f"{base}/api/v1/decks/validate", json=body, timeout=30)
            elapsed = time.perf_counter() - started
            if response.status_code != 200:
                sys.exit(f"validate: {response.status_code}")
            times.append(elapsed)
            stop.wait(max(0.0, PACE - elapsed))

    threads = [threading.Thread(target=client, daemon=True) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    return threads


def validate_p99(base: str, seconds: float) -> tuple[float, int]:
    stop, times = threading.Event(), []
    threads = validating(base, stop, times)
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    return p99(times), len(times)


def median_ms(call, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = call()
        times.append(time.perf_counter() - started)
        assert response.status_code in (200, 201), response.text[:300]
    return statistics.median(times) * 1000


def seed(env: dict, template_id: str, count: int) -> None:
    """`count` copies of a saved deck, written straight into the events database (each its
    own id, token hash and cards), in transactions of SEED_CHUNK."""
    from deckcheck import create_app
    from deckcheck.decks.core import store
    from deckcheck.server.tables.decks import deck_cards, deck_versions, decks

    app = create_app(
        {
            "DATABASE": env["DECKCHECK_DATABASE"],
            "SEED_STARTER_POOL": False,
            "EVENTS_DATABASE": env["DECKCHECK_EVENTS_DATABASE"],
            "TESTING": True,
        }
    )
    with app.app_context():
        engine = store().engine
        with engine.begin() as conn:
            deck = dict(
                conn.execute(decks.select().where(decks.c.id == template_id)).one()._mapping
            )
            version = dict(
                conn.execute(deck_versions.select().where(deck_versions.c.deck_id == template_id))
                .one()._mapping
            )  # fmt: skip
            numbers = [r.number for r in conn.execute(
                deck_cards.select().where(deck_cards.c.deck_id == template_id))]  # fmt: skip
        for start in range(0, count, SEED_CHUNK):
            ids = [secrets.token_urlsafe(9) for _ in range(min(SEED_CHUNK, count - start))]
            with engine.execution_options(write=True).begin() as conn:
                conn.execute(decks.insert(), [{**deck, "id": i, "edit_hash": i} for i in ids])
                conn.execute(deck_versions.insert(), [{**version, "deck_id": i} for i in ids])
                conn.execute(
                    deck_cards.insert(), [{"deck_id": i, "number": n} for i in ids for n in numbers]
                )


def ban_everywhere(env: dict, folder: Path) -> None:
    """Import the shipped DCG lists with BANNED banned from yesterday."""
    from datetime import UTC, datetime, timedelta

    from rules.lists import shipped_raw

    raw = shipped_raw()
    yesterday = (datetime.now(UTC).date() - timedelta(days=1)).isoformat()
    raw["changes"].append({"effective": yesterday, "announced": yesterday,
                           "limits": [{"card": BANNED, "status": "banned"}],
                           "sources": ["bench/decks.py: a test-only change"]})  # fmt: skip
    path = folder / "lists.json"
    path.write_text(json.dumps(raw))
    flask = Path(sys.executable).with_name("flask")
    subprocess.run([str(flask), "--app", "deckcheck", "cardpool", "lists", "import", "dcg",
                    str(path)], env=env, cwd=ROOT, check=True, capture_output=True)  # fmt: skip


def run(events_db: str, count: int, nice: int) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="deckcheck-decks-"))
    database = full_database()
    env = {
        **os.environ,
        "DECKCHECK_DATABASE": database,
        "DECKCHECK_EVENTS_DATABASE": events_db,
        "DECKCHECK_FORMATS_DIR": str(folder / "formats"),
        "DECKCHECK_DECKS_CREATE_LIMIT": "0",
        "DECKCHECK_DECKS_REJUDGE_EVERY": "off",
        "DECKCHECK_SECRET_KEY": "bench",
    }
    (folder / "formats").mkdir()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(database, port, 2, production=True, env=env, own_session=True)
    found: dict = {}
    try:
        session = requests.Session()
        body = {"format": "dcg", "name": "Bench", "decklist": DECK_55}
        session.post(f"{base}/api/v1/decks", json=body, timeout=30)  # warm both workers
        found["save ms"] = median_ms(
            lambda: session.post(f"{base}/api/v1/decks", json=body, timeout=30), 200
        )
        saved = session.post(f"{base}/api/v1/decks", json=body, timeout=30).json()["deck"]
        url = f"{base}/api/v1/decks/{saved['id']}"
        found["read ms"] = median_ms(lambda: session.get(url, timeout=30), 300)
        health = f"{base}/api/v1/health"
        found["health ms"] = median_ms(lambda: session.get(health, timeout=30), 300)
        found["quiet p99 ms"], found["quiet requests"] = validate_p99(base, QUIET_SECONDS)
        started = time.perf_counter()
        seed(env, saved["id"], count)
        found["seeded s"] = time.perf_counter() - started
        ban_everywhere(env, folder)
        stop, times = threading.Event(), []
        threads = validating(base, stop, times)
        time.sleep(2)  # the clients at their pace before the pass starts
        flask = Path(sys.executable).with_name("flask")
        started = time.perf_counter()
        out = subprocess.run(
            [str(flask), "--app", "deckcheck", "decks", "rejudge", "--nice", str(nice),
             "--processes", str(min(4, os.cpu_count() or 1))],
            env=env, cwd=ROOT, capture_output=True, text=True, check=True,
        )  # fmt: skip
        found["pass s"] = time.perf_counter() - started
        found["load"] = os.getloadavg()[0]
        stop.set()
        for thread in threads:
            thread.join()
        found["pass"] = out.stdout.strip()
        found["busy p99 ms"], found["busy requests"] = p99(times), len(times)
        found["busy p99 ms"] *= 1000
        found["quiet p99 ms"] *= 1000
        after = session.get(url, timeout=30).json()
        found["deck after"] = (after["legal"], after["changed"], after["violations"][0]["code"])
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--decks", type=int, default=100_000)
    parser.add_argument("--postgres", help="a fresh PostgreSQL URL, or auto")
    parser.add_argument("--nice", type=int, default=10, help="the pass's priority (as served)")
    args = parser.parse_args()
    with postgres_for(args.postgres) as pg:
        found = run(events_database(args.postgres, pg), args.decks, args.nice)
    print(f"saving a deck: median {found['save ms']:.1f} ms (must <= 20)")
    print(f"reading a current deck: median {found['read ms']:.1f} ms (must <= 5); "
          f"the health check, for the floor: {found['health ms']:.1f} ms")  # fmt: skip
    print(f"the pass over {args.decks:,} decks: {found['pass s']:.1f} s (must <= 120)")
    print(f"  flask decks rejudge: {found['pass']}")
    ratio = found["busy p99 ms"] / found["quiet p99 ms"]
    print(f"validate p99: quiet {found['quiet p99 ms']:.1f} ms ({found['quiet requests']} "
          f"requests), during the pass {found['busy p99 ms']:.1f} ms ({found['busy requests']}): "
          f"{ratio:.2f}x (must <= 2)")  # fmt: skip
    print(f"load average (1 min) at the end of the pass: {found['load']:.1f} on "
          f"{os.cpu_count()} cores; the pass ran at nice {args.nice}")  # fmt: skip
    print(f"seeding {args.decks:,} decks took {found['seeded s']:.0f} s; a deck after: "
          f"{found['deck after']}")  # fmt: skip


if __name__ == "__main__":
    main()
