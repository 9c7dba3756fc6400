"""A saved deck's server-rendered page and its picture (issue 41), production server.

    .venv/bin/python bench/deck_page.py [--decks 20] [--reads 200] [--root OTHER_TREE]

The production server (gunicorn -c gunicorn.conf.py wsgi:app, 2 workers) on 127.0.0.1
with the full shared pools and a fresh events database (SQLite). `--decks` decks are
saved (each the 55-card list, named apart); then, one client, one request at a time:

- `/d/<id>`: `--reads` reads spread over the decks (after one read each to warm up);
- `/d/<id>.png` first: each deck's first picture (drawn and kept by the worker that
  answers it);
- `/d/<id>.png` after: `--reads` more, spread over the decks (each worker has drawn a
  deck at most once: a worker's first draw of a deck the other drew shows as a slow one,
  counted in the max).

Prints median / p90 / max of each (ms, client side, whole request) and exits 1 when a
median is over its must (15 ms, 150 ms, 5 ms). `--root` serves another checkout (say
`git archive <commit> | tar -x -C /tmp/old`) to time side by side; a tree without the
picture (main before issue 41) gets the page's figure only.
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

from common import DECK_55, ROOT, free_port, full_database, start_server  # noqa: E402

MUST_MS = {"page": 15.0, "png first": 150.0, "png after": 5.0}


def timed(session: requests.Session, url: str) -> float:
    started = time.perf_counter()
    answer = session.get(url, timeout=30)
    spent = (time.perf_counter() - started) * 1000
    answer.raise_for_status()
    return spent


def figures(name: str, times: list[float]) -> float:
    ordered = sorted(times)
    median = statistics.median(ordered)
    p90 = ordered[int(len(ordered) * 0.9) - 1]
    print(
        f"  {name:10} median {median:6.2f} ms, p90 {p90:6.2f} ms, max {ordered[-1]:6.2f} ms"
        f" ({len(ordered)} requests; must <= {MUST_MS[name]:g} ms)"
    )
    return median


def run(base: str, decks: int, reads: int) -> dict[str, list[float]]:
    with requests.Session() as session:
        ids = []
        for n in range(decks):
            made = session.post(
                f"{base}/api/v1/decks",
                json={"format": "dcg", "name": f"Bench deck {n}", "decklist": DECK_55},
                timeout=30,
            )
            made.raise_for_status()
            ids.append(made.json()["deck"]["id"])
        for deck_id in ids:
            timed(session, f"{base}/d/{deck_id}")  # warm: templates, the world of today
        page = [timed(session, f"{base}/d/{ids[n % decks]}") for n in range(reads)]
        if session.get(f"{base}/d/{ids[0]}.png", timeout=30).status_code == 404:
            return {"page": page}  # a tree without the picture
        first = [timed(session, f"{base}/d/{deck_id}.png") for deck_id in ids[1:]]
        after = [timed(session, f"{base}/d/{ids[n % decks]}.png") for n in range(reads)]
    return {"page": page, "png first": first, "png after": after}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=20)
    parser.add_argument("--reads", type=int, default=200)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve")
    args = parser.parse_args()
    database = full_database()
    events_db = str(Path(tempfile.mkdtemp(prefix="deckcheck-deck-page-")) / "e.db")
    port = free_port()
    env = {
        "DECKCHECK_EVENTS_DATABASE": events_db,
        "DECKCHECK_DECKS_CREATE_LIMIT": "0",
        "DECKCHECK_BASE_URL": "https://decks.example",
    }
    server = start_server(
        database, port, root=args.root, production=True, env=env, own_session=True
    )
    try:
        found = run(f"http://127.0.0.1:{port}", args.decks, args.reads)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    print(f"/d/<id> and /d/<id>.png, {args.decks} saved decks of 55 cards, {args.root}:")
    over = [name for name, times in found.items() if figures(name, times) > MUST_MS[name]]
    if over:
        sys.exit(f"over the must: {', '.join(over)}")


if __name__ == "__main__":
    main()
