"""A saved deck is never lost: the production server takes decks from 8 clients; part-way
the whole process group gets SIGKILL; after a restart every deck that got a 201 is there,
whole, with the list that was sent, on SQLite and on PostgreSQL (as tests/events/
test_durability.py does for submissions)."""

from __future__ import annotations

import threading

import requests
from events.test_durability import _kill, _server_env, _start
from fixture_cards import ST1_TEXT
from production_server import free_port

CLIENTS, TOTAL, KILL_AFTER = 8, 200, 70


def _deck(n: int) -> str:
    return ST1_TEXT + f"\n// deck {n}\n"


def test_acknowledged_decks_survive_sigkill(events_database, tmp_path):
    port = free_port()
    env = {**_server_env(tmp_path, events_database, port), "DECKCHECK_DECKS_CREATE_LIMIT": "0"}
    base = f"http://127.0.0.1:{port}/api/v1/decks"
    server = _start(env)
    acknowledged: dict[int, dict] = {}
    lock = threading.Lock()
    killed = threading.Event()
    try:

        def client(number: int) -> None:
            session = requests.Session()
            for n in range(number, TOTAL, CLIENTS):
                body = {"format": "dcg", "name": f"D{n:03d}", "decklist": _deck(n)}
                try:
                    response = session.post(base, json=body, timeout=30)
                except requests.RequestException:
                    if killed.is_set():
                        return
                    session = requests.Session()
                    continue
                if response.status_code == 201:
                    with lock:
                        acknowledged[n] = response.json()
                        if len(acknowledged) >= KILL_AFTER and not killed.is_set():
                            killed.set()
                            _kill(server)

        threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert killed.is_set(), "the server finished before it could be killed"
    finally:
        if server.poll() is None:
            _kill(server)

    server = _start(env)
    try:
        assert KILL_AFTER <= len(acknowledged) < TOTAL
        ids = [saved["deck"]["id"] for saved in acknowledged.values()]
        found = requests.post(f"{base}/lookup", json={"ids": ids}, timeout=30).json()
        assert found["not_found"] == []
        for n, saved in acknowledged.items():
            deck_id = saved["deck"]["id"]
            deck = requests.get(f"{base}/{deck_id}", timeout=10).json()
            assert deck["fingerprint"] == saved["deck"]["fingerprint"] and deck["legal"] is True
            version = requests.get(f"{base}/{deck_id}/versions/1", timeout=10).json()
            assert version["decklist"] == _deck(n)  # whole: the list that was sent
            token = {"Authorization": "Bearer " + saved["edit_token"]}
            edited = requests.put(
                f"{base}/{deck_id}", json={"decklist": ST1_TEXT}, headers=token, timeout=10
            )
            assert edited.status_code == 200, edited.text  # its token still holds
    finally:
        _kill(server)
