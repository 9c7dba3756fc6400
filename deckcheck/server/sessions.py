"""Who is signed in: the account sessions, their cookie, and the same-origin rule.

The cookie carries one random value and nothing else; the database keeps its SHA-256
(`account_sessions.secret_hash`), so a copy of the database signs nobody in. It is
HttpOnly, SameSite=Lax, and Secure when the request came over https or the configured
DECKCHECK_BASE_URL is https. A state-changing request that carries the cookie and no
bearer token must come from this site (Sec-Fetch-Site, else Origin): a 403 `cross-site`
otherwise, before any view runs.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from flask import Flask, g, request
from sqlalchemy import select

from deckcheck.errors import ApiError
from deckcheck.server import http
from deckcheck.server.opened import database
from deckcheck.server.tables.accounts import account_sessions
from deckcheck.server.tokens import now_utc, token_hash

COOKIE = "deckcheck_session"
LIFETIME = timedelta(days=30)  # unused this long, a session ends
TOUCH_EVERY = timedelta(minutes=5)  # last_seen_at is written at most this often
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True)
class Session:
    id: str
    account_id: str


def _engine():
    return database().engine


def _writer():
    return database().writer


def current() -> Session | None:
    """The session of this request's cookie (read once per request), or None."""
    if "account_session" not in g:
        g.account_session = _lookup(request.cookies.get(COOKIE))
    return g.account_session


def account_id() -> str | None:
    found = current() if COOKIE in request.cookies else None
    return found.account_id if found is not None else None


def _lookup(secret: str | None) -> Session | None:
    if not secret or len(secret) > 100:
        return None
    query = select(account_sessions).where(account_sessions.c.secret_hash == token_hash(secret))
    with _engine().begin() as conn:
        row = conn.execute(query).first()
    if row is None:
        return None
    seen = datetime.fromisoformat(row.last_seen_at)
    now = datetime.now(UTC)
    if now - seen > LIFETIME:
        return None
    if now - seen > TOUCH_EVERY:
        with _writer().begin() as conn:
            conn.execute(
                account_sessions.update()
                .where(account_sessions.c.id == row.id)
                .values(last_seen_at=now_utc())
            )
    return Session(row.id, row.account_id)


def new_row(account: str) -> tuple[dict, str]:
    """A session row of `account` to insert (by `start`, or inside a sign-in's own
    transaction) and its cookie value."""
    secret = secrets.token_urlsafe(32)
    when = now_utc()
    row = {
        "id": secrets.token_urlsafe(9),
        "secret_hash": token_hash(secret),
        "account_id": account,
        "created_at": when,
        "last_seen_at": when,
    }
    return row, secret


def adopt(row: dict) -> None:
    """The request's session is now `row` (stored)."""
    g.account_session = Session(row["id"], row["account_id"])


def start(account: str) -> str:
    """A new session of `account`: its cookie value (give it with `give`)."""
    row, secret = new_row(account)
    with _writer().begin() as conn:
        conn.execute(account_sessions.insert(), row)
    adopt(row)
    return secret


def give(response, secret: str):
    response.set_cookie(
        COOKIE,
        secret,
        max_age=int(LIFETIME.total_seconds()),
        httponly=True,
        samesite="Lax",
        secure=_secure(),
        path="/",
    )
    return response


def forget(response):
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="Lax", secure=_secure())
    return response


def _secure() -> bool:
    return request.is_secure or http.base_url().startswith("https://")


def listed(account: str) -> list[dict]:
    query = (
        select(
            account_sessions.c.id, account_sessions.c.created_at, account_sessions.c.last_seen_at
        )
        .where(account_sessions.c.account_id == account)
        .order_by(account_sessions.c.created_at)
    )
    with _engine().begin() as conn:
        return [dict(r._mapping) for r in conn.execute(query)]


def end(account: str, session_id: str) -> bool:
    """Sign one session of `account` out; False: it has none of that id."""
    with _writer().begin() as conn:
        done = conn.execute(
            account_sessions.delete().where(
                account_sessions.c.id == session_id, account_sessions.c.account_id == account
            )
        ).rowcount
    return bool(done)


def end_others(account: str, keep: str | None) -> int:
    where = [account_sessions.c.account_id == account]
    if keep is not None:
        where.append(account_sessions.c.id != keep)
    with _writer().begin() as conn:
        return conn.execute(account_sessions.delete().where(*where)).rowcount


# -- the same-origin rule -------------------------------------------------------


def site_origin() -> str:
    """This site's origin: DECKCHECK_BASE_URL's when set, else the address the request
    was sent to (compared with, never used to build a link)."""
    base = http.base_url()
    if base:
        parts = urlsplit(base)
        return f"{parts.scheme}://{parts.netloc}".lower()
    return f"{request.scheme}://{request.host}".lower()


def same_origin() -> bool:
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None:
        return fetch_site == "same-origin"
    origin = request.headers.get("Origin")
    return origin is not None and origin.lower() == site_origin()


def _guard() -> None:
    if request.method in SAFE_METHODS or COOKIE not in request.cookies:
        return
    if http.bearer_token() is not None:
        return  # a token proves its own right; the cookie adds nothing to it
    if not same_origin():
        raise ApiError(
            403,
            "cross-site",
            "This request carries your session but did not come from this site: open "
            "deckcheck itself and do it there.",
        )


def init_app(app: Flask) -> None:
    app.before_request(_guard)


def required() -> Session:
    """The request's session, or a 401 `not-signed-in`."""
    found = current() if COOKIE in request.cookies else None
    if found is None:
        raise ApiError(401, "not-signed-in", "Sign in first (on /account).")
    return found
