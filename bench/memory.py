"""A worker's memory while its caches fill: RSS after batches of unknown names.

    .venv/bin/python bench/memory.py [--batches 30]

One process serving the app in process (Flask's test client), the full shared pools.
Each batch is 100 decks of 30 lines of random names and card numbers, all different
(what an attacker sends to fill caches). Every cache in `rules` is a `@memo` (at
most its size in entries), so RSS must level off: printed every 5 batches.
"""

from __future__ import annotations

import argparse
import os
import random
import string
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import full_database  # noqa: E402


def rss_mb() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def random_deck(rnd: random.Random) -> str:
    def word() -> str:
        return "".join(rnd.choice(string.ascii_letters) for _ in range(rnd.randint(3, 12)))

    return "\n".join(
        f"{rnd.randint(1, 4)} {word()} {word()} BT{rnd.randint(1, 30)}-{rnd.randint(1, 120):03d}"
        for _ in range(30)
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--batches", type=int, default=30)
    args = parser.parse_args()
    os.environ["DECKCHECK_DATABASE"] = full_database()
    os.environ.setdefault("DECKCHECK_SECRET_KEY", "bench")
    from wsgi import app

    client = app.test_client()
    rnd = random.Random(1)
    print(f"start: {rss_mb():.0f} MB")
    for batch in range(1, args.batches + 1):
        decks = [{"id": n, "decklist": random_deck(rnd)} for n in range(100)]
        answer = client.post("/api/v1/decks/validate-batch", json={"format": "dcg", "decks": decks})
        assert answer.status_code == 200, answer.status_code
        if batch % 5 == 0:
            print(f"after {batch * 3000:>7,} lines: {rss_mb():.0f} MB")


if __name__ == "__main__":
    main()
