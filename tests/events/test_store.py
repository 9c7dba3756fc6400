"""The events store on SQLite and on a real PostgreSQL: the same behaviour on both."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from deckcheck.events.store import (
    CURRENT,
    REPLACED,
    EventLocked,
    EventStore,
    NewSubmission,
    player_key,
)

FAR = "2099-01-01T00:00:00.000000+00:00"


@pytest.fixture
def store(events_database):
    opened = EventStore(events_database)
    opened.migrate()
    yield opened
    opened.close()


def _event(store, deadline_utc=FAR):
    row, token = store.create_event(
        {
            "name": "Cup",
            "format": "dcg",
            "date": "2021-01-01",
            "deadline": deadline_utc,
            "deadline_utc": deadline_utc,
            "description": "",
        }
    )
    return row["id"], token


def _sub(player="Alice", player_id="", text="4 ST1-03", client="c1") -> NewSubmission:
    return NewSubmission(
        player=player,
        player_id=player_id,
        entry={"decklist": text},
        fingerprint="sha256:" + "0" * 64,
        legal=False,
        verdict={"violations": [], "warnings": []},
        client=client,
    )


def test_migrations_run_twice_and_token_is_stored_as_a_hash(store):
    store.migrate()
    event_id, token = _event(store)
    row = store.event(event_id)
    assert token not in str(row)
    assert EventStore.token_matches(row, token) and not EventStore.token_matches(row, token + "x")


def test_same_player_replaces_and_history_is_kept(store):
    event_id, _ = _event(store)
    first = store.submit(event_id, _sub("Alice", "77", "4 ST1-03"))
    second = store.submit(event_id, _sub("alice renamed", "77", "4 ST1-02"))
    store.submit(event_id, _sub("Bob"))
    store.submit(event_id, _sub("  BOB "))  # same name, any case and spacing
    current = store.current(event_id)
    assert [(r["player"], r["seq"]) for r in current] == [("alice renamed", 2), ("  BOB ", 2)]
    history = store.history(event_id, player_key("x", "77"))
    assert [(h["id"], h["status"]) for h in history] == [
        (first["id"], REPLACED),
        (second["id"], CURRENT),
    ]
    assert store.players(event_id) == 2


def test_lock_and_deadline_refuse_lists(store):
    event_id, _ = _event(store)
    store.update_event(event_id, locked=True)
    with pytest.raises(EventLocked):
        store.submit(event_id, _sub())
    store.update_event(event_id, locked=False)
    store.submit(event_id, _sub())
    past, _ = _event(store, "2000-01-01T00:00:00.000000+00:00")
    with pytest.raises(EventLocked):
        store.submit(past, _sub())


def test_drop_keeps_history_and_frees_the_player(store):
    event_id, _ = _event(store)
    sub = store.submit(event_id, _sub("Alice"))
    assert store.drop(event_id, sub["id"]) and not store.drop(event_id, sub["id"])
    assert store.current(event_id) == [] and store.submission(event_id, sub["id"])
    again = store.submit(event_id, _sub("Alice"))
    assert [r["id"] for r in store.current(event_id)] == [again["id"]]


def test_delete_event_removes_everything(store):
    event_id, _ = _event(store)
    other, _ = _event(store)
    sub = store.submit(event_id, _sub())
    store.drop(event_id, sub["id"])
    store.submit(other, _sub())
    assert store.delete_event(event_id) and not store.delete_event(event_id)
    assert store.event(event_id) is None and store.history(event_id, player_key("Alice", "")) == []
    assert len(store.current(other)) == 1


def test_rate_count_per_event_and_address(store):
    event_id, _ = _event(store)
    for _ in range(3):
        store.submit(event_id, _sub(client="a"))
    store.submit(event_id, _sub("Bob", client="b"))
    assert store.recent_from(event_id, "a", "2000-01-01") == 3
    assert store.recent_from(event_id, "a", FAR) == 0


def test_concurrent_writers_leave_one_current_list_per_player(store):
    event_id, _ = _event(store)
    errors = []

    def send(n: int) -> None:
        try:
            for i in range(10):
                store.submit(event_id, _sub(f"P{i % 3}", text=f"{n} {i}"))
        except Exception as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=send, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sorted(r["player"] for r in store.current(event_id)) == ["P0", "P1", "P2"]
    assert len(store.history(event_id, player_key("P0", ""))) == 6 * 4


def test_sqlite_is_in_wal_with_full_sync(tmp_path):
    store = EventStore(str(tmp_path / "e.db"))
    store.migrate()
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    store.close()


def test_backup_copies_a_sqlite_store(tmp_path):
    store = EventStore(str(tmp_path / "e.db"))
    store.migrate()
    event_id, _ = _event(store)
    store.submit(event_id, _sub())
    store.backup(str(tmp_path / "copy.db"))
    copy = sqlite3.connect(tmp_path / "copy.db")
    assert copy.execute("SELECT count(*) FROM submissions").fetchone() == (1,)
    copy.close()
    store.close()
