"""DECKCHECK_SYNC_EVERY: the production server (gunicorn, two workers) syncs its upstream in
the background. A real HTTP server on 127.0.0.1 serves a card list, then a changed one,
then fails; the running service picks up the change, records each outcome, and keeps the
previous pool when the upstream fails."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
import requests
import starter
from conftest import ROOT
from production_server import free_port, until

from cardpool.db import connect
from cardpool.freshness import record_sync
from cardpool.syncing import BackgroundSync, parse_every, sync_lock
from deckcheck import create_app

LIST_A = [
    {"cardId": "BT1-010", "set": "BT1", "nameEn": "Agumon", "kinds": ["Digimon"], "level": 3},
    {"cardId": "BT1-011", "set": "BT1", "nameEn": "Greymon", "kinds": ["Digimon"], "level": 4},
]
LIST_B = [*LIST_A, {"cardId": "EX13-001", "set": "EX13", "nameEn": "Newmon", "kinds": ["Digimon"]}]


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("", None), ("10s", 10), ("15m", 900), ("2h", 7200), ("1d", 86400), ("7d", 604800)],
)
def test_intervals(text, seconds):
    assert parse_every(text) == seconds


@pytest.mark.parametrize(("floor", "text", "seconds"), [("1", "1s", 1), ("10", "10s", 10)])
def test_the_floor_lowers_the_shortest_interval(monkeypatch, floor, text, seconds):
    monkeypatch.setenv("DECKCHECK_SYNC_EVERY_FLOOR", floor)
    assert parse_every(text) == seconds


@pytest.mark.parametrize("floor", ["0", "11", "1.5", "x", "01"])
def test_a_floor_outside_1_to_10_stops_the_start(monkeypatch, floor):
    monkeypatch.setenv("DECKCHECK_SYNC_EVERY_FLOOR", floor)
    with pytest.raises(ValueError, match="DECKCHECK_SYNC_EVERY_FLOOR"):
        parse_every("1d")


@pytest.mark.parametrize("text", ["9s", "8d", "1", "1w", "1.5h", "-1h", "0s", "1d2h", "x"])
def test_a_bad_interval_stops_the_start(monkeypatch, tmp_path, text):
    monkeypatch.delenv("DECKCHECK_SYNC_EVERY_FLOOR", raising=False)
    monkeypatch.setenv("DECKCHECK_SYNC_EVERY", text)
    with pytest.raises(ValueError, match="DECKCHECK_SYNC_EVERY"):
        create_app({"TESTING": True, "DATABASE": str(tmp_path / "c.db")})


def test_only_one_process_syncs_at_a_time(tmp_path):
    database = str(tmp_path / "cards.db")
    with sync_lock(database) as first:
        assert first is True
        other = BackgroundSync(database, 10, {"dcg": "http://127.0.0.1:9/never"})
        assert other.run_if_due() == []  # the lock is held: nothing is done, nothing fetched
    with sync_lock(database) as again:
        assert again is True


def test_a_recent_sync_is_not_due(tmp_path):
    database = str(tmp_path / "cards.db")
    db = connect(database)
    record_sync(db, "dcg", "ok", "imported 2 cards")
    sync = BackgroundSync(database, 3600, {"dcg": "http://127.0.0.1:9/never"})
    assert sync.due(db) == []
    later = BackgroundSync(
        database,
        3600,
        {"dcg": "http://127.0.0.1:9/never"},
        clock=lambda: datetime.now(UTC) + timedelta(hours=2),
    )
    assert [key for key, *_ in later.due(db)] == ["dcg"]


def dcg(base: str) -> dict:
    data = requests.get(f"{base}/api/v1/pools", timeout=5).json()["data"]
    return next(entry for entry in data if entry["game"] == "dcg")


def test_a_running_server_picks_up_a_changed_list(tmp_path, httpserver):
    state = {"list": LIST_A, "etag": '"a"', "status": 200}
    asked = []

    def answer(request):
        from werkzeug.wrappers import Response

        asked.append(request.headers.get("If-None-Match"))
        if state["status"] != 200:
            return Response("upstream down", status=state["status"])
        if request.headers.get("If-None-Match") == state["etag"]:
            return Response("", status=304, headers={"ETag": state["etag"]})
        return Response(json.dumps(state["list"]), headers={"ETag": state["etag"]})

    httpserver.expect_request("/cards.json").respond_with_handler(answer)
    port = free_port()
    env = {
        **os.environ,
        "DECKCHECK_DATABASE": str(tmp_path / "cards.db"),
        # A 1 s interval (a test-only floor) sees three syncs in seconds, not 30 s.
        "DECKCHECK_SYNC_EVERY": "1s",
        "DECKCHECK_SYNC_EVERY_FLOOR": "1",
        "DECKCHECK_SYNC_URLS": f"dcg={httpserver.url_for('/cards.json')}",
        "DECKCHECK_BIND": f"127.0.0.1:{port}",
        "DECKCHECK_GUNICORN_WORKERS": "2",
        "DECKCHECK_GUNICORN_THREADS": "4",
        **starter.SERVER_ENV,
    }
    env.pop("DECKCHECK_LISTS_URL", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "wsgi:app"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        # A first request starts each worker's sync thread; the first sync is due at once.
        first = until(lambda: dcg(base)["cards"] == 2 and dcg(base), 30, "list A served")
        assert first["last_sync"]["result"] == "ok" and first["newest_sets"] == ["BT1"]

        state.update(list=LIST_B, etag='"b"')
        changed = until(lambda: dcg(base)["cards"] == 3 and dcg(base), 30, "list B served")
        assert changed["newest_sets"] == ["BT1", "EX13"]
        body = {"format": "dcg", "deck": {"main": [{"card": "EX13-001", "count": 1}]}}

        def known():
            report = requests.post(f"{base}/api/v1/decks/validate", json=body, timeout=5).json()
            return not [v for v in report["violations"] if v["code"] == "unknown-card"]

        until(known, 5, "EX13-001 known to every worker")

        state["status"] = 500
        failed = until(
            lambda: dcg(base)["last_sync"]["result"] == "failed" and dcg(base), 40, "a failure"
        )
        assert failed["cards"] == 3 and "HTTP 500" in failed["last_sync"]["message"]
        assert known()
        # Never two syncs at once, and an unchanged list was asked with its ETag.
        assert '"b"' in asked or '"a"' in asked
    finally:
        server.terminate()
        _, errors = server.communicate(timeout=30)
    assert "Traceback" not in errors, errors
