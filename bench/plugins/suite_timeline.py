"""A pytest plugin (`-p suite_timeline`, bench/plugins/ on PYTHONPATH, where no bench
script shadows a standard module; bench/suite.py loads it):
one JSON line a test in each xdist worker, to the file SUITE_TIMELINE names.

Per test: wall seconds; the worker's main thread on a core and waiting for one (Linux
schedstat: what a busy machine adds); the CPU of the worker and every process under it
(Chromium, gunicorn, subprocesses) and of its PostgreSQL; seconds slept in time.sleep.
What is left of the wall after those is waiting: on a quiet machine, wall time no core
spends on the suite.
"""

from __future__ import annotations

import json
import os
import threading
import time

OUT = os.environ.get("SUITE_TIMELINE", "suite-timeline.jsonl")
TICK = os.sysconf("SC_CLK_TCK")
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "w0")
PID = os.getpid()
_postgres: list[int] = []
_slept = [0.0]
_real_sleep = time.sleep
_started: dict[str, dict] = {}
_controller = [False]


def _counting_sleep(seconds: float) -> None:
    began = time.monotonic()
    try:
        _real_sleep(seconds)
    finally:
        if threading.current_thread() is threading.main_thread():
            _slept[0] += time.monotonic() - began


time.sleep = _counting_sleep


def _read(path: str) -> str:
    try:
        with open(path) as file:
            return file.read()
    except OSError:
        return ""


def _sched(pid: int, tid: int | str) -> tuple[float, float]:
    """(seconds on a core, seconds waiting for one) of one thread."""
    parts = _read(f"/proc/{pid}/task/{tid}/schedstat").split()
    return (int(parts[0]) / 1e9, int(parts[1]) / 1e9) if parts else (0.0, 0.0)


def _tree(roots: list[int], skip: int | None = None) -> tuple[float, float]:
    """(CPU seconds, run-queue seconds) of the processes under `roots`, reaped children
    included; the run queue of every thread but `skip`."""
    cpu, queued, seen, todo = 0.0, 0.0, set(), list(roots)
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        stat = _read(f"/proc/{pid}/stat").rsplit(")", 1)[-1].split()
        cpu += sum(int(x) for x in stat[11:15]) / TICK if len(stat) > 15 else 0.0
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            tids = []
        for tid in tids:
            queued += 0.0 if int(tid) == skip else _sched(pid, tid)[1]
            todo += [int(child) for child in _read(f"/proc/{pid}/task/{tid}/children").split()]
    return cpu, queued


def _snapshot() -> dict:
    on_core, queued = _sched(PID, PID)
    tree, tree_queued = _tree([PID], skip=PID)
    postgres, postgres_queued = _tree(_postgres)
    return {"t": time.time(), "oncpu": on_core, "runq": queued, "tree": tree,
            "hrunq": tree_queued, "pg": postgres, "pgrunq": postgres_queued,
            "sleep": _slept[0]}  # fmt: skip


def pytest_configure(config) -> None:
    _controller[0] = not hasattr(config, "workerinput") and bool(
        getattr(config.option, "numprocesses", 0)
    )
    try:
        from events import pg  # tests/ is on the path (pyproject.toml)
    except ImportError:
        return
    real_init = pg.PostgresServer.__init__

    def init(self, *args, **kwargs) -> None:
        real_init(self, *args, **kwargs)
        first = _read(str(self.data / "postmaster.pid")).split("\n", 1)[0]
        if first.isdigit():
            _postgres.append(int(first))

    pg.PostgresServer.__init__ = init


def pytest_runtest_logstart(nodeid: str, location) -> None:
    if not _controller[0]:
        _started[nodeid] = _snapshot()


def pytest_runtest_logfinish(nodeid: str, location) -> None:
    if _controller[0] or nodeid not in _started:
        return
    before, after = _started.pop(nodeid), _snapshot()
    record = {key: round(after[key] - before[key], 4) for key in before}
    record.update(start=before["t"], id=nodeid, w=WORKER)
    _write(record)


def pytest_sessionstart(session) -> None:
    _write({"w": "ctl" if _controller[0] else WORKER, "event": "start", "t": time.time()})


def pytest_sessionfinish(session) -> None:
    _write({"w": "ctl" if _controller[0] else WORKER, "event": "finish", "t": time.time()})


def _write(record: dict) -> None:
    with open(OUT, "a") as file:
        file.write(json.dumps(record) + "\n")
