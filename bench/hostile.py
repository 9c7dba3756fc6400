"""Normal traffic beside attackers, against the README's production command.

    .venv/bin/python bench/hostile.py              # 60 s, as in docs/PERFORMANCE.md
    .venv/bin/python bench/hostile.py --seconds 10 # a quick look

Starts `gunicorn -c gunicorn.conf.py wsgi:app` on 127.0.0.1 (a temporary database
holding the shared pools when ../shared/data is there, else the bundled starter
pool), then for the given time runs
  - normal traffic: 8 keep-alive connections validating a real 55-card deck;
  - attackers: 100 KB adversarial lines, 1,000-unknown-name floods, 1 MB form bodies
    (just under and just over the limit), and 8 slow clients sending one byte a second.
It prints the normal traffic's errors, p50 and p99, and each worker's RSS before and
after. Must: 0 errors, p99 <= 150 ms, RSS growth <= 50 MB per worker (aim: p99 <= 40 ms).
Only loopback addresses; every loop ends at the deadline.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (  # noqa: E402
    DECK_55,
    POOLS,
    free_port,
    full_database,
    rss_mb,
    start_server,
    worker_pids,
)

HOST = "127.0.0.1"
NORMAL_CONNECTIONS = 8
SLOW_CLIENTS = 8
MB = 1024 * 1024


def start_production_server(database: str, port: int) -> subprocess.Popen:
    """The README's command, with only the database and a formats folder of its own."""
    formats = tempfile.mkdtemp(prefix="deckcheck-formats-")
    env = {"DECKCHECK_FORMATS_DIR": formats}
    return start_server(database, port, multiprocessing.cpu_count(), production=True, env=env)


def post(conn: http.client.HTTPConnection, path: str, body: bytes, content_type: str) -> int:
    conn.request("POST", path, body=body, headers={"Content-Type": content_type})
    response = conn.getresponse()
    response.read()
    return response.status


# -- normal traffic --------------------------------------------------------------


def normal_client(port: int, deadline: float, latencies: list, errors: list) -> None:
    body = json.dumps({"format": "dcg", "decklist": DECK_55}).encode()
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    while time.monotonic() < deadline:
        started = time.perf_counter()
        try:
            status = post(conn, "/api/v1/decks/validate", body, "application/json")
        except (OSError, http.client.HTTPException) as err:
            errors.append(repr(err))
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
            continue
        latencies.append(time.perf_counter() - started)
        if status != 200:
            errors.append(f"HTTP {status}")
    conn.close()


