"""What every product's views share about a request and its answer: the bearer token
it brings, the public address links are built on, a 503 when the database is busy,
and a streamed page in pieces."""

from __future__ import annotations

from collections.abc import Iterator

from flask import current_app, make_response, render_template, request
from sqlalchemy.exc import OperationalError

from deckcheck.errors import error_response, wants_json
from deckcheck.server import writable


def busy_response(err: Exception):
    """The database did not answer in time (a lock held too long, a statement timeout,
    a connection lost): a 503 to send again, never a 500. Nothing was stored."""
    current_app.logger.warning("events database unavailable: %s", writable.cause(_driver(err)))
    message = "The events database is busy right now. Nothing was stored: send it again."
    if wants_json():
        response = error_response(503, "events-busy", message)
    else:
        page = render_template("error.html", status=503, message=message)
        response = make_response(page, 503)
    response.headers["Retry-After"] = "1"
    return response


def _driver(err: Exception) -> BaseException:
    """The database driver's own error under SQLAlchemy's wrapper (what names the cause)."""
    return getattr(err, "orig", None) or err


def in_pieces(parts: Iterator[str], size: int = 32 * 1024) -> Iterator[str]:
    """A streamed page in pieces of about `size` characters: Jinja yields one piece per
    template statement, 100 per row of the table, and each piece a server writes costs
    more than writing its characters (a 2,000-player table: 200,000 pieces)."""
    held: list[str] = []
    length = 0
    for part in parts:
        held.append(part)
        length += len(part)
        if length >= size:
            yield "".join(held)
            held, length = [], 0
    if held:
        yield "".join(held)


def base_url() -> str:
    return (current_app.config.get("BASE_URL") or "").rstrip("/")


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def init_app(app) -> None:
    """One handler for the one database error, whichever product's view met it: a
    statement that could not get the database in time is a 503 to send again."""
    app.register_error_handler(OperationalError, busy_response)
