"""An acknowledged submission survives a killed server, whole; none is ever half.

The README's production server (gunicorn with gunicorn.conf.py) takes submissions
from 8 concurrent clients; part-way the whole process group gets SIGKILL (no
shutdown, no flush); after a restart every submission that got a 201 is there with
exactly the list that was sent, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import requests
import starter
from conftest import ROOT
from fixture_cards import ST1_TEXT
from production_server import free_port, until, wait_for, worker_pids

CLIENTS, TOTAL, KILL_AFTER = 8, 200, 70


def _start(env: dict) -> subprocess.Popen:
    gunicorn = Path(sys.executable).parent / "gunicorn"
    config = ROOT / "gunicorn.conf.py"
    args = ["-c", str(config)] if config.exists() else ["-w", "2", "--threads", "4"]
    process = subprocess.Popen(
        [str(gunicorn), *args, "wsgi:app"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(f"http://{env['DECKCHECK_BIND']}")
    except AssertionError:
        os.killpg(process.pid, signal.SIGKILL)
        raise
    return process


def _kill(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)


def _server_env(tmp_path, events_database: str, port: int) -> dict[str, str]:
    """The production server's settings: 2 workers of 4 threads, no submission limit."""
    starter.copy_into(tmp_path, {"EVENTS_DATABASE": events_database})
    return {
        **os.environ,
        "DECKCHECK_DATABASE": str(tmp_path / "cards.db"),
        "DECKCHECK_FORMATS_DIR": str(tmp_path / "formats"),
        "DECKCHECK_EVENTS_DATABASE": events_database,
        "DECKCHECK_EVENTS_SUBMIT_LIMIT": "0",
        "DECKCHECK_SECRET_KEY": "durability",
        "DECKCHECK_BIND": f"127.0.0.1:{port}",
        "DECKCHECK_GUNICORN_WORKERS": "2",
        "DECKCHECK_GUNICORN_THREADS": "4",
        **starter.SERVER_ENV,
    }


def _deck(n: int) -> str:
    # A distinct, legal-sized list per submission: ST1 plus a counted marker line.
    return ST1_TEXT + f"\n// submission {n}\n"


def test_acknowledged_submissions_survive_sigkill(events_database, tmp_path):
    port = free_port()
    env = _server_env(tmp_path, events_database, port)
    base = f"http://127.0.0.1:{port}/api/v1/events"
    server = _start(env)
    try:
        created = requests.post(
            base,
            json={"name": "Kill", "format": "dcg", "date": "2021-01-01",
                  "deadline": "2099-01-01T00:00:00Z"},
            timeout=10,
        ).json()  # fmt: skip
        acknowledged: dict[str, dict] = {}
        sent: dict[str, str] = {}
        lock = threading.Lock()
        killed = threading.Event()
        statuses: dict[int, int] = {}

        def client(number: int) -> None:
            session = requests.Session()
            for n in range(number, TOTAL, CLIENTS):
                player = f"P{n:03d}"
                with lock:
                    sent[player] = _deck(n)
                try:
                    response = session.post(
                        f"{base}/{created['id']}/submissions",
                        json={"player": player, "decklist": _deck(n)},
                        timeout=30,
                    )
                except requests.RequestException:
                    if killed.is_set():
                        return
                    # Before the kill: a worker still starting (the master accepts before
                    # it is ready) may drop a connection; send again.
                    session = requests.Session()
                    continue
                with lock:
                    statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
                if response.status_code == 201:
                    with lock:
                        acknowledged[player] = response.json()["submission"]
                        if len(acknowledged) >= KILL_AFTER and not killed.is_set():
                            killed.set()
                            _kill(server)

        threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert killed.is_set(), f"the server finished before it could be killed: {statuses}"
    finally:
        if server.poll() is None:
            _kill(server)

    server = _start(env)
    try:
        auth = {"Authorization": "Bearer " + created["admin_token"]}
        rows = requests.get(f"{base}/{created['id']}/submissions", headers=auth, timeout=30)
        stored = {row["player"]: row for row in rows.json()["data"]}
        assert KILL_AFTER <= len(acknowledged) < TOTAL
        for player, receipt in acknowledged.items():
            assert stored[player]["id"] == receipt["id"]
            assert stored[player]["fingerprint"] == receipt["fingerprint"]
        for player, row in stored.items():
            # Present but never acknowledged (in flight at the kill) is allowed; half is not.
            again = requests.post(
                f"http://127.0.0.1:{port}/api/v1/decks/validate",
                json={"format": "dcg", "date": "2021-01-01", "decklist": sent[player]},
                timeout=10,
            ).json()
            assert row["fingerprint"] == again["deck"]["fingerprint"]
            assert row["legal"] is True and row["changed"] is False
    finally:
        _kill(server)


def _sessions(url: str) -> set[int]:
    """The worker pids with a session on the events database (application_name)."""
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT application_name FROM pg_stat_activity WHERE datname = current_database()"
        ).fetchall()
    return {int(name[10:]) for (name,) in rows if name.startswith("deckcheck-")}


def test_submissions_are_acknowledged_within_2_s_after_a_worker_is_killed(postgres, tmp_path):
    """On PostgreSQL, under load, a worker killed at any moment: the next 201 comes within
    2 s. Workers open the store and build their card indexes before they take requests
    (wsgi.py: deckcheck.events.warm), so the one gunicorn starts in place of the dead one
    is ready when it takes its first list; killing the other worker then leaves it alone."""
    database = postgres.database("kill_worker")
    port = free_port()
    env = _server_env(tmp_path, database, port)
    base = f"http://127.0.0.1:{port}/api/v1/events"
    server = _start(env)
    stop = threading.Event()
    acks: list[float] = []
    lock = threading.Lock()
    try:
        until(lambda: set(worker_pids(server)) <= _sessions(database), 90, "a session per worker")
        created = requests.post(
            base,
            json={"name": "Kill", "format": "dcg", "date": "2021-01-01",
                  "deadline": "2099-01-01T00:00:00Z"},
            timeout=10,
        ).json()  # fmt: skip

        def client(number: int) -> None:
            session, n = requests.Session(), 0
            while not stop.is_set():
                n += 1
                body = {"player": f"C{number}-{n}", "decklist": _deck(n)}
                try:
                    response = session.post(
                        f"{base}/{created['id']}/submissions", json=body, timeout=30
                    )
                except requests.RequestException:
                    session = requests.Session()
                    continue
                if response.status_code == 201:
                    with lock:
                        acks.append(time.monotonic())

        threads = [threading.Thread(target=client, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        gaps = []
        for _ in range(2):
            until(lambda: len(acks) > 20 and acks[-1] > time.monotonic() - 1, 90, "steady acks")
            first, *_ = worker_pids(server)
            killed = time.monotonic()
            os.kill(first, signal.SIGKILL)
            until(lambda k=killed: any(a > k for a in acks), 30, "an ack after the kill")
            gaps.append(min(a for a in acks if a > killed) - killed)
            # The replacement is ready once it holds a session; then kill the other one.
            until(
                lambda: (
                    len(worker_pids(server)) == 2
                    and set(worker_pids(server)) <= _sessions(database)
                ),
                90,
                "the replacement worker holding a session",
            )
        stop.set()
        for thread in threads:
            thread.join()
        assert max(gaps) <= 2.0, gaps
    finally:
        stop.set()
        _kill(server)
