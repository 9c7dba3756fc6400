"""A request that still runs past its budget does not keep its worker (contract, "Limits").

gunicorn's `timeout` only notices a worker whose main loop stops: a gthread worker's
main loop goes on while one of its threads is pinned by a request, so the setting never
fired for a request (a 52 s batch ran to its end). gunicorn.conf.py registers every
request here (pre_request / post_request, on the request's own thread), and one thread
per worker looks at them twice a second:

1. A request running longer than `seconds` (the worker `timeout`) is interrupted: a
   RequestTimedOut is raised in its thread at its next Python step. The app answers it
   as a 503 `request-timeout` (deckcheck.errors) and the thread serves the next request.
2. A request still running `grace` seconds after that is stuck where Python cannot
   interrupt it (inside C code). The worker stops accepting connections, lets its other
   requests finish (at most `drain` seconds), and exits; the master starts a new one.

Budgets inside the service (batch lines and time, suggestions, export size) keep every
request far below `seconds`: this is the last line, not the way requests end.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

TICK = 0.5  # seconds between two looks


class RequestTimedOut(Exception):
    """Raised inside a request's thread by the watchdog: the request ran out of time."""


@dataclass
class Running:
    started: float
    label: str
    interrupted: float | None = None


class Watchdog:
    def __init__(
        self,
        seconds: float,
        grace: float = 5.0,
        drain: float = 10.0,
        log: Callable[[str], None] = print,
        stop_accepting: Callable[[], None] = lambda: None,
        exit_process: Callable[[int], None] = os._exit,
    ) -> None:
        self.seconds, self.grace, self.drain = seconds, grace, drain
        self.log = log
        self.stop_accepting = stop_accepting
        self.exit_process = exit_process
        self.running: dict[int, Running] = {}  # thread ident -> its request
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    # -- called on a request's own thread --------------------------------------

    def begin(self, label: str) -> None:
        self.running[threading.get_ident()] = Running(time.monotonic(), label[:200])

    def end(self) -> None:
        ident = threading.get_ident()
        try:
            # Waits out a look() that may be raising into this thread right now: its
            # exception then lands here, and `finally` still takes the request off.
            with self._lock:
                pass
        finally:
            self.running.pop(ident, None)

    # -- the watchdog's own thread ----------------------------------------------

    def start(self) -> None:
        self._thread = threading.Thread(target=self._watch, name="deckcheck-watchdog", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while True:
            time.sleep(TICK)
            if self.look(time.monotonic()):
                self._abort()
                return

    def look(self, now: float) -> bool:
        """Interrupt requests past `seconds`; True when one is stuck past the grace."""
        stuck = False
        with self._lock:
            for ident, request in list(self.running.items()):
                if request.interrupted is None and now - request.started > self.seconds:
                    request.interrupted = now
                    self.log(
                        f"request {request.label} ran {now - request.started:.1f} s, past the "
                        f"{self.seconds:g} s timeout: interrupted"
                    )
                    _raise_in(ident, RequestTimedOut)
                elif request.interrupted is not None and now - request.interrupted > self.grace:
                    self.log(
                        f"request {request.label} did not stop {self.grace:g} s after it was "
                        "interrupted: this worker stops and the master starts a new one"
                    )
                    stuck = True
        return stuck

    def _abort(self) -> None:
        """Stop accepting, let the requests that are not stuck finish, exit."""
        self.stop_accepting()
        until = time.monotonic() + self.drain
        while time.monotonic() < until:
            with self._lock:
                others = [r for r in self.running.values() if r.interrupted is None]
            if not others:
                break
            time.sleep(0.05)
        self.exit_process(1)


def _raise_in(ident: int, exception: type[BaseException]) -> None:
    """Raise `exception` in thread `ident` at its next Python bytecode (CPython API)."""
    done = ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(ident), ctypes.py_object(exception)
    )
    if done > 1:  # more than one thread state hit: undo, as the C API's documentation asks
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), None)
