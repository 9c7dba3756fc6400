"""Events stored on the server: players submit lists until a deadline, the organizer
sees them judged again, prints the sheets and checks decks at the table.

`init_app` registers the API, the pages and `flask events ...`; the store itself is
opened on first use (deckcheck.events.core.store). docs/events.md tells organizers and
whoever runs the server what each setting below does.
"""

from __future__ import annotations

import os

from flask import Flask

from deckcheck.server.limits import parse_rate


def _players(text: str | None) -> int:
    text = (text or "").strip() or "2048"
    if not text.isdigit() or not 1 <= int(text) <= 1_000_000:
        raise ValueError(f"DECKCHECK_EVENTS_MAX_PLAYERS={text[:40]!r} is not a number of players")
    return int(text)


def warm(app: Flask) -> None:
    """Open (and migrate) the events store before a worker takes its first request
    (wsgi.py; create_app has built the card indexes already, deckcheck.db.init_app). A
    worker that gunicorn starts in place of a killed one would otherwise take its first
    lists while it opens it: with PostgreSQL and a busy machine, seconds in which nothing
    was acknowledged."""
    from deckcheck.events.core import store

    with app.app_context():
        try:
            store()  # a worker with an events session is ready
        except Exception:  # noqa: BLE001 - a worker that cannot warm up still serves
            # (and opens what it needs on first use, where the error is a 503, not a
            # worker that fails to boot and takes the server down with it).
            app.logger.exception("warming up failed; opening on first use instead")


def init_app(app: Flask) -> None:
    from deckcheck.events import (  # noqa: F401
        admin_pages,
        api,
        cli,
        pages,
        venue_api,
        venue_pages,
        zones,
    )

    env = os.environ.get
    app.config.setdefault(
        "EVENTS_DATABASE",
        env("DECKCHECK_EVENTS_DATABASE") or os.path.join(app.instance_path, "events.db"),
    )
    app.config.setdefault(
        "EVENTS_SUBMIT_LIMIT",
        parse_rate("DECKCHECK_EVENTS_SUBMIT_LIMIT", env("DECKCHECK_EVENTS_SUBMIT_LIMIT"), "20/60"),
    )
    # Per event and address (a venue's one Wi-Fi): deckcheck.events.limits.
    for setting, name, default in (
        ("EVENTS_ADDRESS_LIMIT", "DECKCHECK_EVENTS_ADDRESS_LIMIT", "600/600"),
        ("EVENTS_NEW_PLAYERS_LIMIT", "DECKCHECK_EVENTS_NEW_PLAYERS_LIMIT", "400/600"),
    ):
        app.config.setdefault(setting, parse_rate(name, env(name), default))
    app.config.setdefault(
        "EVENTS_CREATE_LIMIT",
        parse_rate(
            "DECKCHECK_EVENTS_CREATE_LIMIT", env("DECKCHECK_EVENTS_CREATE_LIMIT"), "10/3600"
        ),
    )
    app.config.setdefault("EVENTS_CREATE_KEY", env("DECKCHECK_EVENTS_CREATE_KEY") or "")
    app.config.setdefault("EVENTS_MAX_PLAYERS", _players(env("DECKCHECK_EVENTS_MAX_PLAYERS")))
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.cli.add_command(cli.events_cli)
    # `{{ when | in_zone(zone) }}`: a stored UTC moment in the event's zone (sheets, table).
    app.add_template_filter(zones.moment, "in_zone")
    app.add_template_filter(zones.label, "zone_label")
