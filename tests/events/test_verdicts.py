"""Stored verdicts: a list is judged again only when the card pool, the format (its
rules and list history) or the list changed since its verdict was stored, never on a
mere view of the table; and the key that says so is the same in every process."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time

import pytest
from conftest import ROOT
from event_requests import LATER
from fixture_cards import ST1_TEXT

from deckcheck import create_app
from deckcheck.events import verdicts
from deckcheck.server.verdicts.keys import format_digest

HOUSE = 'id = "house"\nname = "House"\nextends = "dcg"\n'


@pytest.fixture
def app(events_database, tmp_path, cards_db):
    (tmp_path / "formats").mkdir()
    (tmp_path / "formats" / "house.toml").write_text(HOUSE)
    made = create_app(
        {
            "TESTING": True,
            "DATABASE": cards_db,
            "FORMATS_DIR": str(tmp_path / "formats"),
            "EVENTS_DATABASE": events_database,
            "SECRET_KEY": "test",
            "POOL_CHECK_SECONDS": 0,
        }
    )
    yield made
    store = made.extensions.get("deckcheck.events")
    if store is not None:
        store.close()


@pytest.fixture
def judged(monkeypatch) -> list[str]:
    """The ids of the lists judged again (a spy on the one function that does it)."""
    seen: list[str] = []
    real = verdicts.rejudged

    def spy(row, *args, **kwargs):
        seen.append(row["id"])
        return real(row, *args, **kwargs)

    monkeypatch.setattr(verdicts, "rejudged", spy)
    return seen


def _table(client, event) -> list[dict]:
    auth = {"Authorization": "Bearer " + event["admin_token"]}
    response = client.get(f"/api/v1/events/{event['id']}/submissions", headers=auth)
    assert response.status_code == 200
    return response.get_json()["data"]


def _event_with_players(client, players: int = 3) -> dict:
    body = {"name": "Cup", "format": "house", "date": "2021-01-01", "deadline": LATER}
    event = client.post("/api/v1/events", json=body).get_json()
    for n in range(players):
        sent = client.post(
            f"/api/v1/events/{event['id']}/submissions",
            json={"player": f"P{n}", "decklist": ST1_TEXT},
        )
        assert sent.status_code == 201
    return event


def test_views_judge_nothing_until_the_format_changes(app, judged, tmp_path):
    client = app.test_client()
    event = _event_with_players(client)
    for _ in range(3):
        rows = _table(client, event)
        assert [r["legal"] for r in rows] == [True] * 3
    assert judged == []
    (tmp_path / "formats" / "house.toml").write_text(HOUSE + 'banned = ["ST1-03"]\n')
    time.sleep(1.1)  # the format folder is looked at again once a second
    rows = _table(client, event)
    assert [(r["legal"], r["changed"]) for r in rows] == [(False, True)] * 3
    assert sorted(judged) == sorted(r["id"] for r in rows)
    judged.clear()
    assert [r["changed"] for r in _table(client, event)] == [True] * 3
    csv = client.get(
        f"/api/v1/events/{event['id']}/submissions.csv",
        headers={"Authorization": "Bearer " + event["admin_token"]},
    ).get_data(as_text=True)
    assert csv.count('"changed"') == 4 and judged == []


def test_a_new_card_pool_judges_every_list_once_again(app, judged, tmp_path):
    client = app.test_client()
    event = _event_with_players(client, 2)
    _table(client, event)
    assert judged == []
    # What an import does to the pool's row: a new generation.
    conn = sqlite3.connect(tmp_path / "cards.db")
    with conn:
        conn.execute("UPDATE pools SET generation = generation + 1 WHERE game = 'dcg'")
    conn.close()
    _table(client, event)
    assert len(judged) == 2
    _table(client, event)
    assert len(judged) == 2


def test_a_verdict_equal_to_the_submitted_one_is_stored_as_nothing(app):
    client = app.test_client()
    event = _event_with_players(client, 1)
    _table(client, event)
    store = app.extensions["deckcheck.events"]
    [row] = store.current(event["id"])
    assert row["judged"] is None and row["judged_legal"] is True and row["judged_key"]


def test_the_key_is_the_same_in_every_process():
    script = (
        "from rules.builtin import BUILT_IN\n"
        "from deckcheck.server.verdicts.keys import format_digest, judge_version\n"
        "print(judge_version(), *(format_digest(f) for f in BUILT_IN.values()))\n"
    )
    runs = {
        subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
        for _ in range(2)
    }
    assert len(runs) == 1


def test_the_digest_sees_the_list_history_and_not_the_caches(tmp_path):
    from dataclasses import replace

    from rules.builtin import BUILT_IN

    dcg = BUILT_IN["dcg"]
    before = format_digest(replace(dcg))
    # Judging fills the checks' caches of the cards they met: not part of the format.
    (tmp_path / "formats").mkdir()
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "cards.db"),
            "FORMATS_DIR": str(tmp_path / "formats"),
            "SECRET_KEY": "test",
        }
    )
    body = {"format": "dcg", "date": "2021-01-01", "decklist": ST1_TEXT}
    assert app.test_client().post("/api/v1/decks/validate", json=body).status_code == 200
    assert format_digest(replace(dcg)) == before
    assert format_digest(replace(dcg, lists=None)) != before
