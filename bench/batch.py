"""One validate-batch call of N real decks against gunicorn on 127.0.0.1.

    .venv/bin/python bench/batch.py [--production]
    .venv/bin/python bench/batch.py --against /tmp/before --rounds 3 [--production]

Each body twice: the real decks as text, and the same decks as structured entries
(what organizer software sends). Must (issue 23): 1,000 structured decks in at most
0.25 s (aim 0.15 s). Without `--against`, prints 10, 100, 1,000 and 10,000 decks to
show how time grows (10,000 decks fit the 16 MB batch limit). With it, starts a
server of each checkout in turn (same database, same bodies), `--rounds` times, and
prints the median, fastest and slowest 1,000-deck call of each.
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

from common import (  # noqa: E402
    DATA,
    DECK_55,
    ROOT,
    free_port,
    full_database,
    start_server,
    structured_decks,
)

# Calls per server and body. The host's speed moves in phases of seconds (the same
# process and call can take 1.8 times as long for a while, docs/PERFORMANCE.md): the
# median of many calls over several servers, and the fastest (the code's own cost).
CALLS = 5


def real_decks() -> list[str]:
    """The real exports of the shared examples (each a whole deck), plus DECK_55."""
    text = (DATA / "dcg" / "decklist_format_examples.txt").read_text()
    decks = [DECK_55]
    for block in re.split(r"^=== ", text, flags=re.M)[1:]:
        body = [line for line in block.splitlines()[1:] if not line.startswith("# ")]
        arrays = [line for line in body if line.startswith("[")]
        decks += arrays or ["\n".join(body)]
    return [d for d in decks if d.strip()]


def time_batch(url: str, body: bytes, size: int, calls: int) -> list[float]:
    """Seconds of each of `calls` validate-batch calls with `body`."""
    timings = []
    for _ in range(calls):
        request = urllib.request.Request(url, body, {"Content-Type": "application/json"})
        start = time.perf_counter()
        with urllib.request.urlopen(request, timeout=120) as response:
            results = json.load(response)["results"]
        timings.append(time.perf_counter() - start)
        assert len(results) == size and not any("error" in r for r in results)
    return timings


def batch_body(decks: list, size: int) -> bytes:
    """`size` decks in turn from `decks`: texts (`decklist`) or structured (`deck`)."""
    key = "decklist" if isinstance(decks[0], str) else "deck"
    return json.dumps(
        {
            "format": "dcg",
            "date": "2026-05-01",
            "decks": [{"id": i, key: decks[i % len(decks)]} for i in range(size)],
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


def growth(database: str, bodies: dict[str, list], production: bool) -> None:
    server, url = serve(database, ROOT, production)
    print(f"{'input':<12}{'decks':>7}{'body MB':>9}{'seconds':>9}{'ms/deck':>9}")
    try:
        for kind, decks in bodies.items():
            for size in (10, 100, 1000, 10000):
                body = batch_body(decks, size)
                seconds = statistics.median(time_batch(url, body, size, 3))
                print(
                    f"{kind:<12}{size:>7}{len(body) / 1e6:>9.2f}{seconds:>9.3f}"
                    f"{seconds / size * 1000:>9.3f}"
                )
    finally:
        server.terminate()
        server.wait()


def side_by_side(
    database: str, bodies: dict[str, list], against: Path, rounds: int, production: bool
) -> None:
    """1,000 decks of each input on a server of each checkout in turn, `rounds` times."""
    trees = {"before": against.resolve(), "now": ROOT}
    found: dict[tuple[str, str], list[float]] = {}
    loads = [os.getloadavg()[0]]
    for _ in range(rounds):
        for name, root in trees.items():
            server, url = serve(database, root, production)
            try:
                for kind, decks in bodies.items():
                    timings = time_batch(url, batch_body(decks, 1000), 1000, CALLS)
                    found.setdefault((kind, name), []).extend(timings)
            finally:
                server.terminate()
                server.wait()
            loads.append(os.getloadavg()[0])
    print(f"load average (1 min) during the run: {min(loads):.1f}-{max(loads):.1f}")
    for (kind, name), values in found.items():
        print(
            f"1,000 decks, {kind:<10} {name:>6}: median {statistics.median(values):.3f} s, "
            f"fastest {min(values):.3f} s, slowest {max(values):.3f} s ({len(values)} calls)"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", type=Path, help="another checkout to time side by side")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--production", action="store_true", help="gunicorn -c gunicorn.conf.py")
    args = parser.parse_args()
    database = full_database()
    decks = real_decks()
    bodies = {"text": decks, "structured": structured_decks(decks)}
    if args.against:
        side_by_side(database, bodies, args.against, args.rounds, args.production)
    else:
        growth(database, bodies, args.production)
    print(f"must: 1,000 structured decks <= 0.25 s, aim 0.15 s ({CALLS} calls a server)")


if __name__ == "__main__":
    main()
