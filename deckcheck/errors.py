"""Every error the service answers with, in one shape.

JSON (the API, and any client asking for JSON):
    {"error": {"code": "<stable-slug>", "message": "<sentence>", "details": {...}}}
HTML (pages): a friendly page, never a stack trace.
"""

from __future__ import annotations

import socket
import time
from typing import Any

from flask import Flask, current_app, jsonify, make_response, render_template, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed
from werkzeug.wrappers import Request
from werkzeug.wsgi import get_content_length

from deckcheck.security import BODY_ERRORS

HTTP_CODES = {
    400: ("bad-request", "The request could not be read."),
    404: ("not-found", "There is nothing at this address."),
    405: ("method-not-allowed", "This address does not accept that method."),
    413: ("body-too-large", "The request body is larger than this address accepts."),
    415: (
        "unsupported-media-type",
        "This address reads a JSON object only: send JSON (Content-Type: application/json).",
    ),
    422: ("invalid-request", "The request is not valid."),
    429: ("too-many-requests", "Too many requests; try again shortly."),
}
TIMED_OUT = (
    "request-timeout",
    "This request took longer than the server allows and was stopped. "
    "Try again with less in it (fewer decks, a shorter list).",
)


# A 413 is answered once the body is read and dropped, up to these bounds: a server
# that closes while the client is still sending makes the client's system reset the
# connection, and the client never reads the 413. Beyond them the connection closes.
DRAIN_BYTES = 32 * 1024 * 1024
DRAIN_SECONDS = 5.0
DRAIN_CHUNK = 1024 * 1024  # large reads: gunicorn copies what it holds on each read


class RequestTimedOut(Exception):
    """Raised inside a request's thread by the worker's watchdog (deckcheck.watchdog): the
    request ran out of time. Defined here, with its 503, so the watchdog imports this
    module and not the other way round."""


class ApiError(Exception):
    """An error a view raises on purpose, with its stable code."""

    def __init__(self, status: int, code: str, message: str, details: dict | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.details = status, code, message, details or {}

    def body(self) -> dict:
        return error_body(self.code, self.message, self.details)


def error_body(code: str, message: str, details: dict | None = None) -> dict:
    """The one place an error body is built (a test holds every route to it)."""
    return {"error": {"code": code, "message": message, "details": details or {}}}


def error_response(status: int, code: str, message: str, details: dict | None = None):
    response = jsonify(error_body(code, message, details))
    response.status_code = status
    return response


def wants_json(asked: Request | None = None) -> bool:
    """Does the client want its error as JSON? `asked`: a request outside Flask (the
    watchdog's); default, the one being answered."""
    if asked is None:
        asked = request
    if asked.path.startswith("/api/"):
        return True
    accept = asked.accept_mimetypes
    best = accept.best_match(["text/html", "application/json"])
    return best == "application/json" and accept[best] > accept["text/html"]


def _http_error(err: HTTPException):
    status = err.code or 500
    code, message = HTTP_CODES.get(status, ("error", err.description or "Request failed."))
    allowed = sorted(err.valid_methods or ()) if isinstance(err, MethodNotAllowed) else []
    details: dict[str, Any] = {}
    if allowed:
        details["allowed"] = allowed
    if status == 413:
        details["limit_bytes"] = request.max_content_length
        drain_body()
    if wants_json():
        response = error_response(status, code, message, details)
    else:
        response = make_response(
            render_template("error.html", status=status, message=message), status
        )
    if allowed:
        # RFC 9110: a 405 names what the address does accept.
        response.headers["Allow"] = ", ".join(allowed)
    return response


def drain_body() -> None:
    """Read and drop what is left of the request body, at most DRAIN_BYTES and
    DRAIN_SECONDS (a slow sender is given up on, not waited for), so the 413 reaches
    the client instead of a connection reset. A body read whole leaves the connection
    usable; one given up on is closed by gunicorn, which then finds bytes unread."""
    environ = request.environ
    length = get_content_length(environ)
    if length is not None and length > DRAIN_BYTES:
        return  # too much to read for an error: close and let the client see why
    stream = environ.get("wsgi.input")
    sock = environ.get("gunicorn.socket")
    if stream is None:
        return
    left = DRAIN_BYTES if length is None else length
    until = time.monotonic() + DRAIN_SECONDS
    before = sock.gettimeout() if isinstance(sock, socket.socket) else None
    try:
        while left > 0:
            remaining = until - time.monotonic()
            if remaining <= 0:
                return
            if isinstance(sock, socket.socket):
                sock.settimeout(remaining)  # one read never waits past the deadline
            chunk = stream.read(min(DRAIN_CHUNK, left))
            if not chunk:
                return
            left -= len(chunk)
    except BODY_ERRORS:
        return  # a timeout, a reset, a malformed chunk: the connection closes anyway
    finally:
        if isinstance(sock, socket.socket):
            sock.settimeout(before)


def _api_error(err: ApiError):
    if wants_json():
        response = error_response(err.status, err.code, err.message, err.details)
    else:
        page = render_template("error.html", status=err.status, message=err.message)
        response = make_response(page, err.status)
    if err.status == 503:
        response.headers["Retry-After"] = "5"  # a 503 of ours is always "send it again"
    return response


def _timed_out(err: RequestTimedOut):
    # The worker's watchdog stopped this request (deckcheck.watchdog): the service's
    # own budgets should have ended it first, so it is logged as a fault of ours.
    current_app.logger.error("request stopped by the watchdog: %s %s", request.method, request.path)
    code, message = TIMED_OUT
    if wants_json():
        response = error_response(503, code, message)
    else:
        response = make_response(render_template("error.html", status=503, message=message), 503)
    response.headers["Retry-After"] = "5"
    return response


def _unexpected(err: Exception):
    # HTTP errors never get here (their own handler is more specific). Logged with its
    # traceback; the client sees a plain sentence only.
    current_app.logger.exception("unexpected error")
    message = "Something went wrong on our side. Please try again."
    if wants_json():
        return error_response(500, "internal-error", message)
    return render_template("error.html", status=500, message=message), 500


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(RequestTimedOut, _timed_out)
    app.register_error_handler(Exception, _unexpected)
