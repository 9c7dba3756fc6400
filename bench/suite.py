"""The test suite's wall, CPU and waiting (docs/PERFORMANCE.md, "The test suite").

    python bench/suite.py [--tree DIR] [-- PYTEST ARGS]    # runs DIR's README command
    python bench/suite.py --report TIMELINE.jsonl         # reads an earlier run

Runs `python -m pytest -q` in DIR (default: this checkout, with its own .venv) with the
bench/plugins/suite_timeline.py plugin, and prints: wall; user+sys CPU of pytest and everything
it waited for (/usr/bin/time's figure: PostgreSQL, a daemon, is not in it); the machine's busy
and idle CPU over the run; per worker its tests' wall, CPU, run-queue waits (a busy
machine's share) and the rest, waiting no core spends on the suite; when each worker
finished (the idle tail); the files and tests that wait most.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(tree: Path, extra: list[str], timeline: Path) -> None:
    timeline.unlink(missing_ok=True)
    env = {
        **os.environ,
        "SUITE_TIMELINE": str(timeline),
        "PYTHONPATH": str(ROOT / "bench" / "plugins"),
    }
    python = tree / ".venv" / "bin" / "python"
    speed = _speed()
    started, load, machine = time.monotonic(), os.getloadavg()[0], _machine()
    done = subprocess.run(
        [str(python), "-m", "pytest", "-q", "-p", "suite_timeline", *extra], cwd=tree, env=env
    )
    wall = time.monotonic() - started
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = used.ru_utime + used.ru_stime
    busy, idle = (after - before for after, before in zip(_machine(), machine, strict=True))
    print(f"exit {done.returncode}; wall {wall:.1f} s; CPU user+sys {cpu:.1f} s;"
          f" machine busy {busy:.1f} s, idle {idle:.1f} s;"
          f" load {load:.1f} -> {os.getloadavg()[0]:.1f};"
          f" machine speed {speed:.2f} -> {_speed():.2f} s")  # fmt: skip


def _speed() -> float:
    """Seconds of CPU a fixed loop takes: the same machine gave one run 309 s of CPU and
    the next 347 s for the same tests, as its host's other guests came and went; runs
    are comparable only at about the same speed."""
    started = time.process_time()
    total = 0
    for n in range(5_000_000):
        total += n * n % 7
    return time.process_time() - started


def _machine() -> tuple[float, float]:
    """The whole machine's busy and idle CPU seconds so far (/proc/stat): what the suite's
    own figure misses (PostgreSQL, a daemon; Chromium's zygote-forked renderers), on a
    machine nothing else uses."""
    fields = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, nice, system, idle, iowait, irq, softirq, steal = fields[:8]
    tick = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq + steal) / tick, (idle + iowait) / tick


def report(timeline: Path, top: int = 15) -> None:
    rows = [json.loads(line) for line in timeline.read_text().splitlines()]
    tests = [row for row in rows if "id" in row]
    starts = [row["t"] for row in rows if row.get("event") == "start"]
    t0 = min(starts) if starts else min(row["start"] for row in tests)
    for row in tests:
        for key in ("hrunq", "pg", "pgrunq", "sleep"):
            row.setdefault(key, row.get("sleep_main", 0.0) if key == "sleep" else 0.0)
        helpers = max(0.0, row["tree"] - row["oncpu"]) + max(0.0, row["hrunq"])
        helpers += max(0.0, row["pg"] + row["pgrunq"])
        row["waiting"] = max(0.0, row["t"] - row["oncpu"] - row["runq"] - helpers)
        row["cpu"] = row["tree"] + max(0.0, row["pg"])
    workers = collections.defaultdict(list)
    for row in tests:
        workers[row["w"]].append(row)
    for name, mine in sorted(workers.items()):
        last = max(row["start"] + row["t"] for row in mine) - t0
        print(f"{name}: {len(mine)} tests, finished at {last:.1f} s; wall {_sum(mine, 't')},"
              f" CPU {_sum(mine, 'cpu')} (PostgreSQL {_sum(mine, 'pg')}), run queue"
              f" {_sum(mine, 'runq')}, slept {_sum(mine, 'sleep')},"
              f" waiting {_sum(mine, 'waiting')}")  # fmt: skip
    files = collections.defaultdict(list)
    for row in tests:
        files[row["id"].split("::", 1)[0]].append(row)
    for title, groups in (("files", files.items()), ("tests", [(r["id"], [r]) for r in tests])):
        print(f"{title} waiting most (waiting, CPU, wall):")
        for name, mine in sorted(groups, key=lambda kv: -_total(kv[1], "waiting"))[:top]:
            print(f"  {_sum(mine, 'waiting')} {_sum(mine, 'cpu')} {_sum(mine, 't')}  {name}")


def _total(rows: list[dict], key: str) -> float:
    return sum(row[key] for row in rows)


def _sum(rows: list[dict], key: str) -> str:
    return f"{_total(rows, key):.1f}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to run")
    parser.add_argument("--report", type=Path, help="only read this timeline")
    parser.add_argument("--timeline", type=Path, default=Path("suite-timeline.jsonl").resolve())
    parser.add_argument("pytest", nargs="*", help="more pytest arguments (after --)")
    args = parser.parse_args(argv)
    if args.report is None:
        run(args.tree.resolve(), args.pytest, args.timeline)
    report(args.report or args.timeline)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
