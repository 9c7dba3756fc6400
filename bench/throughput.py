"""Throughput of POST /api/v1/decks/validate against GET /api/v1/health, same server.

    .venv/bin/python bench/throughput.py [--seconds 10]
    .venv/bin/python bench/throughput.py --against /tmp/before --rounds 3

The production server (`gunicorn -c gunicorn.conf.py wsgi:app`, 2 workers) on
127.0.0.1 (full shared pools), load from Debian's `wrk` with 8 connections. Prints
requests/s, p50 / p99 latency, errors, and the ratio validate / health. Must (issue
10): ratio >= 0.65 with zero errors. Aim: 0.85. `--against DIR` serves another
checkout in turn, each round, and prints the median ratio of each. Only loopback
is ever loaded, for a bounded time.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import DECK_55, ROOT, free_port, full_database, start_server  # noqa: E402

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


def measure(database: str, root: Path, seconds: int) -> tuple[dict, dict]:
    """(health, validate) figures of the production server of one checkout."""
    port = free_port()
    server = start_server(database, port, root=root, production=True)
    base = f"http://127.0.0.1:{port}/api/v1"
    body = json.dumps({"format": "dcg", "date": "2026-05-01", "decklist": DECK_55})
    try:
        check = urllib.request.Request(
            base + "/decks/validate", body.encode(), {"Content-Type": "application/json"}
        )
        assert json.load(urllib.request.urlopen(check))["deck"]["sections"]["main"]["count"] == 50
        wrk(base + "/health", 2)  # warm up both workers
        wrk(base + "/decks/validate", 2, body)
        health = wrk(base + "/health", seconds)
        validate = wrk(base + "/decks/validate", seconds, body)
    finally:
        server.terminate()
        server.wait()
    return health, validate


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--against", type=Path, help="another checkout to measure in turn")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("needs Debian's wrk: apt-get install wrk")
    database = full_database()
    trees = {"now": ROOT}
    if args.against:
        trees = {"before": args.against.resolve(), **trees}
    ratios: dict[str, list[float]] = {name: [] for name in trees}
    loads = [os.getloadavg()[0]]
    print(f"{'checkout':<9}{'endpoint':<28}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}")
    for _ in range(args.rounds):
        for name, root in trees.items():
            health, validate = measure(database, root, args.seconds)
            loads.append(os.getloadavg()[0])
            for label, row in (("GET /health", health), ("POST /decks/validate (55)", validate)):
                print(
                    f"{name:<9}{label:<28}{row['rate']:>9.0f}{row['p50']:>9.2f}"
                    f"{row['p99']:>9.2f}{row['errors']:>8}"
                )
            ratios[name].append(validate["rate"] / health["rate"])
    print(f"load average (1 min) during the run: {min(loads):.1f}-{max(loads):.1f}")
    for name, values in ratios.items():
        shown = ", ".join(f"{v:.2f}" for v in values)
        print(
            f"ratio validate / health, {name}: median {statistics.median(values):.2f} ({shown})"
            "  (must >= 0.65, aim 0.85)"
        )


if __name__ == "__main__":
    main()
