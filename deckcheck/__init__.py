"""deckcheck: the Flask application (pages, JSON API, command line).

Rule logic lives in `rules`, the card database in `cardpool`; this package only
puts them in front of people and programs.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from pathlib import Path

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix

from cardpool.syncing import parse_every
from rules.games import GAMES

__version__ = "0.1.0"


def create_app(test_config: dict | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(_templates()),
    )
    _configure(app, test_config)

    from deckcheck import (
        accounts,
        api,
        api_page,
        assets,
        builder,
        cli,
        days,
        db,
        decks,
        errors,
        events,
        freshness,
        quick_event,
        security,
        web,
    )
    from deckcheck.decks import pages as deck_pages
    from deckcheck.jsonio import OrjsonProvider
    from deckcheck.server import http, sessions

    app.json = OrjsonProvider(app)
    # In this order: the card database first, the error shape and security before any
    # blueprint, each product after the pages it adds to.
    for part in (db, errors, http, security, assets, days, api, api_page, web, builder, deck_pages,
                 quick_event, events, decks, sessions, accounts, cli, freshness):  # fmt: skip
        part.init_app(app)
    return app


def _configure(app: Flask, test_config: dict | None) -> None:
    """The app's settings: DECKCHECK_* variables, then `test_config` over them; the
    proxy hops it trusts; the instance folder and its signing key."""
    app.config.from_mapping(_settings(app.instance_path))
    if test_config:
        app.config.from_mapping(test_config)
    if app.config["TRUSTED_PROXIES"]:
        # The client address is the socket's, except for the N nearest X-Forwarded-For
        # hops the operator vouches for; no other forwarded header is read (docs/events.md).
        hops = app.config["TRUSTED_PROXIES"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=0)  # type: ignore[method-assign]
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("DECKCHECK_SECRET_KEY") or _instance_secret(
            Path(app.instance_path)
        )


def _settings(instance: str) -> dict:
    """The settings read from the environment (docs/operations.md names each)."""
    env = os.environ.get
    return dict(
        DATABASE=env("DECKCHECK_DATABASE") or os.path.join(instance, "deckcheck.db"),
        FORMATS_DIR=env("DECKCHECK_FORMATS_DIR") or os.path.join(instance, "formats"),
        SEED_STARTER_POOL=True,
        SYNC_URLS=_sync_urls(env("DECKCHECK_SYNC_URLS")),
        # Background `cardpool sync` every so often (cardpool.syncing); None: off.
        SYNC_EVERY=parse_every(env("DECKCHECK_SYNC_EVERY")),
        LISTS_URL=(env("DECKCHECK_LISTS_URL") or "").strip() or None,
        # Links the service builds are relative unless this names the public address.
        BASE_URL=(env("DECKCHECK_BASE_URL") or "").rstrip("/"),
        MAX_CONTENT_LENGTH=16 * 1024 * 1024,
        BODY_LIMIT=1024 * 1024,
        BATCH_BODY_LIMIT=16 * 1024 * 1024,
        # Flask's default (500 kB) would refuse a decklist field the 1 MB body limit allows.
        MAX_FORM_MEMORY_SIZE=1024 * 1024,
        MAX_FORM_PARTS=1000,
        # A share link longer than this is offered as a posted form instead: it must fit
        # gunicorn's limit_request_line (gunicorn.conf.py) and common proxies' 8 KB.
        SHARE_LINK_MAX=4000,
        # How soon a worker serves a pool a finished import replaced (deckcheck.db.PoolCache).
        POOL_CHECK_SECONDS=pool_check_seconds(env("DECKCHECK_POOL_CHECK_SECONDS")),
        TRUSTED_PROXIES=trusted_proxies(env("DECKCHECK_TRUSTED_PROXIES")),
    )


def _instance_secret(folder: Path) -> str:
    """One signing key shared by every worker and kept across restarts, so a share
    link made by one worker opens on another and next week; created once, private."""
    path = folder / "secret_key"
    if not path.exists():
        # Written whole, then linked into place: a worker booting at the same moment
        # reads either nothing (and links its own, losing the race) or the whole key.
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".secret-")
        try:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_hex(32))
            with contextlib.suppress(FileExistsError):
                os.link(tmp, path)
        finally:
            os.unlink(tmp)
    return path.read_text("ascii").strip()


def _templates() -> Path:
    """The package's own copy in an installed wheel; the repository's top level otherwise."""
    here = Path(__file__).resolve().parent
    packaged = here / "templates"
    return packaged if packaged.is_dir() else here.parent / "templates"


def pool_check_seconds(text: str | None) -> float:
    """DECKCHECK_POOL_CHECK_SECONDS, default 1. A value that is not a number of seconds
    stops the start: NaN would never look again, and a typo must not pass unnoticed."""
    text = (text or "").strip()
    if not text:
        return 1.0
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 3600:
        raise ValueError(
            f"DECKCHECK_POOL_CHECK_SECONDS={text[:40]!r} is not a number of seconds (0 to 3600)"
        )
    return seconds


def trusted_proxies(text: str | None) -> int:
    """DECKCHECK_TRUSTED_PROXIES: how many proxy hops of X-Forwarded-For to trust (0-10)."""
    text = (text or "").strip() or "0"
    if not text.isdigit() or int(text) > 10:
        raise ValueError(
            f"DECKCHECK_TRUSTED_PROXIES={text[:40]!r} is not a number of proxy hops (0 to 10)"
        )
    return int(text)


def _sync_urls(text: str | None) -> dict[str, str]:
    """`DECKCHECK_SYNC_URLS="dcg=https://...,dmcg=https://..."` overrides the defaults."""
    urls = {g.id: g.sync_url for g in GAMES.values() if g.sync_url}  # rules.games
    for item in (text or "").split(","):
        game, _, url = item.partition("=")
        if game.strip() and url.strip():
            urls[game.strip()] = url.strip()
    return urls
