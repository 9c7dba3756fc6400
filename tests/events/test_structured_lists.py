"""A submission keeps its structured list (deckcheck.server.verdicts): read once when it
is sent, judged from that ever after, with the verdict re-reading the text would give;
a row stored before (migration 0011) is read once by its first judging, on SQLite and
PostgreSQL."""

from __future__ import annotations

import json
import sqlite3
from datetime import date

import pytest
import sqlalchemy as sa
from alembic import command
from conftest import new_app
from event_requests import admin_auth, create_event
from fixture_cards import ST1_DECK, ST1_TEXT

from deckcheck import service
from deckcheck.events.store import EventStore
from deckcheck.server import verdicts
from deckcheck.server.migrate import alembic_config, upgrade
from deckcheck.server.packing import pack, unpack

LISTS = {
    "Ann": {"decklist": ST1_TEXT},
    # A line naming no card: an unknown-card problem on its line, and an unread line.
    "Ben": {"decklist": ST1_TEXT + "\n2 Notacardmon Zzz"},
    # Names that are not the numbers' cards: name-mismatch warnings naming lines 1, 2.
    "Cho": {"decklist": "4 Agumon ST1-05\n4 ST1-06 Greymon\n"},
    "Dee": {"deck": {**ST1_DECK, "main": [*ST1_DECK["main"], {"card": "zzz", "count": 2}]}},
    "Eve": {"decklist": json.dumps(["Exported from test", *["ST1-03"] * 4, *["ST1-02"] * 4])},
}


def _send_all(client) -> dict:
    event = create_event(client)
    for player, entry in LISTS.items():
        assert (
            client.post(
                f"/api/v1/events/{event['id']}/submissions", json={"player": player, **entry}
            ).status_code
            == 201
        )
    return event


def _table(client, event) -> dict[str, dict]:
    response = client.get(f"/api/v1/events/{event['id']}/submissions", headers=admin_auth(event))
    assert response.status_code == 200
    return {row["player"]: row for row in response.get_json()["data"]}


def _new_pool(tmp_path) -> None:
    """What an import does to the pool's row: a new generation, every list judged again."""
    conn = sqlite3.connect(tmp_path / "cards.db")
    with conn:
        conn.execute("UPDATE pools SET generation = generation + 1 WHERE game = 'dcg'")
    conn.close()


def _structured(url: str) -> dict[str, str | None]:
    store = EventStore(url)
    try:
        with store.engine.begin() as conn:
            rows = conn.execute(sa.text("SELECT player, structured FROM submissions")).all()
    finally:
        store.close()
    return dict(rows)


def _app(tmp_path, url):
    return new_app(tmp_path, EVENTS_DATABASE=url, POOL_CHECK_SECONDS=0)


def _close(app) -> None:
    app.extensions["deckcheck.events"].close()


def _reads(monkeypatch) -> list[dict]:
    """The lists read from what the player sent (a spy on the one function that reads)."""
    seen: list[dict] = []
    real = verdicts.read

    def spy(fmt, entry, *args, **kwargs):
        seen.append(entry)
        return real(fmt, entry, *args, **kwargs)

    monkeypatch.setattr(verdicts, "read", spy)
    return seen


def test_a_row_stored_before_is_read_once_and_judged_the_same(
    events_database, tmp_path, monkeypatch
):
    app = _app(tmp_path, events_database)
    event = _send_all(app.test_client())
    before = _table(app.test_client(), event)
    _close(app)
    assert all(_structured(events_database).values())
    # The rows as a server before migration 0011 left them: no structured list.
    old = EventStore(events_database)
    try:
        config = alembic_config()
        with old.engine.connect() as conn:
            config.attributes["connection"] = conn
            command.downgrade(config, "0010_version_verdicts")
            conn.commit()
        upgrade(old.engine)
    finally:
        old.close()
    assert set(_structured(events_database).values()) == {None}

    _new_pool(tmp_path)
    reads = _reads(monkeypatch)
    app = _app(tmp_path, events_database)
    assert _table(app.test_client(), event) == before
    assert len(reads) == len(LISTS)  # each read once, by its first judging
    _close(app)
    filled = _structured(events_database)
    assert all(filled.values())

    _new_pool(tmp_path)
    reads.clear()
    app = _app(tmp_path, events_database)
    assert _table(app.test_client(), event) == before
    assert reads == []  # judged again from what was stored, not read again
    _close(app)
    assert _structured(events_database) == filled


def test_the_stored_structured_list_is_what_is_judged(events_database, tmp_path):
    app = _app(tmp_path, events_database)
    client = app.test_client()
    event = _send_all(client)
    before = _table(client, event)
    assert before["Ann"]["legal"] and not before["Ben"]["legal"]
    store = app.extensions["deckcheck.events"]
    kept = _structured(events_database)
    with store.engine.begin() as conn:
        swap = sa.text("UPDATE submissions SET structured = :s, entry = :e WHERE player = :p")
        # Ann's row gets Ben's structured list, Ben's gets Ann's; the texts say nothing.
        nothing = json.dumps({"decklist": "60 Nothing At All"})
        conn.execute(swap, {"s": kept["Ben"], "e": nothing, "p": "Ann"})
        conn.execute(swap, {"s": kept["Ann"], "e": nothing, "p": "Ben"})
    _new_pool(tmp_path)
    after = _table(client, event)
    assert after["Ann"]["violations"] == before["Ben"]["violations"]
    assert after["Ann"]["unresolved"] == before["Ben"]["unresolved"]
    assert after["Ann"]["changed"] and not after["Ann"]["legal"]
    assert after["Ben"]["legal"] and after["Ben"]["violations"] == []
    _close(app)


@pytest.mark.parametrize("player", sorted(LISTS))
def test_judged_from_the_structured_list_as_from_the_text(app, player):
    """Line numbers, reading notes, unread lines, fingerprint and style: all as read."""
    entry = LISTS[player]
    with app.app_context():
        fmt = service.find_format("dcg")
        text = service.check(fmt, service.as_payload(entry), date(2021, 1, 1))
        report, structured = verdicts.read(fmt, entry, date(2021, 1, 1))
        again = verdicts.judge(fmt, unpack(pack(structured)), date(2021, 1, 1))
    assert verdicts.verdict_json(again) == verdicts.verdict_json(text)
    assert verdicts.verdict_json(report) == verdicts.verdict_json(text)
    assert (again.fingerprint, again.style, again.legal) == (
        text.fingerprint,
        text.style,
        text.legal,
    )
    assert verdicts.structured_of(again) == {k: v for k, v in structured.items() if k != "read"}


def test_a_reading_kept_in_another_shape_is_read_again(events_database, tmp_path):
    app = _app(tmp_path, events_database)
    client = app.test_client()
    event = _send_all(client)
    before = _table(client, event)
    store = app.extensions["deckcheck.events"]
    kept = _structured(events_database)
    other = unpack(kept["Ben"])
    other["read"]["shape"] = "older"
    other["read"]["lines"] = [["not", "a", "line"]]  # would fail to build: never used
    with store.engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE submissions SET structured = :s WHERE player = 'Ben'"),
            {"s": pack(other)},
        )
    _new_pool(tmp_path)
    assert _table(client, event) == before
    _close(app)
    assert unpack(_structured(events_database)["Ben"]) == unpack(kept["Ben"])  # kept anew
