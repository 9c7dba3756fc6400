"""Events stored on the server: players submit lists until a deadline, the organizer
sees them judged again, prints the sheets and checks decks at the table.

`init_app` registers the API, the pages and `flask events ...`; the store itself is
opened on first use (deckcheck.events.core.store).
"""

from __future__ import annotations

import os

from flask import Flask


def _rate(text: str) -> tuple[int, int]:
    """`DECKCHECK_EVENTS_SUBMIT_LIMIT="20/60"`: 20 submissions per 60 s; "0" turns it off."""
    count, _, seconds = text.partition("/")
    return int(count), int(seconds or 60)


def init_app(app: Flask) -> None:
    from deckcheck.events import api, cli, pages

    app.config.setdefault(
        "EVENTS_DATABASE",
        os.environ.get("DECKCHECK_EVENTS_DATABASE") or os.path.join(app.instance_path, "events.db"),
    )
    app.config.setdefault(
        "EVENTS_SUBMIT_LIMIT", _rate(os.environ.get("DECKCHECK_EVENTS_SUBMIT_LIMIT") or "20/60")
    )
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.cli.add_command(cli.events_cli)
