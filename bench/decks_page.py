""" "My decks" with 200 saved decks, in Chromium (issue 34: <= 1 s, aim 0.3 s).

    .venv/bin/python bench/decks_page.py [--decks 200] [--runs 5]

The production server (gunicorn -c gunicorn.conf.py wsgi:app, 2 workers) on 127.0.0.1
with the full shared pools and a fresh events database (SQLite); the create limit is
off for the run. 200 decks are saved (each the 55-card list), their ids and tokens put
in a headless Chromium's localStorage as the builder's Save leaves them, then /decks is
opened `--runs` times: the time from the start of navigation until every deck shows its
verdict (`#my-decks[data-ready]`), and the requests the page made to the decks API
(must be one POST /api/v1/decks/lookup). Prints each run and the median.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import sys
import tempfile
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import DECK_55, free_port, full_database, start_server, wait_until_up  # noqa: E402

MUST_SECONDS = 1.0
STORE = "deckcheck.my-decks"


def save_decks(base: str, count: int) -> dict:
    kept = {}
    with requests.Session() as session:
        for n in range(count):
            made = session.post(
                f"{base}/api/v1/decks",
                json={"format": "dcg", "name": f"Deck {n}", "decklist": DECK_55},
                timeout=30,
            )
            made.raise_for_status()
            body = made.json()
            kept[body["deck"]["id"]] = {"token": body["edit_token"], "name": f"Deck {n}"}
    return kept


def open_page(base: str, kept: dict, runs: int) -> tuple[list[float], list[str]]:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("Chromium is not installed")
    asked: list[str] = []
    times = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"{base}/decks")
        page.evaluate("([k, v]) => localStorage.setItem(k, v)", [STORE, json.dumps(kept)])
        page.on(
            "request", lambda r: asked.append(f"{r.method} {r.url}") if "/api/" in r.url else None
        )
        for _ in range(runs):
            page.reload()
            page.wait_for_selector("#my-decks[data-ready]", timeout=30000)
            times.append(page.evaluate("performance.now()") / 1000)
        browser.close()
    return times, asked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    database = full_database()
    events_db = str(Path(tempfile.mkdtemp(prefix="deckcheck-decks-")) / "e.db")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {"DECKCHECK_EVENTS_DATABASE": events_db, "DECKCHECK_DECKS_CREATE_LIMIT": "0"}
    server = start_server(database, port, production=True, env=env, own_session=True)
    try:
        wait_until_up(server, port, kill=lambda: os.killpg(server.pid, signal.SIGTERM))
        kept = save_decks(base, args.decks)
        times, asked = open_page(base, kept, args.runs)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    lookups = [a for a in asked if "/api/v1/decks" in a]
    print(f"/decks with {args.decks} saved decks, {args.runs} loads in Chromium:")
    print("  each (s):", " ".join(f"{t:.3f}" for t in times))
    median = statistics.median(times)
    print(f"  median: {median:.3f} s (must <= {MUST_SECONDS} s)")
    print(f"  decks API requests per load: {len(lookups) / args.runs:g} ({sorted(set(lookups))})")
    if median > MUST_SECONDS or len(lookups) != args.runs:
        sys.exit(1)


if __name__ == "__main__":
    main()
