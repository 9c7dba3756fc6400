"""Where the watchdog's exception lands (deckcheck.watchdog): a request it stops is
answered 503 `request-timeout`, never 500, wherever the request is at that moment.

Once under load an interrupted request was answered 500: the exception is raised at
the thread's next Python step, and that step could be after the view (an after_request
hook, a teardown) or in gunicorn's own code. Here each place is hit on purpose: in
process, the request's own thread runs what gunicorn runs for it and the watchdog's
look() runs on another thread at the chosen moment; then through a real gunicorn with
gunicorn.conf.py, with hooks that run past its timeout in Python steps."""

from __future__ import annotations

import inspect
import json
import sys
import threading
import time

import pytest
import requests
from production_server import serving
from werkzeug.test import EnvironBuilder

from deckcheck import create_app
from deckcheck.watchdog import RequestTimedOut, Watchdog


@pytest.fixture
def made(tmp_path):
    """(app, watchdog): the real app as production runs it (exceptions not propagated)."""
    (tmp_path / "formats").mkdir()
    app = create_app(
        {
            "TESTING": True,
            "PROPAGATE_EXCEPTIONS": False,  # as in production: Flask answers, never raises
            "DATABASE": str(tmp_path / "cards.db"),
            "FORMATS_DIR": str(tmp_path / "formats"),
            "EVENTS_DATABASE": str(tmp_path / "events.db"),
            "CARD_IMAGES": "off",
        }
    )
    return app, Watchdog(seconds=10, log=lambda message: None)


def interrupt(dog: Watchdog) -> None:
    """The watchdog's thread looks now, as if the request had run a minute: its exception,
    if it raises one, lands in this (the request's) thread at its next Python step."""
    looker = threading.Thread(target=dog.look, args=(time.monotonic() + 60,))
    looker.start()
    looker.join()


class Gunicorn:
    """What gunicorn's gthread worker does with one request, on this thread: pre_request,
    the WSGI call, each piece written (headers go with the first), close, post_request.
    start_response behaves as gunicorn's: a second call needs exc_info and adds headers."""

    def __init__(self, dog: Watchdog, wsgi) -> None:
        self.dog, self.wsgi = dog, wsgi
        self.status: str | None = None
        self.headers: list[tuple[str, str]] = []
        self.sent = False
        self.between = lambda: None  # gunicorn's own steps between the app and the first write

    def start_response(self, status, headers, exc_info=None):
        if exc_info and self.sent:
            raise exc_info[1]
        if self.status is not None and not exc_info:
            raise AssertionError("Response headers already set!")
        self.status = status
        self.headers += headers
        return lambda data: None

    def get(self, path: str, **headers) -> tuple[str, list[tuple[str, str]], bytes]:
        environ = EnvironBuilder(path=path, headers=headers).get_environ()
        self.dog.begin(f"GET {path}")
        try:
            body = self.wsgi(environ, self.start_response)
            self.between()
            pieces = []
            try:
                for piece in body:
                    self.sent = True  # gunicorn's write() sends the headers, even for b""
                    pieces.append(piece)
            finally:
                if hasattr(body, "close"):
                    body.close()
            assert self.status is not None
            return self.status, self.headers, b"".join(pieces)
        finally:
            self.dog.end()


def timed_out(status: str, headers: list[tuple[str, str]], body: bytes) -> bool:
    names = [name.lower() for name, _ in headers]
    assert len(names) == len(set(names)), headers  # one status, one set of headers
    return (
        status.startswith("503")
        and ("Retry-After", "5") in headers
        and json.loads(body)["error"]["code"] == "request-timeout"
    )


def test_an_interrupt_raised_as_the_request_leaves_is_taken_back():
    """Issue 33: the take-back in leave() had no test, and did nothing: look() raises
    holding the lock that leave() waits for, and CPython delivered the exception at
    leave()'s first call, before the take-back. Here the request's thread waits in
    leave() while look() raises into it (the lock is made re-entrant so that look() runs
    as it is, on the thread holding it): nothing lands after leave(), and the request's
    next step in is stopped."""
    dog = Watchdog(seconds=10, log=lambda message: None)
    dog._lock = threading.RLock()
    inside, go, seen = threading.Event(), threading.Event(), {}

    def request():
        dog.begin("GET /leaving")
        dog.enter()
        inside.set()
        go.wait(5)
        try:
            dog.leave()
            for step in range(100_000):  # Python steps, calls: where it would land
                len(str(step))
            seen["landed"] = False
        except RequestTimedOut:
            seen["landed"] = True
        seen["stopped"] = dog.enter()
        dog.leave()
        dog.end()

    thread = threading.Thread(target=request)
    thread.start()
    assert inside.wait(5)
    with dog._lock:
        go.set()
        deadline = time.monotonic() + 5
        while not _waits_in_leave(thread) and time.monotonic() < deadline:
            time.sleep(0.001)  # polled: the thread reaching the lock has no event of its own
        assert _waits_in_leave(thread)
        dog.look(time.monotonic() + 60)
    thread.join(5)
    assert seen == {"landed": False, "stopped": True}


