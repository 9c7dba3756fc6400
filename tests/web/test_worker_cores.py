"""gunicorn.conf.py runs each worker, all its threads, on a core of its own.

A worker's threads take turns under the GIL, so a worker can use one core; pinned, it
stops paying a cold cache at every hand-over between its threads (docs/SCALING.md).
Served by the real gunicorn with the real configuration, two workers.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import signal
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import requests
from conftest import ROOT
from production_server import serving, until, worker_pids

needs_two_cores = pytest.mark.skipif(
    len(os.sched_getaffinity(0)) < 2, reason="pinning needs two usable cores"
)

APP = "from deckcheck import create_app\n\napp = create_app()\n"


def _cores(pid: int) -> set[frozenset[int]]:
    """The core sets that the threads of process `pid` may run on (one per distinct set)."""
    found = set()
    for status in Path(f"/proc/{pid}/task").glob("*/status"):
        for line in status.read_text().splitlines():
            if line.startswith("Cpus_allowed_list:"):
                found.add(frozenset(_numbers(line.split(":", 1)[1].strip())))
    return found


def _numbers(listed: str) -> set[int]:
    """`0-2,5` as {0, 1, 2, 5}."""
    numbers: set[int] = set()
    for part in listed.split(","):
        low, _, high = part.partition("-")
        numbers.update(range(int(low), int(high or low) + 1))
    return numbers


def _serve(tmp_path, pin: str):
    settings = {"DECKCHECK_GUNICORN_WORKERS": "2", "DECKCHECK_GUNICORN_PIN": pin}
    return serving(tmp_path, "pinnedapp", APP, timeout=30, settings=settings)


def _busy(base: str) -> None:
    """A few requests, so each worker has started its request threads."""
    for _ in range(8):
        assert requests.get(base + "/api/v1/health", timeout=5).ok


@needs_two_cores
def test_each_worker_and_all_its_threads_run_on_one_core_of_their_own(tmp_path):
    with _serve(tmp_path, "1") as (base, master):
        _busy(base)
        workers = worker_pids(master)
        cores = [_cores(pid) for pid in workers]
        assert all(len(found) == 1 for found in cores), cores  # every thread alike
        single = [next(iter(found)) for found in cores]
        assert all(len(core) == 1 for core in single), single
        assert len(set(single)) == len(workers) == 2  # no two workers share a core


@needs_two_cores
def test_a_worker_started_in_place_of_a_dead_one_takes_the_core_it_left(tmp_path):
    with _serve(tmp_path, "1") as (base, master):
        # The younger: a core chosen by the order of starting would give its successor
        # the older one's core.
        older, younger = sorted(worker_pids(master))
        left = _cores(younger)
        os.kill(younger, signal.SIGKILL)
        new = _pinned_replacement(master, younger, older)
        assert _cores(new) == left
        assert _cores(older) != left


def _pinned_replacement(master, dead: int, alive: int) -> int:
    """The worker started in place of `dead`, once it has pinned itself (its first
    step after the fork)."""

    def pinned() -> int | None:
        new = [pid for pid in worker_pids(master) if pid not in (dead, alive)]
        cores = _cores(new[0]) if new else set()
        return new[0] if cores and all(len(core) == 1 for core in cores) else None

    return until(pinned, 10, "a pinned worker in place of the killed one", every=0.05)


@needs_two_cores
def test_pin_0_leaves_the_cores_to_the_kernel(tmp_path):
    with _serve(tmp_path, "0") as (base, master):
        _busy(base)
        every = frozenset(os.sched_getaffinity(0))
        assert all(_cores(pid) == {every} for pid in worker_pids(master))


def test_a_worker_that_cannot_be_pinned_serves_unpinned_and_says_so(caplog):
    """A core taken away between the master's choice and the fork (a changed cpuset):
    the worker starts anyway, and the log says why it is not pinned."""
    spec = importlib.util.spec_from_file_location("gunicorn_conf", ROOT / "gunicorn.conf.py")
    assert spec and spec.loader
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    log = logging.getLogger("test-gunicorn")
    worker = SimpleNamespace(pid=os.getpid(), cpu=1_000_000)  # no such core
    interval, cores = sys.getswitchinterval(), os.sched_getaffinity(0)
    try:
        with caplog.at_level(logging.WARNING, logger="test-gunicorn"):
            conf.post_fork(SimpleNamespace(log=log), worker)
    finally:
        sys.setswitchinterval(interval)
    assert "not pinned to core 1000000" in caplog.text
    assert os.sched_getaffinity(0) == cores  # this process's cores are left as they were


def _conf():
    spec = importlib.util.spec_from_file_location("gunicorn_conf", ROOT / "gunicorn.conf.py")
    assert spec and spec.loader
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    return conf


@pytest.mark.parametrize(
    ("length", "sent", "trimmed"),
    [("300000", 0, True), ("", 300_000, True), ("1000", 2000, False), ("²", 0, False)],
)
def test_a_worker_hands_back_freed_memory_after_a_large_request(monkeypatch, length, sent, trimmed):
    """Issue 33: workers grew 54-88 MB in a minute of attacks, memory that Python had
    freed after large bodies and answers and glibc kept. After a request that moved
    TRIM_AFTER_BYTES or more, post_request trims (docs/PERFORMANCE.md, "Mixed soak")."""
    conf = _conf()
    calls = []
    monkeypatch.setattr(conf, "release_freed_memory", lambda: calls.append(1))
    worker = SimpleNamespace(watchdog=SimpleNamespace(end=lambda: None))
    conf.post_request(worker, None, {"CONTENT_LENGTH": length}, SimpleNamespace(sent=sent))
    assert bool(calls) is trimmed
    conf.release_freed_memory()  # the real one, on this process: harmless, no error
