"""Collections on the production server: adding 10 cards to a 20,000-entry collection,
its per-set completion, and what it can build of 200 saved decks (issue 42).

    .venv/bin/python bench/collections.py [--postgres URL|auto]

The production server (gunicorn -c gunicorn.conf.py wsgi:app, 2 workers) on 127.0.0.1
with the full shared pools; the events database a fresh SQLite file (or PostgreSQL:
`auto` starts one as the tests do). The 20,000-entry collection is written straight
into the database (the DCG list has some 4,400 numbers: the others are their
alternate-art spellings, `BT1-010_P1` ..., which count as their card everywhere); the
200 decks are saved through the API (real lists: the 55-card list and each starter deck).

- add 10: PATCH /api/v1/collections/<id> {"add": <10 lines>}, one client, median of 200;
- sets: GET /api/v1/collections/<id>/sets, median of 50;
- buildable: POST /api/v1/collections/<id>/buildable with the 200 deck ids, median of 30;
- and, for the floor, GET /api/v1/health, median of 200.

Must: add 10 <= 20 ms (aim 5), sets <= 300 ms (aim 50), buildable <= 300 ms (aim 50).
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import (  # noqa: E402
    DECK_55,
    events_database,
    free_port,
    full_database,
    postgres_for,
    start_server,
)

ENTRIES = 20_000
DECKS = 200


def median_ms(call, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = call()
        times.append(time.perf_counter() - started)
        assert response.status_code == 200, response.text[:300]
    return statistics.median(times) * 1000


def seed_collection(env: dict) -> tuple[str, str, list[str]]:
    """(id, token, the DCG numbers): a 20,000-entry collection written by the store."""
    from deckcheck import create_app
    from deckcheck.decks import collection

    app = create_app(
        {
            "DATABASE": env["DECKCHECK_DATABASE"],
            "SEED_STARTER_POOL": False,
            "EVENTS_DATABASE": env["DECKCHECK_EVENTS_DATABASE"],
            "TESTING": True,
        }
    )
    with app.app_context():
        numbers = sorted(collection.pool("dcg").cards)
        cards: dict[str, int] = {}
        for suffix in ("", "_P1", "_P2", "_P3", "_P4", "_P5"):
            for number in numbers:
                if len(cards) < ENTRIES:
                    cards[number + suffix] = 1 + len(cards) % 4
        row, token = collection.store().create("Bench binder", "dcg", cards)
    return row["id"], token, numbers


def save_decks(session: requests.Session, base: str) -> list[str]:
    from deckcheck.decks.products import starter_decks

    lists = [DECK_55] + [
        "\n".join(f"{count} {number}" for number, count in deck["cards"].items())
        for deck in starter_decks().values()
    ]
    ids = []
    for at in range(DECKS):
        body = {"format": "dcg", "name": f"Deck {at}", "decklist": lists[at % len(lists)]}
        answer = session.post(f"{base}/api/v1/decks", json=body, timeout=30)
        assert answer.status_code == 201, answer.text[:300]
        ids.append(answer.json()["deck"]["id"])
    return ids


def run(events_db: str) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="deckcheck-collections-"))
    (folder / "formats").mkdir()
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
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(database, port, 2, production=True, env=env, own_session=True)
    found: dict = {}
    try:
        session = requests.Session()
        cid, token, numbers = seed_collection(env)
        url = f"{base}/api/v1/collections/{cid}"
        auth = {"Authorization": f"Bearer {token}"}
        found["entries"] = session.get(url, timeout=30).json()["entries"]
        ids = save_decks(session, base)
        batches = iter(range(10_000))

        def add_ten():
            at = next(batches) * 10
            text = "\n".join(f"1 {numbers[(at + i) % len(numbers)]}" for i in range(10))
            return session.patch(url, json={"add": text}, headers=auth, timeout=30)

        add_ten()  # warm both workers (the card list, the connection)
        add_ten()
        found["add ms"] = median_ms(add_ten, 200)
        found["sets ms"] = median_ms(lambda: session.get(f"{url}/sets", timeout=30), 50)
        body = {"decks": ids}
        found["buildable ms"] = median_ms(
            lambda: session.post(f"{url}/buildable", json=body, timeout=30), 30
        )
        answer = session.post(f"{url}/buildable", json=body, timeout=30).json()
        found["decks judged"] = len(answer["data"])
        health = f"{base}/api/v1/health"
        found["health ms"] = median_ms(lambda: session.get(health, timeout=30), 200)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--postgres", help="a fresh PostgreSQL URL, or auto")
    args = parser.parse_args()
    with postgres_for(args.postgres) as pg:
        found = run(events_database(args.postgres, pg))
    print(f"collection: {found['entries']:,} entries; {found['decks judged']} decks judged")
    print(f"add 10 cards: median {found['add ms']:.1f} ms (must <= 20, aim 5)")
    print(f"per-set completion: median {found['sets ms']:.1f} ms (must <= 300, aim 50)")
    print(f"buildable, {DECKS} decks: median {found['buildable ms']:.1f} ms (must <= 300, aim 50)")
    print(f"the health check, for the floor: {found['health ms']:.1f} ms")


if __name__ == "__main__":
    main()
