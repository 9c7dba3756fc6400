"""Saved decks, collections and sample hands: a player keeps decks on the server without
an account, each owned by its edit token, judged again when the lists change.

`init_app` registers the API, the Atom feeds and `flask decks ...`, and (with
DECKCHECK_DECKS_REJUDGE_EVERY, default 1h) the background pass that judges again the
saved decks a change touches (deckcheck.decks.rejudge). The decks live in the server's
database (deckcheck.server: its engine, migrations, tokens, names and rate limits).
docs/decks.md tells players and whoever runs the server what each setting does.
"""

from __future__ import annotations

import os

from flask import Flask

from cardpool.syncing import parse_every


def rejudge_every(text: str | None) -> float | None:
    """DECKCHECK_DECKS_REJUDGE_EVERY: `1h` by default, `off` (or `0`) for none."""
    text = (text or "").strip()
    if text.lower() in ("off", "0"):
        return None
    try:
        return parse_every(text or "1h")
    except ValueError as err:
        raise ValueError(
            str(err).replace("DECKCHECK_SYNC_EVERY", "DECKCHECK_DECKS_REJUDGE_EVERY")
        ) from err


def versions_kept(text: str | None) -> int:
    """DECKCHECK_DECKS_VERSIONS_KEPT: the newest versions one deck keeps (default 100,
    at least 2: the diff compares the last two)."""
    text = (text or "").strip() or "100"
    if not text.isdigit() or not 2 <= int(text) <= 100_000:
        raise ValueError(
            f"DECKCHECK_DECKS_VERSIONS_KEPT={text[:40]!r} is not a number of versions (2 or more)"
        )
    return int(text)


def init_app(app: Flask) -> None:
    from deckcheck.decks import (
        api,
        cli,
        collection_pages,
        collections_api,
        feed,
        owned,
        rejudge,
    )
    from deckcheck.server.limits import parse_rate

    env = os.environ.get
    app.config.setdefault(
        "DECKS_CREATE_LIMIT",
        parse_rate("DECKCHECK_DECKS_CREATE_LIMIT", env("DECKCHECK_DECKS_CREATE_LIMIT"), "30/3600"),
    )
    # New versions of one deck from one address (PUT): a player saves now and then; a
    # loop of saves must not fill the database (a 429 `too-many-saves`).
    app.config.setdefault(
        "DECKS_SAVE_LIMIT",
        parse_rate("DECKCHECK_DECKS_SAVE_LIMIT", env("DECKCHECK_DECKS_SAVE_LIMIT"), "30/300"),
    )
    app.config.setdefault(
        "DECKS_VERSIONS_KEPT", versions_kept(env("DECKCHECK_DECKS_VERSIONS_KEPT"))
    )
    app.config.setdefault(
        "DECKS_REJUDGE_EVERY", rejudge_every(env("DECKCHECK_DECKS_REJUDGE_EVERY"))
    )
    app.register_blueprint(api.bp)
    app.register_blueprint(collections_api.bp)
    app.register_blueprint(collection_pages.bp)
    app.register_blueprint(feed.bp)
    owned.init_app(app)
    app.cli.add_command(cli.decks_cli)
    rejudge.init_app(app)