def _waits_in_leave(thread: threading.Thread) -> bool:
    """Is `thread` at leave()'s `with self._lock:` (nothing after it checks for an
    exception before the lock is taken)?"""
    lines, first = inspect.getsourcelines(Watchdog.leave)
    at = first + next(n for n, line in enumerate(lines) if "with self._lock:" in line)
    frame = sys._current_frames().get(thread.ident)
    return frame is not None and frame.f_code is Watchdog.leave.__code__ and frame.f_lineno == at


def test_an_interrupt_in_the_view_is_a_503(made):
    app, dog = made
    app.before_request(lambda: interrupt(dog))
    assert timed_out(*Gunicorn(dog, dog.guard(app)).get("/api/v1/health"))


def test_an_interrupt_in_an_after_request_hook_is_a_503_not_a_500(made):
    """Flask hands an exception raised after the view to its 500 handler."""
    app, dog = made

    def late(response):
        interrupt(dog)
        return response

    app.after_request(late)
    assert timed_out(*Gunicorn(dog, dog.guard(app)).get("/api/v1/health"))


def test_an_interrupt_in_a_teardown_is_a_503(made):
    """An exception in a teardown leaves Flask altogether: gunicorn would answer 500."""
    app, dog = made
    app.teardown_appcontext(lambda error: interrupt(dog))
    assert timed_out(*Gunicorn(dog, dog.guard(app)).get("/api/v1/health"))


def test_no_interrupt_lands_in_gunicorns_own_steps(made):
    """Stopped between the app's answer and its first byte (gunicorn's code, where an
    exception is a 500): nothing is raised there, and the answer is the 503."""
    app, dog = made
    server = Gunicorn(dog, dog.guard(app))

    def gunicorns_steps():
        interrupt(dog)
        for _ in range(1000):  # Python steps, function calls: where an exception would land
            len(str(_))

    server.between = gunicorns_steps
    assert timed_out(*server.get("/api/v1/health"))


def test_an_html_page_stopped_in_a_teardown_is_a_503_page(made):
    app, dog = made
    app.teardown_appcontext(lambda error: interrupt(dog))
    status, headers, body = Gunicorn(dog, dog.guard(app)).get("/", Accept="text/html")
    assert status.startswith("503") and b"took longer than the server allows" in body
    assert ("Content-Type", "text/html; charset=utf-8") in headers


def streamed(app, dog, stop_at: int):
    """A route whose body is made piece by piece (as the events CSV is), stopped while
    it makes piece number `stop_at` (0: the first)."""
    from flask import Response

    def pieces():
        for number in range(3):
            if number == stop_at:
                interrupt(dog)
            yield b"piece %d" % number

    app.add_url_rule("/api/v1/streamed", "streamed", lambda: Response(pieces()))


def test_a_body_stopped_before_its_first_piece_is_a_503(made):
    app, dog = made
    streamed(app, dog, stop_at=0)
    assert timed_out(*Gunicorn(dog, dog.guard(app)).get("/api/v1/streamed"))


def test_a_body_stopped_after_its_first_piece_ends_the_connection(made):
    """Its status is out: closing the connection (gunicorn does) is all that is left."""
    app, dog = made
    streamed(app, dog, stop_at=1)
    with pytest.raises(RequestTimedOut):
        Gunicorn(dog, dog.guard(app)).get("/api/v1/streamed")


def test_a_request_never_stopped_is_answered_as_the_app_answers(made):
    app, dog = made
    status, headers, body = Gunicorn(dog, dog.guard(app)).get("/api/v1/health")
    assert status.startswith("200") and b'"ok"' in body
    assert dog.running == {}


# -- through gunicorn with gunicorn.conf.py ------------------------------------------

LATE_APP = """
import time

from flask import request

from deckcheck import create_app

app = create_app()


def spin(where):
    # Python steps past the timeout, once a request (Flask runs after_request hooks again
    # on the answer its error handler makes).
    if request.args.get("spin") == where and not request.environ.get("spun"):
        request.environ["spun"] = True
        until = time.monotonic() + 3 * {timeout}
        while time.monotonic() < until:
            pass


@app.after_request
def after(response):
    spin("after")
    return response


@app.teardown_request
def teardown(error):
    spin("teardown")
"""
TIMEOUT = 2


@pytest.fixture(scope="module")
def late_server(tmp_path_factory):
    source = LATE_APP.replace("{timeout}", str(TIMEOUT))
    with serving(tmp_path_factory.mktemp("late"), "lateapp", source, TIMEOUT) as (base, _):
        yield base


@pytest.mark.parametrize("where", ["after", "teardown"])
def test_gunicorn_answers_503_when_the_timeout_falls_after_the_view(late_server, where):
    response = requests.get(
        late_server + "/api/v1/health", params={"spin": where}, timeout=6 * TIMEOUT
    )
    assert response.status_code == 503, response.text
    assert response.json()["error"]["code"] == "request-timeout"
    assert response.headers["Retry-After"] == "5"
    assert requests.get(late_server + "/api/v1/health", timeout=5).status_code == 200
