"""One validate-batch call of N real decks against gunicorn on 127.0.0.1.

    .venv/bin/python bench/batch.py

Must: 1,000 decks in at most 2 s. Aim: 0.25 s. Prints 10, 100, 1,000 and 10,000 decks
to show how time grows (10,000 decks fit the 16 MB batch limit).
"""

from __future__ import annotations

import json
import re
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import DATA, DECK_55, free_port, full_database, start_server  # noqa: E402


def real_decks() -> list[str]:
    """The real exports of the shared examples (each a whole deck), plus DECK_55."""
    text = (DATA / "dcg" / "decklist_format_examples.txt").read_text()
    decks = [DECK_55]
    for block in re.split(r"^=== ", text, flags=re.M)[1:]:
        body = [line for line in block.splitlines()[1:] if not line.startswith("# ")]
        arrays = [line for line in body if line.startswith("[")]
        decks += arrays or ["\n".join(body)]
    return [d for d in decks if d.strip()]


def main() -> None:
    database = full_database()
    port = free_port()
    server = start_server(database, port)
    decks = real_decks()
    url = f"http://127.0.0.1:{port}/api/v1/decks/validate-batch"
    print(f"{'decks':>7}{'body MB':>9}{'seconds':>9}{'ms/deck':>9}")
    try:
        warm = json.dumps({"format": "dcg", "decks": [{"id": 0, "decklist": DECK_55}]}).encode()
        for _ in range(6):  # every worker loads its pools before anything is timed
            request = urllib.request.Request(url, warm, {"Content-Type": "application/json"})
            urllib.request.urlopen(request, timeout=60).read()
        for size in (10, 100, 1000, 10000):
            body = json.dumps(
                {
                    "format": "dcg",
                    "date": "2026-05-01",
                    "decks": [{"id": i, "decklist": decks[i % len(decks)]} for i in range(size)],
                }
            ).encode()
            timings = []
            for _ in range(3):
                request = urllib.request.Request(url, body, {"Content-Type": "application/json"})
                start = time.perf_counter()
                with urllib.request.urlopen(request, timeout=120) as response:
                    results = json.load(response)["results"]
                timings.append(time.perf_counter() - start)
                assert len(results) == size and not any("error" in r for r in results)
            best = sorted(timings)[1]
            print(f"{size:>7}{len(body) / 1e6:>9.2f}{best:>9.3f}{best / size * 1000:>9.3f}")
    finally:
        server.terminate()
        server.wait()
    print("must: 1,000 decks <= 2 s; aim 0.25 s (median of 3 calls shown)")


if __name__ == "__main__":
    main()
