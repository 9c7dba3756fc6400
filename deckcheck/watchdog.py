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

Where the exception lands matters: only inside the app is it answered 503. Raised at any
Python step, it once landed after the view, in an `after_request` hook (Flask answered
500), in a teardown or in gunicorn's own code between the app and the first byte written
(both escaped to gunicorn, which answered 500). So the watchdog raises only into a
request that is *inside*: `guard` wraps the app (gunicorn.conf.py), marks each request
inside while the app runs and while it makes each piece of the body, and takes back an
exception raised but not yet landed when the request steps outside. A request stopped
while outside is answered 503 at its next step inside, or, once its first bytes are out,
has its connection closed. So an exception landing after the view, which Flask answers
with its 500 handler, is answered 503 in its place.

Budgets inside the service (batch lines and time, suggestions, export size) keep every
request far below `seconds`: this is the last line, not the way requests end.
"""

from __future__ import annotations

import ctypes
import json
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from werkzeug.wrappers import Request

from deckcheck.errors import TIMED_OUT, RequestTimedOut, error_body, wants_json

TICK = 0.5  # seconds between two looks


@dataclass
class Running:
    started: float
    label: str
    interrupted: float | None = None
    inside: bool = False  # in the app (guard), where RequestTimedOut is answered 503


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
        with self._lock:
            self.running.pop(threading.get_ident(), None)

    def enter(self) -> bool:
        """The request steps into the app; True when it was already stopped."""
        with self._lock:
            request = self.running.get(threading.get_ident())
            if request is None:
                return False
            request.inside = True
            return request.interrupted is not None

    def leave(self) -> None:
        """The request steps out of the app. Under the lock, so look() cannot raise into it
        any more; an exception it raised that has not landed yet is taken back, so none
        lands in gunicorn's code. The request stays stopped: its next step in answers 503.

        The take-back is the first call under the lock, its thread id made before: CPython
        delivers a pending exception at the end of a call (a look-up in `running` was
        enough), so while leave() waited for the lock that look() held as it raised, the
        exception landed in leave() itself. Taking back when none is pending does nothing.
        """
        ident = threading.get_ident()
        thread = ctypes.c_ulong(ident)
        with self._lock:
            _SET_ASYNC_EXC(thread, None)
            request = self.running.get(ident)
            if request is not None:
                request.inside = False

    def guard(self, app: Callable) -> Guard:
        """`app` (a WSGI callable) with this watchdog's requests marked inside it."""
        return Guard(app, self)

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
                    if request.inside:  # outside, it is stopped at its next step in
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


# CPython's API: raise an exception in a thread at its next check; None takes back one
# raised that has not landed yet.
_SET_ASYNC_EXC = ctypes.pythonapi.PyThreadState_SetAsyncExc


def _raise_in(ident: int, exception: type[BaseException]) -> None:
    """Raise `exception` in thread `ident` at its next Python bytecode check."""
    done = _SET_ASYNC_EXC(ctypes.c_ulong(ident), ctypes.py_object(exception))
    if done > 1:  # more than one thread state hit: undo, as the C API's documentation asks
        _SET_ASYNC_EXC(ctypes.c_ulong(ident), None)


# ---------------------------------------------------------------- the guard


class Guard:
    """A WSGI app whose requests are inside while it runs and while it makes each piece
    of the body. Its start_response is held until the first piece is ready, so a request
    stopped before then is answered 503 `request-timeout` instead."""

    def __init__(self, app: Callable, watchdog: Watchdog) -> None:
        self.app, self.watchdog = app, watchdog

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        held = Held(environ, start_response)
        body: Any = None
        try:
            if self.watchdog.enter():
                raise RequestTimedOut
            body = self.app(environ, held.start_response)
            self.watchdog.leave()
        except RequestTimedOut:
            self.watchdog.leave()  # the one exception has landed: none is pending now
            _close(body)
            return held.timed_out()
        if held.status is not None and isinstance(body, environ.get("wsgi.file_wrapper", ())):
            held.send()  # a file is sent as is: no app code runs while it goes out
            return body
        return Body(body, held, self.watchdog)


class Held:
    """The status and headers the app gave, sent on when the body's first piece is ready."""

    def __init__(self, environ: dict, start_response: Callable) -> None:
        self.environ, self.forward = environ, start_response
        self.status: str | None = None
        self.headers: list[tuple[str, str]] = []
        self.sent = False
        self.write: Callable[[bytes], Any] | None = None

    def start_response(self, status: str, headers: list, exc_info: Any = None) -> Callable:
        if self.sent:
            return self.forward(status, headers, exc_info)
        self.status, self.headers = status, headers
        return self._write

    def _write(self, data: bytes) -> None:  # the WSGI write() callable; Flask never uses it
        (self.write or self.send())(data)

    def send(self) -> Callable:
        self.sent = True
        self.write = self.forward(self.status, self.headers)
        return self.write

    def timed_out(self) -> list[bytes]:
        """The 503 of deckcheck.errors, made here: the request is outside Flask now."""
        code, message = TIMED_OUT
        if wants_json(Request(self.environ)):
            body = json.dumps(error_body(code, message)).encode()
            kind = "application/json"
        else:
            body = f"<!doctype html><title>503</title><p>{message}</p>\n".encode()
            kind = "text/html; charset=utf-8"
        self.status = "503 SERVICE UNAVAILABLE"
        self.headers = [
            ("Content-Type", kind),
            ("Content-Length", str(len(body))),
            ("Retry-After", "5"),
            ("Content-Security-Policy", "default-src 'none'"),
            ("X-Content-Type-Options", "nosniff"),
        ]
        self.send()
        return [body]


class Body:
    """The app's body, each piece made inside; gunicorn writes it outside."""

    def __init__(self, body: Iterable[bytes], held: Held, watchdog: Watchdog) -> None:
        self.body, self.held, self.watchdog = body, held, watchdog
        self.pieces: Iterator[bytes] = iter(body)

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        try:
            if self.watchdog.enter() and not (self.held.status or "").startswith("503"):
                raise RequestTimedOut  # stopped while outside (a 503 already is the answer)
            piece = next(self.pieces)
            self.watchdog.leave()
        except StopIteration:
            self.watchdog.leave()
            if not self.held.sent:
                self.held.send()
            raise
        except RequestTimedOut:
            self.watchdog.leave()
            if self.held.sent:
                raise  # its first bytes are out: gunicorn closes the connection
            self.pieces = iter(self.held.timed_out())
            return next(self.pieces)
        if not self.held.sent:
            self.held.send()
        return piece

    def close(self) -> None:
        _close(self.body)


def _close(body: Any) -> None:
    if hasattr(body, "close"):
        body.close()
