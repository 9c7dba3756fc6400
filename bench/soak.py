"""Soak and memory: load gunicorn for a while and watch each worker's memory.

    .venv/bin/python bench/soak.py [--seconds 60]

Loads POST /api/v1/decks/validate with wrk (8 connections, 127.0.0.1 only) for the
given time, sampling the workers' RSS every 5 s. Prints errors, memory per worker
with all pools loaded, and the memory drift over the run (should be flat).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import DECK_55, free_port, full_database, rss_mb, start_server, worker_pids  # noqa: E402
from throughput import parse_wrk  # noqa: E402

WARM = {
    "dcg": DECK_55,
    "digibattle": "1 ST-01",
    "dmcg": "3 St-1",
    "dbe": "4 ACC-001",
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=60)
    args = parser.parse_args()
    port = free_port()
    server = start_server(full_database(), port)
    base = f"http://127.0.0.1:{port}/api/v1/decks/validate"
    try:
        for _ in range(8):  # every worker loads every pool
            for game, text in WARM.items():
                request = urllib.request.Request(
                    base,
                    json.dumps({"format": game, "decklist": text}).encode(),
                    {"Content-Type": "application/json"},
                )
                urllib.request.urlopen(request).read()
        pids = worker_pids(server)
        before = {pid: rss_mb(pid) for pid in pids}
        script = Path(tempfile.mkdtemp()) / "post.lua"
        body = json.dumps({"format": "dcg", "decklist": DECK_55})
        script.write_text(
            'wrk.method = "POST"\n'
            'wrk.headers["Content-Type"] = "application/json"\n'
            f"wrk.body = {json.dumps(body)}\n"
        )
        load = subprocess.Popen(
            [
                "wrk",
                "-t",
                "2",
                "-c",
                "8",
                "-d",
                f"{args.seconds}s",
                "--latency",
                "-s",
                str(script),
                base,
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        samples = []
        while load.poll() is None:
            time.sleep(5)
            samples.append([rss_mb(pid) for pid in pids])
        result = parse_wrk(load.stdout.read())
        after = {pid: rss_mb(pid) for pid in pids}
    finally:
        server.terminate()
        server.wait()
    print(
        f"soak {args.seconds} s: {result['rate']:.0f} req/s, p50 {result['p50']:.2f} ms, "
        f"p99 {result['p99']:.2f} ms, errors {result['errors']}"
    )
    for pid in pids:
        print(
            f"worker {pid}: {before[pid]:.1f} MB with all pools loaded -> "
            f"{after[pid]:.1f} MB after (drift {after[pid] - before[pid]:+.1f} MB)"
        )
    print("RSS samples (MB): " + " | ".join("/".join(f"{v:.0f}" for v in s) for s in samples))


if __name__ == "__main__":
    main()
