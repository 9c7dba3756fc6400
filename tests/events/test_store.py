"""The events store on SQLite and on a real PostgreSQL: the same behaviour on both."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from deckcheck.events.store import (
    CURRENT,
    REPLACED,
    Claim,
    EventFull,
    EventLocked,
    EventStore,
    NewSubmission,
    PlayerDropped,
    PlayerExists,
)
from deckcheck.server.names import player_key

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


def test_same_player_replaces_with_the_token_and_history_is_kept(store):
    event_id, _ = _event(store)
    first, token = store.submit(event_id, _sub("Alice", "77", "4 ST1-03"))
    with pytest.raises(PlayerExists):
        store.submit(event_id, _sub("alice renamed", "77", "4 ST1-02"))
    with pytest.raises(PlayerExists):
        store.submit(event_id, _sub("alice renamed", "77"), Claim(edit_token=token + "x"))
    second, again = store.submit(
        event_id, _sub("alice renamed", "77", "4 ST1-02"), Claim(edit_token=token)
    )
    assert again == token
    _, bob = store.submit(event_id, _sub("Bob"))
    store.submit(event_id, _sub("bob"), Claim(edit_token=bob))  # same name, any case
    current = store.current(event_id)
    assert [(r["player"], r["seq"]) for r in current] == [("alice renamed", 2), ("bob", 2)]
    history = store.history(event_id, player_key("x", "77"))
    assert [(h["id"], h["status"]) for h in history] == [
        (first["id"], REPLACED),
        (second["id"], CURRENT),
    ]
    assert store.players(event_id) == 2
    assert token not in str(history) and all(len(h["edit_hash"]) == 64 for h in history)


def test_the_organizer_replaces_any_list_and_gets_a_new_token(store):
    event_id, _ = _event(store)
    _, token = store.submit(event_id, _sub("Alice"))
    _, new = store.submit(event_id, _sub("Alice", text="4 ST1-02"), Claim(organizer=True))
    assert new != token
    with pytest.raises(PlayerExists):
        store.submit(event_id, _sub("Alice"), Claim(edit_token=token))
    store.submit(event_id, _sub("Alice"), Claim(edit_token=new))


def test_a_full_event_refuses_new_players_but_not_replacements(store):
    event_id, _ = _event(store)
    _, token = store.submit(event_id, _sub("A"), max_players=2)
    store.submit(event_id, _sub("B"), max_players=2)
    with pytest.raises(EventFull):
        store.submit(event_id, _sub("C"), max_players=2)
    store.submit(event_id, _sub("A"), Claim(edit_token=token), max_players=2)
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


def test_a_dropped_player_stays_dropped_until_restored(store):
    event_id, _ = _event(store)
    sub, token = store.submit(event_id, _sub("Alice"))
    assert store.drop(event_id, sub["id"]) and not store.drop(event_id, sub["id"])
    assert store.current(event_id) == [] and store.submission(event_id, sub["id"])
    for claim in (Claim(), Claim(edit_token=token), Claim(organizer=True)):
        with pytest.raises(PlayerDropped):
            store.submit(event_id, _sub("ALICE"), claim)
    assert [d["submission_id"] for d in store.dropped(event_id)] == [sub["id"]]
    assert store.restore(event_id, "nope") is None
    restored = store.restore(event_id, sub["id"])
    assert restored["id"] == sub["id"] and restored["status"] == CURRENT
    assert store.dropped(event_id) == [] and store.restore(event_id, sub["id"]) is None
    again, _ = store.submit(event_id, _sub("Alice"), Claim(edit_token=token))
    assert [r["id"] for r in store.current(event_id)] == [again["id"]]


def test_restore_respects_the_player_cap(store):
    event_id, _ = _event(store)
    sub, _ = store.submit(event_id, _sub("A"))
    store.drop(event_id, sub["id"])
    store.submit(event_id, _sub("B"), max_players=1)
    with pytest.raises(EventFull):
        store.restore(event_id, sub["id"], max_players=1)
    assert store.restore(event_id, sub["id"], max_players=2)["status"] == CURRENT


def test_delete_event_removes_everything(store):
    event_id, _ = _event(store)
    other, _ = _event(store)
    sub, _ = store.submit(event_id, _sub())
    store.drop(event_id, sub["id"])
    store.submit(other, _sub())
    assert store.delete_event(event_id) and not store.delete_event(event_id)
    assert store.event(event_id) is None and store.history(event_id, player_key("Alice", "")) == []
    assert len(store.current(other)) == 1


def test_a_bucket_lets_its_size_through_then_refills(store):
    assert [store.take("k", 3, 60, 1000.0) for _ in range(5)] == [True] * 3 + [False] * 2
    assert store.take("other", 3, 60, 1000.0)  # each key its own bucket
    assert not store.take("k", 3, 60, 1019.0)  # 19 s: 0.95 of a request refilled
    assert store.take("k", 3, 60, 1021.0)  # 21 s: one
    assert not store.take("k", 3, 60, 1021.5)
    assert [store.take("k", 3, 60, 2000.0) for _ in range(4)] == [True] * 3 + [False]


def test_simultaneous_requests_cannot_all_pass_the_limit(store):
    """40 threads at once against a limit of 20: exactly 20 pass (check and count are
    one statement; with a count, then an insert, all 40 passed)."""
    barrier = threading.Barrier(40)
    results: list[bool] = []

    def one() -> None:
        barrier.wait()
        results.append(store.take("burst", 20, 60, 5000.0))

    threads = [threading.Thread(target=one) for _ in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results).count(True) == 20


def test_concurrent_writers_leave_one_current_list_per_player(store):
    event_id, _ = _event(store)
    errors = []

    def send(n: int) -> None:
        try:
            for i in range(10):
                store.submit(event_id, _sub(f"P{i % 3}", text=f"{n} {i}"), Claim(organizer=True))
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
