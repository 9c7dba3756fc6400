"""One validate-batch call of N real decks against gunicorn on 127.0.0.1.

    .venv/bin/python bench/batch.py [--production]
    .venv/bin/python bench/batch.py --against /tmp/before --rounds 3 [--production]

Must (issue 10): 1,000 decks in at most 0.35 s. Aim: 0.2 s. Without `--against`,
prints 10, 100, 1,000 and 10,000 decks to show how time grows (10,000 decks fit the
16 MB batch limit). With it, starts a server of each checkout in turn (same database,
same body) and prints the median 1,000-deck time of each.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import DATA, DECK_55, ROOT, free_port, full_database, start_server  # noqa: E402


def real_decks() -> list[str]:
    """The real exports of the shared examples (each a whole deck), plus DECK_55."""
    text = (DATA / "dcg" / "decklist_format_examples.txt").read_text()
    decks = [DECK_55]
    for block in re.split(r"^=== ", text, flags=re.M)[1:]:
        body = [line for line in block.splitlines()[1:] if not line.startswith("# ")]
        arrays = [line for line in body if line.startswith("[")]
        decks += arrays or ["\n".join(body)]
    return [d for d in decks if d.strip()]


def time_batch(url: str, body: bytes, size: int, calls: int) -> float:
    """Median seconds of `calls` validate-batch calls with `body`."""
    timings = []
    for _ in range(calls):
        request = urllib.request.Request(url, body, {"Content-Type": "application/json"})
        start = time.perf_counter()
        with urllib.request.urlopen(request, timeout=120) as response:
            results = json.load(response)["results"]
        timings.append(time.perf_counter() - start)
        assert len(results) == size and not any("error" in r for r in results)
    return statistics.median(timings)


def batch_body(decks: list[str], size: int) -> bytes:
    return json.dumps(
        {
            "format": "dcg",
            "date": "2026-05-01",
            "decks": [{"id": i, "decklist": decks[i % len(decks)]} for i in range(size)],
        }
    ).encode()


def serve(database: str, root: Path, production: bool):
    port = free_port()
    server = start_server(database, port, root=root, production=production)
    url = f"http://127.0.0.1:{port}/api/v1/decks/validate-batch"
    warm = json.dumps({"format": "dcg", "decks": [{"id": 0, "decklist": DECK_55}]}).encode()
    for _ in range(6):  # every worker loads its pools before anything is timed
        request = urllib.request.Request(url, warm, {"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=60).read()
    return server, url


def growth(database: str, decks: list[str], production: bool) -> None:
    server, url = serve(database, ROOT, production)
    print(f"{'decks':>7}{'body MB':>9}{'seconds':>9}{'ms/deck':>9}")
    try:
        for size in (10, 100, 1000, 10000):
            body = batch_body(decks, size)
            seconds = time_batch(url, body, size, 3)
            print(f"{size:>7}{len(body) / 1e6:>9.2f}{seconds:>9.3f}{seconds / size * 1000:>9.3f}")
    finally:
        server.terminate()
        server.wait()


def side_by_side(database: str, decks: list[str], against: Path, rounds: int, production: bool):
    """1,000 decks on a server of each checkout in turn, `rounds` times; medians."""
    body = batch_body(decks, 1000)
    trees = {"before": against.resolve(), "now": ROOT}
    found: dict[str, list[float]] = {name: [] for name in trees}
    loads = [os.getloadavg()[0]]
    for _ in range(rounds):
        for name, root in trees.items():
            server, url = serve(database, root, production)
            try:
                found[name].append(time_batch(url, body, 1000, 3))
            finally:
                server.terminate()
                server.wait()
            loads.append(os.getloadavg()[0])
    print(f"load average (1 min) during the run: {min(loads):.1f}-{max(loads):.1f}")
    for name, values in found.items():
        shown = ", ".join(f"{v:.3f}" for v in values)
        print(f"1,000 decks, {name:>6}: median {statistics.median(values):.3f} s  ({shown})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", type=Path, help="another checkout to time side by side")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--production", action="store_true", help="gunicorn -c gunicorn.conf.py")
    args = parser.parse_args()
    database = full_database()
    decks = real_decks()
    if args.against:
        side_by_side(database, decks, args.against, args.rounds, args.production)
    else:
        growth(database, decks, args.production)
    print("must: 1,000 decks <= 0.35 s; aim 0.2 s (issue 10; median of 3 calls per server)")


if __name__ == "__main__":
    main()
