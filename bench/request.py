"""One whole request in process: the WSGI app called directly (no server, no socket),
so what Flask and deckcheck do around the checks shows (full shared pools).

    .venv/bin/python bench/request.py

Prints, for a structured and a text validate of the 55-card DCG deck and for health:
the median and best of 15 rounds of this process's CPU time per request (CPU time:
the machine's other load changes it less than the wall clock), and the Python function
calls per request (cProfile's count: the same on any machine, so a change that saves
work shows even on a busy host). Compare two trees by running it in each.
"""

from __future__ import annotations

import cProfile
import io
import json
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import DECK_55, full_database, structured_deck  # noqa: E402
from werkzeug.test import EnvironBuilder  # noqa: E402

from deckcheck import create_app  # noqa: E402

ROUNDS, CALLS = 15, 200


def main() -> None:
    folder = tempfile.mkdtemp(prefix="deckcheck-bench-request-")
    os.mkdir(f"{folder}/formats")
    app = create_app(
        {
            "DATABASE": full_database(),
            "FORMATS_DIR": f"{folder}/formats",
            "EVENTS_DATABASE": f"{folder}/events.db",
            "SECRET_KEY": "bench",
        }
    )
    day = "2026-05-01"
    cases = {
        "validate, structured": (
            "POST",
            "/api/v1/decks/validate",
            {"format": "dcg", "date": day, "deck": structured_deck(DECK_55)},
        ),  # fmt: skip
        "validate, text": (
            "POST",
            "/api/v1/decks/validate",
            {"format": "dcg", "date": day, "decklist": DECK_55},
        ),  # fmt: skip
        "health": ("GET", "/api/v1/health", None),
    }
    print(f"load average (1 min): {os.getloadavg()[0]:.1f}")
    for label, (method, path, body) in cases.items():
        data = json.dumps(body).encode() if body is not None else b""
        environ = EnvironBuilder(
            path=path, method=method, data=data, content_type="application/json"
        ).get_environ()

        def call(environ=environ, data=data) -> None:
            fresh = dict(environ, **{"wsgi.input": io.BytesIO(data)})
            statuses: list[str] = []
            answer = app.wsgi_app(fresh, lambda status, headers, exc=None: statuses.append(status))
            b"".join(answer)
            assert statuses[0].startswith("200"), statuses

        call()
        times = []
        for _ in range(ROUNDS):
            started = time.process_time()
            for _ in range(CALLS):
                call()
            times.append((time.process_time() - started) / CALLS * 1e6)
        times.sort()
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(100):
            call()
        profile.disable()
        calls = pstats.Stats(profile).total_calls / 100
        print(
            f"{label:22} CPU {times[ROUNDS // 2]:6.1f} µs median, {times[0]:6.1f} best;"
            f" {calls:5.0f} calls a request"
        )


if __name__ == "__main__":
    main()
