"""What a client may send and what the service sends back on every response.

Bodies are cut to their limit before any view runs, whatever their encoding: a
`Content-Length` over the limit is refused before a byte is read, and a chunked
body (no length) is read at most one byte past the limit. Responses carry headers
that forbid inline script, framing and sniffing.
"""

from __future__ import annotations

import io
from urllib.parse import urlsplit, urlunsplit

from flask import Flask, current_app, request
from flask.sessions import SecureCookieSessionInterface
from gunicorn.http.errors import ParseException
from itsdangerous import URLSafeTimedSerializer
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge

from deckcheck import images

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src {img}; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
READ_CHUNK = 64 * 1024
# What a server's body stream raises for a body it cannot read: a malformed chunk
# (gunicorn's ParseException: a bad size, a missing CRLF), a body that ends early
# (gunicorn's NoMoreData is an OSError), a reset, a bad length (ValueError).
BODY_ERRORS = (OSError, ValueError, ParseException)
BATCH_ENDPOINTS = frozenset({"api.validate_batch"})


def body_limit() -> int:
    """The byte limit of the current request's body (contract: "Limits")."""
    key = "BATCH_BODY_LIMIT" if request.endpoint in BATCH_ENDPOINTS else "BODY_LIMIT"
    return current_app.config[key]


def _bound_body() -> None:
    limit = body_limit()
    request.max_content_length = limit
    length = request.content_length
    if length is not None:
        if length > limit:
            raise RequestEntityTooLarge()
        return
    environ = request.environ
    # Without a length the body is only readable when the server marks where it ends
    # (gunicorn and the Werkzeug server do for chunked bodies); otherwise Werkzeug
    # hands the view an empty stream and there is nothing to bound.
    if not environ.get("wsgi.input_terminated"):
        return
    body = _read_at_most(environ["wsgi.input"], limit)
    environ["wsgi.input"] = io.BytesIO(body)
    environ["CONTENT_LENGTH"] = str(len(body))
    environ.pop("HTTP_TRANSFER_ENCODING", None)


def _read_at_most(stream, limit: int) -> bytes:
    """The whole stream, or 413 as soon as it holds more than `limit` bytes; 400 for a
    body the server cannot read (the client's error, never a 500)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        try:
            chunk = stream.read(min(READ_CHUNK, limit + 1 - size))
        except BODY_ERRORS as err:
            raise BadRequest(
                "The request body could not be read: a chunk of it is malformed, or it "
                "ended before its last chunk."
            ) from err
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > limit:
            raise RequestEntityTooLarge()
        chunks.append(chunk)


def csp(hosts: list[str]) -> str:
    """The policy: images from this service and the configured card image hosts only."""
    return CSP.format(img=" ".join(["'self'", *hosts]))


FIXED_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
)


def _headers(response):
    """The security headers a response has not set itself. The names it has are read
    once: `headers.setdefault` raises and catches a KeyError for each header missing,
    which is each header on almost every response."""
    headers = response.headers
    present = {name.lower() for name, _ in headers}
    if "content-security-policy" not in present:
        headers.add("Content-Security-Policy", current_app.config["CSP"])
    for name, value in FIXED_HEADERS:
        if name.lower() not in present:
            headers.add(name, value)
    if "location" in present:
        _location_not_from_host(response)
    return response


def _location_not_from_host(response) -> None:
    """A redirect werkzeug's routing makes by itself (`/static//style.css` to the merged
    path, a missing trailing slash) is built from the request's Host header:
    `Host: evil.example` got `Location: http://evil.example/static/style.css`, a link to
    anywhere a cache would keep. Links the service builds are relative, or absolute from
    DECKCHECK_BASE_URL (contract, "Limits"), so such a Location is made so too."""
    where = urlsplit(response.headers["Location"])
    if not where.netloc or where.netloc != request.host:
        return  # relative already, or built from DECKCHECK_BASE_URL
    # One leading slash: `//host/path` would be another site's address again.
    path = "/" + where.path.lstrip("/")
    relative = urlunsplit(("", "", path, where.query, where.fragment))
    response.headers["Location"] = current_app.config.get("BASE_URL", "") + relative


class CookieSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions (events pages keep sealed edit tokens there:
    deckcheck.server.kept_tokens), with the signing serializer made once per secret key:
    Flask makes one on every request, to open a session that most requests (every API
    call) never read.

    The cookie is always HttpOnly and SameSite=Lax (a cross-site post carries none), and
    Secure when the request came over https or DECKCHECK_BASE_URL is https (contract,
    "Accounts": the one rule for every cookie the service sets)."""

    def get_cookie_httponly(self, app: Flask) -> bool:
        return True

    def get_cookie_samesite(self, app: Flask) -> str:
        return app.config["SESSION_COOKIE_SAMESITE"] or "Lax"

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(
            app.config["SESSION_COOKIE_SECURE"]
            or request.is_secure
            or app.config.get("BASE_URL", "").startswith("https://")
        )

    _made: tuple[tuple, URLSafeTimedSerializer | None] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        made = self._made
        if made is None or made[0] != keys:
            made = self._made = (keys, super().get_signing_serializer(app))
        return made[1]


def init_app(app: Flask) -> None:
    # The image setting is read here: the policy's img-src is made of its hosts.
    images.init_app(app)
    app.config["CSP"] = csp(app.extensions["deckcheck.images"].hosts)
    app.session_interface = CookieSessions()
    app.before_request(_bound_body)
    app.after_request(_headers)
