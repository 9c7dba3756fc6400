"""Throughput of POST /api/v1/decks/validate against GET /api/v1/health, same server.

    .venv/bin/python bench/throughput.py [--seconds 10]

gunicorn with 2 workers on 127.0.0.1 (full shared pools), load from Debian's `wrk`
with 8 connections. Prints requests/s, p50 / p99 latency, errors, and the ratio
validate / health. Must: ratio >= 0.4 with zero errors. Aim: 0.8, p99 < 10 ms.
Only loopback is ever loaded, for a bounded time.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import DECK_55, free_port, full_database, start_server  # noqa: E402

CONNECTIONS = 8


def wrk(url: str, seconds: int, body: str | None = None) -> dict:
    script = None
    if body is not None:
        script = Path(tempfile.mkdtemp()) / "post.lua"
        script.write_text(
            'wrk.method = "POST"\n'
            'wrk.headers["Content-Type"] = "application/json"\n'
            f"wrk.body = {json.dumps(body)}\n"
        )
    command = ["wrk", "-t", "2", "-c", str(CONNECTIONS), "-d", f"{seconds}s", "--latency", url]
    if script:
        command[1:1] = ["-s", str(script)]
    out = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 30).stdout
    return parse_wrk(out)


def _ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)([a-z]+)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def parse_wrk(out: str) -> dict:
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = _ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1))
    p99 = _ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1))
    errors = 0
    for pattern in (
        r"Non-2xx or 3xx responses: (\d+)",
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)",
    ):
        match = re.search(pattern, out)
        if match:
            errors += sum(int(g) for g in match.groups())
    return {"rate": rate, "p50": p50, "p99": p99, "errors": errors}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("needs Debian's wrk: apt-get install wrk")
    database = full_database()
    port = free_port()
    server = start_server(database, port)
    base = f"http://127.0.0.1:{port}/api/v1"
    body = json.dumps({"format": "dcg", "date": "2026-05-01", "decklist": DECK_55})
    try:
        check = urllib.request.Request(
            base + "/decks/validate", body.encode(), {"Content-Type": "application/json"}
        )
        assert json.load(urllib.request.urlopen(check))["deck"]["sections"]["main"]["count"] == 50
        wrk(base + "/health", 2)  # warm up both workers
        health = wrk(base + "/health", args.seconds)
        validate = wrk(base + "/decks/validate", args.seconds, body)
    finally:
        server.terminate()
        server.wait()
    print(f"{'endpoint':<28}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}")
    for name, row in (("GET /health", health), ("POST /decks/validate (55)", validate)):
        print(
            f"{name:<28}{row['rate']:>9.0f}{row['p50']:>9.2f}{row['p99']:>9.2f}{row['errors']:>8}"
        )
    print(
        f"ratio validate / health: {validate['rate'] / health['rate']:.2f}  (must >= 0.4, aim 0.8)"
    )


if __name__ == "__main__":
    main()
