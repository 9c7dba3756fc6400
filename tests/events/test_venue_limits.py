"""Limits that fit a venue (issue 44), on SQLite and PostgreSQL: 300 players from one
address all get in, a script inventing names from it is stopped at 400, one player
sending again and again is stopped at 20 a minute; an organizer can raise the two
per-address limits of their event, never lower them."""

from __future__ import annotations

import threading
import time

import pytest
from event_requests import admin_auth, create_event

VENUE = {"REMOTE_ADDR": "198.51.100.44"}


def _send(client, event, player, headers=None, **extra):
    return client.post(
        f"/api/v1/events/{event['id']}/submissions",
        json={"player": player, "decklist": "4 Koromon ST1-01", **extra},
        environ_base=VENUE,
        headers=headers or {},
    )


def test_300_players_from_one_address_all_get_in(both_client):
    event = create_event(both_client)
    statuses = [_send(both_client, event, f"Player {n}").status_code for n in range(300)]
    assert statuses == [201] * 300


def test_a_script_inventing_names_is_stopped_at_400(both_client):
    event = create_event(both_client)
    started = time.monotonic()
    statuses = [_send(both_client, event, f"Bot {n}").status_code for n in range(400)]
    assert statuses == [201] * 400
    # Then stopped: at once, or after the one new name every 1.5 s that the bucket
    # refills (400 per 600 s) while a slow machine sent the 400.
    refilled = (time.monotonic() - started) * 400 / 600
    # The refusal is read from the request refused: another request sent after it could
    # find a new name's worth refilled on a busy machine (a suite run under load did).
    more = 0
    while (answer := _send(both_client, event, f"Bot {400 + more}")).status_code == 201:
        more += 1
        assert more <= refilled + 1
    refused = answer.get_json()["error"]
    assert refused["code"] == "too-many-new-players"
    assert refused["details"] == {"limit": 400, "seconds": 600}
    # A player already in still replaces their list; another address still sends.
    assert _send(both_client, event, "Bot 1", admin_auth(event)).status_code == 201
    other = both_client.post(
        f"/api/v1/events/{event['id']}/submissions",
        json={"player": "Carol", "decklist": "4 Koromon ST1-01"},
        environ_base={"REMOTE_ADDR": "203.0.113.9"},
    )
    assert other.status_code == 201


def test_one_player_hammering_is_stopped_at_20_a_minute(both_client):
    event = create_event(both_client)
    first = _send(both_client, event, "Hammer")
    token = first.get_json()["edit_token"]
    again = [_send(both_client, event, "hammer", edit_token=token).status_code for _ in range(20)]
    assert again == [201] * 19 + [429]
    error = _send(both_client, event, "Hammer", edit_token=token).get_json()["error"]
    assert error["code"] == "too-many-submissions" and error["details"]["limit"] == 20
    # Others at the same address are not held up by one player's 20.
    assert _send(both_client, event, "Someone else").status_code == 201


def test_a_refused_request_takes_from_no_bucket(both_client):
    app = both_client.application
    app.config["EVENTS_ADDRESS_LIMIT"] = (3, 600)
    app.config["EVENTS_NEW_PLAYERS_LIMIT"] = (2, 600)
    event = create_event(both_client)
    tokens = [_send(both_client, event, f"P{n}").get_json()["edit_token"] for n in range(2)]
    refused = _send(both_client, event, "P2").get_json()["error"]
    assert refused["code"] == "too-many-new-players"
    # Refused by the new-players bucket, it took nothing from the address's: a known
    # player's new list is the third of three, and only then is the address full.
    assert _send(both_client, event, "P0", edit_token=tokens[0]).status_code == 201
    full = _send(both_client, event, "P1", edit_token=tokens[1]).get_json()["error"]
    assert full["code"] == "too-many-submissions" and full["details"]["limit"] == 3


def test_simultaneous_new_players_pass_the_ceiling_no_more_than_it_allows(both_client):
    app = both_client.application
    app.config["EVENTS_NEW_PLAYERS_LIMIT"] = (10, 600)
    event = create_event(both_client)
    barrier = threading.Barrier(24)
    statuses: list[int] = []

    def send(n: int) -> None:
        client = app.test_client()
        barrier.wait()
        statuses.append(_send(client, event, f"Racer {n}").status_code)

    threads = [threading.Thread(target=send, args=(n,)) for n in range(24)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201] * 10 + [429] * 14


def test_an_organizer_raises_the_per_address_limits(both_client):
    app = both_client.application
    app.config["EVENTS_NEW_PLAYERS_LIMIT"] = (3, 600)
    venue = {"address_limit": "1000/600", "new_players_limit": "5/600"}
    event = create_event(both_client, venue=venue)
    got = both_client.get(f"/api/v1/events/{event['id']}").get_json()
    assert got["venue"] == venue
    assert [_send(both_client, event, f"P{n}").status_code for n in range(6)] == [201] * 5 + [429]
    base = f"/api/v1/events/{event['id']}"
    raised = both_client.patch(
        base, json={"venue": {"new_players_limit": "50/600"}}, headers=admin_auth(event)
    )
    assert raised.status_code == 200 and raised.get_json()["venue"]["new_players_limit"] == "50/600"
    assert _send(both_client, event, "P6").status_code == 201


@pytest.mark.parametrize(
    "venue", [{"new_players_limit": "1/600"}, {"address_limit": "0"}, {"address_limit": "lots"},
              {"new_players_limit": "3/6000"}, "1000/600"],
)  # fmt: skip
def test_a_limit_can_only_be_raised(both_client, venue):
    app = both_client.application
    app.config["EVENTS_NEW_PLAYERS_LIMIT"] = (3, 600)
    event = create_event(both_client)
    response = both_client.patch(
        f"/api/v1/events/{event['id']}", json={"venue": venue}, headers=admin_auth(event)
    )
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "invalid-request"
    created = both_client.post(
        "/api/v1/events",
        json={"name": "Cup", "format": "dcg", "deadline": "2099-01-01T00:00:00Z", "venue": venue},
    )
    assert created.status_code == 422


def test_changing_the_limits_takes_the_admin_token(both_client):
    event = create_event(both_client)
    response = both_client.patch(
        f"/api/v1/events/{event['id']}", json={"venue": {"address_limit": "900/600"}}
    )
    assert response.status_code == 401


def test_after_a_bucket_the_next_commit_waits_for_the_disk_again(tmp_path):
    """Buckets commit with synchronous=NORMAL (SQLite); a list's commit must not."""
    from deckcheck.events.limits import Bucket
    from deckcheck.events.store import EventStore

    store = EventStore(str(tmp_path / "e.db"))
    store.migrate()
    try:
        assert store.take_all([Bucket("k", 1, 60, "", "")], 1000.0) is None
        refused = store.take_all([Bucket("k", 1, 60, "c", "")], 1000.0)
        assert refused is not None and refused.code == "c"
        with store.engine.connect() as conn:  # the pool's one connection, used above
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    finally:
        store.close()


def test_a_bucket_does_not_relax_the_commits_after_it_on_postgresql(postgres):
    """synchronous_commit off holds for the buckets' transaction only (SET LOCAL)."""
    from deckcheck.events.limits import Bucket
    from deckcheck.events.store import EventStore

    url = postgres.fresh_database()
    store = EventStore(url)
    store.migrate()
    try:
        assert store.take_all([Bucket("k", 1, 60, "", "")], 1000.0) is None
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("SHOW synchronous_commit").scalar() == "on"
    finally:
        store.close()
        postgres.drop_later(url)
