"""The production server (`gunicorn -c gunicorn.conf.py`) serving a test app.

Tests of what only a real gunicorn shows (the watchdog, worker replacement) write a
small app module that wraps deckcheck's, and serve it with the real configuration.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import requests
import starter
from conftest import ROOT

T = TypeVar("T")


@contextmanager
def serving(
    folder: Path, module: str, source: str, timeout: int, settings: dict[str, str] | None = None
) -> Iterator[tuple[str, subprocess.Popen]]:
    """(base URL, master process) of one gunicorn worker serving `module:app`, whose
    source is written to `folder`; `timeout` is the watchdog's; `settings`, more
    DECKCHECK_* variables (or others in place of these). Killed, with its workers, on
    leaving."""
    (folder / f"{module}.py").write_text(source)
    (folder / "formats").mkdir(exist_ok=True)
    # The card and events databases a new server would seed and migrate, as copies.
    chosen = {name.removeprefix("DECKCHECK_"): value for name, value in (settings or {}).items()}
    starter.copy_into(folder, chosen)
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(folder),
        "DECKCHECK_BIND": f"127.0.0.1:{port}",
        "DECKCHECK_DATABASE": str(folder / "cards.db"),
        "DECKCHECK_FORMATS_DIR": str(folder / "formats"),
        "DECKCHECK_EVENTS_DATABASE": str(folder / "events.db"),
        "DECKCHECK_SECRET_KEY": "k",
        "DECKCHECK_GUNICORN_WORKERS": "1",
        "DECKCHECK_GUNICORN_TIMEOUT": str(timeout),
        **starter.SERVER_ENV,
        **(settings or {}),
    }
    gunicorn = Path(sys.executable).parent / "gunicorn"
    process = subprocess.Popen(
        [str(gunicorn), "-c", "gunicorn.conf.py", f"{module}:app"],
        cwd=ROOT,
        env=env,
        start_new_session=True,  # so the master and its workers are killed together
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(base)
        yield base, process
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def worker_pids(master: subprocess.Popen) -> list[int]:
    """gunicorn's worker processes: the children of its master."""
    children = Path(f"/proc/{master.pid}/task/{master.pid}/children")
    return [int(pid) for pid in children.read_text().split()]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(base: str, seconds: float = 60) -> None:
    """Until the server's health check answers (AssertionError after `seconds`)."""
    until(
        lambda: requests.get(base + "/api/v1/health", timeout=5).ok,
        seconds,
        "the production server answering",
    )


def until(check: Callable[[], T], seconds: float, what: str, every: float = 0.1) -> T:
    """`check()`'s first truthy answer, asked every `every` s; a request that fails (the
    server not up yet, a worker being replaced) counts as no answer. AssertionError
    naming `what` after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            found = check()
        except requests.RequestException:
            found = None
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(every)
