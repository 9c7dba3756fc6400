"""Throughput of POST /api/v1/decks/validate against GET /api/v1/health, same server.

    .venv/bin/python bench/throughput.py [--seconds 2 --pairs 9]
    .venv/bin/python bench/throughput.py --against /tmp/before --rounds 3
    .venv/bin/python bench/throughput.py --against . --against-env DECKCHECK_GUNICORN_PIN=0

The production server (`gunicorn -c gunicorn.conf.py wsgi:app`, 2 workers) on
127.0.0.1 (full shared pools), load from Debian's `wrk` with 8 connections. The same
55-card deck is sent as text and as structured entries. Prints requests/s, p50 / p99
latency, errors, and the ratio validate / health of each. Must (issue 23): ratio >= 0.6
for the structured body (aim 0.7), with zero errors. Only loopback is ever loaded, for a
bounded time.

Why brackets: gunicorn's workers share one listening socket, and whichever wakes first
accepts a connection, so wrk's 8 keep-alive connections can land 8 / 0 on the two
workers; one wrk run then measures one core. And this host's speed moves in phases of
seconds (the same work runs 1.7 times slower for a while), so a validate run and a
health run seconds apart can meet different hosts. Each server therefore runs short
runs in the order health, validate, health, validate, ..., health: each validate run
is compared with the mean of the two health runs around it (a drift either way
cancels), and the ratio is the median over the `--pairs` validate runs. A run in which
one worker did less than a quarter of the workers' CPU work measured that split, not
the server: it is run again (at most `RETRIES` times; the count is printed). Beside
it, the workers' own CPU time per request (from /proc), which no split of connections
changes. `--against DIR` serves another checkout in turn, each round; `--against-env`
gives that server settings of its own (the same checkout with a setting changed).
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

from common import (  # noqa: E402
    DECK_55,
    ROOT,
    free_port,
    full_database,
    start_server,
    structured_deck,
)

CONNECTIONS = 8
RETRIES = 3
# A worker below half its even share (a quarter of the work, with two workers)
MIN_SHARE = 0.5


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


def worker_cpu(server: subprocess.Popen) -> dict[str, float]:
    """CPU seconds (user + system) each of the server's workers has used so far."""
    used = {}
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
    for pid in children:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
        used[pid] = ticks / os.sysconf("SC_CLK_TCK")
    return used


def run(server: subprocess.Popen, url: str, seconds: int, body: str | None = None) -> dict:
    """One wrk run, with the workers' CPU time per request during it; run again when
    wrk's connections landed (nearly) all on one worker."""
    for attempt in range(RETRIES + 1):
        before = worker_cpu(server)
        row = wrk(url, seconds, body)
        after = worker_cpu(server)
        spent = [after[pid] - before.get(pid, 0.0) for pid in after]
        total = sum(spent)
        row["retries"] = attempt
        if total and min(spent) / total >= MIN_SHARE / len(spent):
            break
    requests = row["rate"] * seconds
    row["cpu_us"] = total / requests * 1e6 if requests else 0.0
    return row


BODIES = {
    "text": json.dumps({"format": "dcg", "date": "2026-05-01", "decklist": DECK_55}),
    "structured": json.dumps(
        {"format": "dcg", "date": "2026-05-01", "deck": structured_deck(DECK_55)}
    ),
}


def measure(
    database: str, root: Path, seconds: int, pairs: int, body: str, env: dict[str, str]
) -> list[tuple[dict, dict]]:
    """(health, validate) figures of `pairs` validate runs on one production server (more
    settings: `env`), each validate run paired with the mean of the health runs just
    before and after it."""
    port = free_port()
    server = start_server(database, port, root=root, production=True, env=env)
    base = f"http://127.0.0.1:{port}/api/v1"
    try:
        check = urllib.request.Request(
            base + "/decks/validate", body.encode(), {"Content-Type": "application/json"}
        )
        assert json.load(urllib.request.urlopen(check))["deck"]["sections"]["main"]["count"] == 50
        wrk(base + "/health", 2)  # warm up both workers
        wrk(base + "/decks/validate", 2, body)
        healths = [run(server, base + "/health", seconds)]
        validates = []
        for _ in range(pairs):
            validates.append(run(server, base + "/decks/validate", seconds, body))
            healths.append(run(server, base + "/health", seconds))
    finally:
        server.terminate()
        server.wait()
    return [
        (_mean_row(healths[i], healths[i + 1]), validate) for i, validate in enumerate(validates)
    ]


