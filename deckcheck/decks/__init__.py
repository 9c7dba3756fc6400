"""Saved decks, collections and sample hands: a player keeps decks on the server without
an account, each owned by its edit token, judged again when the lists change.

`init_app` registers the API, the Atom feeds and `flask decks ...`, and (with
DECKCHECK_DECKS_REJUDGE_EVERY, default 1h) the background pass that judges again the
saved decks a change touches (deckcheck.decks.rejudge). The decks live in the events
database (deckcheck.events: its engine, migrations, tokens, names and rate limits).
docs/decks.md tells players and whoever runs the server what each setting does.
"""

from __future__ import annotations

import os

from flask import Flask

# Nothing of deckcheck is imported here at the top: deckcheck.events.tables imports
# deckcheck.decks.tables (one metadata), which runs this file first.


def rejudge_every(text: str | None) -> float | None:
    """DECKCHECK_DECKS_REJUDGE_EVERY: `1h` by default, `off` (or `0`) for none."""
    from cardpool.syncing import parse_every

    text = (text or "").strip()
    if text.lower() in ("off", "0"):
        return None
    try:
        return parse_every(text or "1h")
    except ValueError as err:
        raise ValueError(
            str(err).replace("DECKCHECK_SYNC_EVERY", "DECKCHECK_DECKS_REJUDGE_EVERY")
        ) from err


def init_app(app: Flask) -> None:
    from deckcheck.decks import api, cli, collection_pages, collections_api, feed, rejudge
    from deckcheck.events.limits import parse_rate

    env = os.environ.get
    app.config.setdefault(
        "DECKS_CREATE_LIMIT",
        parse_rate("DECKCHECK_DECKS_CREATE_LIMIT", env("DECKCHECK_DECKS_CREATE_LIMIT"), "30/3600"),
    )
    app.config.setdefault(
        "DECKS_REJUDGE_EVERY", rejudge_every(env("DECKCHECK_DECKS_REJUDGE_EVERY"))
    )
    app.register_blueprint(api.bp)
    app.register_blueprint(collections_api.bp)
    app.register_blueprint(collection_pages.bp)
    app.register_blueprint(feed.bp)
    app.cli.add_command(cli.decks_cli)
    rejudge.init_app(app)