def normal_traffic(port: int, seconds: float, out) -> None:
    deadline = time.monotonic() + seconds
    latencies: list[float] = []
    errors: list[str] = []
    threads = [
        threading.Thread(target=normal_client, args=(port, deadline, latencies, errors))
        for _ in range(NORMAL_CONNECTIONS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out.put((latencies, errors))


# -- attackers -------------------------------------------------------------------


def adversarial_lines() -> list[str]:
    return [
        "a" + " " * 100_000 + "b",
        "4 " + "a" * 100_000,
        "4 " + "[(" * 25_000 + "x" + ")]" * 25_000,
        "BT1" + "-" * 100_000,
        "1" * 100_000,
        "4 " + "Ä😀\u202eｱ" * 25_000,
    ]


def unknown_names() -> str:
    return "\n".join(f"4 Zqx{i:04d}vormon" for i in range(1000))


def attacker(port: int, deadline: float, requests: list, counts: dict) -> None:
    """Cycles through the expensive requests until the deadline."""
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    sent = 0
    while time.monotonic() < deadline:
        path, body, content_type = requests[sent % len(requests)]
        sent += 1
        try:
            status = post(conn, path, body, content_type)
        except (OSError, http.client.HTTPException):
            status = "closed"
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=60)
        counts[status] = counts.get(status, 0) + 1
    conn.close()


def slow_client(port: int, deadline: float, counts: dict) -> None:
    """Sends a request one byte a second, never finishing before the deadline."""
    request = (
        b"POST /api/v1/decks/validate HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
    ) + b" " * 100_000
    try:
        with socket.create_connection((HOST, port), timeout=5) as sock:
            for byte in request:
                if time.monotonic() >= deadline:
                    break
                sock.sendall(bytes([byte]))
                time.sleep(1.0)
            counts["slow-bytes"] = counts.get("slow-bytes", 0) + 1
    except OSError:
        counts["slow-dropped"] = counts.get("slow-dropped", 0) + 1


def attacks(port: int, seconds: float, out) -> None:
    deadline = time.monotonic() + seconds
    json_type, form_type = "application/json", "application/x-www-form-urlencoded"

    def validate(text: str) -> tuple[str, bytes, str]:
        return (
            "/api/v1/decks/validate",
            json.dumps({"format": "dcg", "decklist": text}).encode(),
            json_type,
        )

    lines = [validate(line) for line in adversarial_lines()]
    pages = [
        ("/report", f"format=dcg&decklist={line[:50_000]}".encode(), form_type)
        for line in ("a" + " " * 30_000 + "b", "4 " + "a" * 30_000)
    ]
    floods = [validate(unknown_names())]
    form_under = b"format=dcg&decklist=" + b"a" * (MB - 30)
    form_over = b"format=dcg&decklist=" + b"a" * MB
    bodies = [("/report", form_under, form_type), ("/report", form_over, form_type)]
    counts: dict = {}
    threads = [
        threading.Thread(target=attacker, args=(port, deadline, lines + pages, counts)),
        threading.Thread(target=attacker, args=(port, deadline, floods, counts)),
        threading.Thread(target=attacker, args=(port, deadline, bodies, counts)),
    ] + [
        threading.Thread(target=slow_client, args=(port, deadline, counts))
        for _ in range(SLOW_CLIENTS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    out.put(counts)


# -- the run ---------------------------------------------------------------------


def warm_up(port: int) -> None:
    """Every worker builds its pools before the clock starts."""
    body = json.dumps({"format": "dcg", "decklist": DECK_55}).encode()
    for _ in range(50):
        conn = http.client.HTTPConnection(HOST, port, timeout=60)
        post(conn, "/api/v1/decks/validate", body, "application/json")
        conn.close()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long (default 60)")
    parser.add_argument("--database", help="a card database holding the shared pools")
    args = parser.parse_args()
    shared = bool(args.database) or all(path.exists() for path in POOLS.values())
    if args.database:
        database = args.database
    else:
        database = full_database() if shared else str(Path(tempfile.mkdtemp()) / "cards.db")
    port = free_port()
    server = start_production_server(database, port)
    try:
        warm_up(port)
        workers = worker_pids(server)
        before = {pid: rss_mb(pid) for pid in workers}
        results: multiprocessing.Queue = multiprocessing.Queue()
        runs = [
            multiprocessing.Process(target=normal_traffic, args=(port, args.seconds, results)),
            multiprocessing.Process(target=attacks, args=(port, args.seconds, results)),
        ]
        for run in runs:
            run.start()
        outcomes = [results.get(timeout=args.seconds + 120) for _ in runs]
        for run in runs:
            run.join(30)
        after = {pid: rss_mb(pid) for pid in workers}
    finally:
        server.terminate()
        server.wait(30)
    (latencies, errors), counts = sorted(outcomes, key=lambda o: isinstance(o, dict))
    report(args.seconds, shared, latencies, errors, counts, before, after)


def report(seconds, shared, latencies, errors, counts, before, after) -> None:
    p50 = statistics.median(latencies) * 1000 if latencies else float("nan")
    p99 = percentile(latencies, 0.99) * 1000 if latencies else float("nan")
    growth = max((after[pid] - before[pid] for pid in before), default=0.0)
    print(
        f"pool: {'shared pools' if shared else 'starter pool'}; {seconds:g} s; "
        f"gunicorn -c gunicorn.conf.py wsgi:app on {HOST}"
    )
    print(
        f"normal traffic: {len(latencies)} requests ({len(latencies) / seconds:.0f}/s), "
        f"{len(errors)} errors, p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
        f"max {max(latencies) * 1000 if latencies else 0:.0f} ms"
    )
    if errors:
        print("  errors:", sorted(set(errors))[:5])
    print("attackers:", ", ".join(f"{k}: {v}" for k, v in sorted(counts.items(), key=str)))
    for pid in before:
        print(
            f"worker {pid}: RSS {before[pid]:.0f} MB -> {after[pid]:.0f} MB "
            f"({after[pid] - before[pid]:+.0f} MB)"
        )
    must = not errors and p99 <= 150 and growth <= 50
    print(
        f"must (0 errors, p99 <= 150 ms, RSS growth <= 50 MB/worker): "
        f"{'PASS' if must else 'FAIL'}; aim (p99 <= 40 ms): {'met' if p99 <= 40 else 'not met'}"
    )
    if not must:
        sys.exit(1)


if __name__ == "__main__":
    main()