def _mean_row(before: dict, after: dict) -> dict:
    """The two health runs around a validate run, as one (rates and CPU averaged)."""
    row = {key: (before[key] + after[key]) / 2 for key in ("rate", "p50", "p99", "cpu_us")}
    row["errors"] = before["errors"] + after["errors"]
    row["retries"] = before["retries"] + after["retries"]
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=2)
    parser.add_argument("--pairs", type=int, default=9, help="validate runs per server")
    parser.add_argument("--against", type=Path, help="another checkout to measure in turn")
    parser.add_argument(
        "--against-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting of the --against server only",
    )
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    if args.against_env and not args.against:
        parser.error("--against-env sets the --against server: give --against too")
    if not all("=" in item for item in args.against_env):
        parser.error("--against-env takes NAME=VALUE")
    settings = {"now": {}, "before": dict(item.split("=", 1) for item in args.against_env)}
    if not shutil.which("wrk"):
        sys.exit("needs Debian's wrk: apt-get install wrk")
    database = full_database()
    trees = {"now": ROOT}
    if args.against:
        trees = {"before": args.against.resolve(), **trees}
    runs = [(name, kind) for name in trees for kind in BODIES]
    ratios: dict[tuple[str, str], list[float]] = {run: [] for run in runs}
    cpu: dict[tuple[str, str], list[tuple[float, float]]] = {run: [] for run in runs}
    reruns = dict.fromkeys(runs, 0)
    loads = [os.getloadavg()[0]]
    print(
        f"{'checkout':<9}{'endpoint':<30}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}"
        f"{'errors':>8}{'CPU µs/req':>12}{'re-runs':>9}"
    )
    for _ in range(args.rounds):
        for name, kind in runs:
            body = BODIES[kind]
            found = measure(database, trees[name], args.seconds, args.pairs, body, settings[name])
            for health, validate in found:
                for label, row in (
                    ("GET /health (runs around)", health),
                    (f"POST validate (55, {kind})", validate),
                ):
                    print(
                        f"{name:<9}{label:<30}{row['rate']:>9.0f}{row['p50']:>9.2f}"
                        f"{row['p99']:>9.2f}{row['errors']:>8}{row['cpu_us']:>12.0f}"
                        f"{row['retries']:>9}"
                    )
                    reruns[(name, kind)] += row["retries"]
                ratios[(name, kind)].append(validate["rate"] / health["rate"])
                cpu[(name, kind)].append((health["cpu_us"], validate["cpu_us"]))
            loads.append(os.getloadavg()[0])
    print(f"load average (1 min) during the run: {min(loads):.1f}-{max(loads):.1f}")
    for (name, kind), values in ratios.items():
        shown = ", ".join(f"{v:.2f}" for v in values)
        health_cpu = statistics.median(h for h, _ in cpu[(name, kind)])
        validate_cpu = statistics.median(v for _, v in cpu[(name, kind)])
        print(
            f"ratio validate / health, {name} {kind}: median {statistics.median(values):.2f} "
            f"of {len(values)} pairs ({shown})  (structured: must >= 0.6, aim 0.7); "
            f"{reruns[(name, kind)]} runs re-run for a one-sided split"
        )
        print(
            f"  workers' CPU per request: health {health_cpu:.0f} µs, validate "
            f"{validate_cpu:.0f} µs (ratio {health_cpu / validate_cpu:.2f})"
        )


if __name__ == "__main__":
    main()
