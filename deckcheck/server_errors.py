"""The production server's worker: gunicorn's gthread worker, whose own error answers
are JSON on /api/ addresses, as every other error of the API (contract: errors are
never HTML there).

gunicorn answers some requests itself, before the app sees them: a request line longer
than `limit_request_line` (414), a header it cannot read (400), too many or too large
headers (431). Its answer is a small HTML page, whatever the address. This worker keeps
those statuses (gunicorn still decides what is wrong) and sends them in the API's shape
when the request was for /api/, and gunicorn's own page elsewhere.

An error raised while the request line is read comes before gunicorn knows the path, so
the request remembers the first bytes it read (`Request.head`): `GET /api/...` is at the
start of even the longest request line.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from gunicorn import util
from gunicorn.http.message import Request as GunicornRequest
from gunicorn.http.parser import RequestParser
from gunicorn.workers.gthread import ThreadWorker

from deckcheck.errors import error_body

HEAD_BYTES = 256  # enough for a method, a scheme and host, and "/api/"
CODES = {
    400: ("bad-request", "The request could not be read: {detail}"),
    414: (
        "uri-too-long",
        "The address is longer than the server reads ({limit:,} characters in the request "
        "line). Send a long deck in the body of a POST instead.",
    ),
    431: ("headers-too-large", "The request has too many headers, or one that is too long."),
    500: ("internal-error", "Something went wrong on our side. Please try again."),
}


class Request(GunicornRequest):
    """gunicorn's request, which remembers the start of what it read, and says on the
    error it raises whether the request was for the API (`error.for_api`)."""

    def __init__(self, *args, **kwargs) -> None:
        self.head = b""
        super().__init__(*args, **kwargs)  # reads and parses the request

    def read_into(self, unreader, buf, stop=False):
        super().read_into(unreader, buf, stop)
        if len(self.head) < HEAD_BYTES:
            self.head = bytes(buf[:HEAD_BYTES])

    def parse(self, unreader):
        try:
            return super().parse(unreader)
        except Exception as err:
            err.for_api = for_api(self.path or target(self.head))  # type: ignore[attr-defined]
            raise


def target(head: bytes) -> str:
    """The address of a request line's start: `GET /api/v1/x?... HTTP/1.1` -> `/api/v1/x?...`."""
    words = head.lstrip(b"\r\n").split(b" ", 2)
    return words[1].decode("latin-1") if len(words) > 1 else ""


def for_api(address: str) -> bool:
    if not address.startswith("/"):
        address = urlsplit(address).path  # the absolute form: GET http://host/api/...
    return address.startswith("/api/")


class Worker(ThreadWorker):
    """`worker_class` in gunicorn.conf.py: gthread, with JSON errors on /api/."""

    def init_process(self):
        # Every request of this worker process is read by the Request above. gunicorn makes
        # a parser per connection from this class attribute; it has no setting for it.
        RequestParser.mesg_class = Request
        super().init_process()

    def handle_error(self, req, client, addr, exc):
        wanted = getattr(exc, "for_api", None)
        if wanted is None and req is not None:
            wanted = for_api(req.path or "")
        if not wanted:
            return super().handle_error(req, client, addr, exc)
        # gunicorn decides the status and logs as it always does; only the page changes.
        captured = _Captured()
        super().handle_error(req, captured, addr, exc)
        status, reason = captured.status()
        try:
            util.write_nonblock(client, self.json_error(status, reason, exc))
        except Exception:
            self.log.debug("Failed to send error message.")

    def json_error(self, status: int, reason: str, exc: Exception) -> bytes:
        code, message = CODES.get(status, (_slug(reason), f"{reason}."))
        detail = str(exc)[:200] or reason
        message = message.format(detail=detail, limit=self.cfg.limit_request_line)
        body = json.dumps(error_body(code, message)).encode()
        head = (
            f"HTTP/1.1 {status} {reason}\r\n"
            "Connection: close\r\n"
            "Content-Type: application/json\r\n"
            "X-Content-Type-Options: nosniff\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        return head.encode("latin-1") + body


class _Captured:
    """A socket stand-in that keeps what gunicorn's error page would have sent."""

    def __init__(self) -> None:
        self.sent = b""

    def gettimeout(self) -> float:
        return 0.0

    def setblocking(self, flag: bool) -> None:
        pass

    def sendall(self, data: bytes) -> None:
        self.sent += data

    def status(self) -> tuple[int, str]:
        """(status, reason) of the captured answer's status line (500 if none came)."""
        line = self.sent.split(b"\r\n", 1)[0].decode("latin-1")
        words = line.split(" ", 2)
        if len(words) == 3 and words[1].isdigit():
            return int(words[1]), words[2]
        return 500, "Internal Server Error"


def _slug(reason: str) -> str:
    return "-".join(reason.lower().split()) or "error"
