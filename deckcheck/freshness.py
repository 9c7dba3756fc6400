"""How current the card lists and list histories are, in front of people.

- `card_lists(game)` in templates: one line per game ("Card list: 4,391 DCG cards,
  newest BT26 / EX12, updated 2026-08-20"), shown on the home page, the report and the
  card browser (templates/_card_lists.html).
- `/about/data`: where each list comes from, its licence, how fresh it is.
- `/formats/dcg/changes.atom`: the DCG list changes as an Atom feed.
- With DECKCHECK_SYNC_EVERY set, the background sync (cardpool.syncing) starts on a
  server process's first request: never in a command, never inside a request.
"""

from __future__ import annotations

import hashlib
import sqlite3
from datetime import date
from importlib import resources
from xml.sax.saxutils import escape

from flask import Blueprint, Flask, Response, current_app, g, render_template

from cardpool import freshness, list_store
from cardpool.store import pool_info
from cardpool.syncing import BackgroundSync
from deckcheck import service, share
from deckcheck.db import get_db
from rules.games import GAME_IDS, GAMES, LISTS_GAME, game_name
from rules.lists import Change, reported_words

bp = Blueprint("data", __name__)
FEED_ID = "tag:deckcheck,2026:formats/dcg/changes"


def card_lists(game: str | None = None) -> list[str]:
    """The freshness line of `game` (or of every game); nothing if the database cannot say."""
    try:
        entries = freshness.status(get_db())
    except sqlite3.Error as err:
        current_app.logger.warning("card list freshness not read: %s", err)
        return []
    return [freshness.line(e) for e in entries if game is None or e["game"] == game]


def empty_games() -> dict[str, str]:
    """The games whose card list holds no card here (DBE until an organizer loads one),
    id -> name: a format menu says so where it offers them (templates/_empty_pools.html)
    instead of judging against nothing."""
    try:
        pools = pool_info(get_db())
    except sqlite3.Error as err:
        current_app.logger.warning("card lists not read: %s", err)
        return {}
    return {g: game_name(g) for g in GAME_IDS if not (pools.get(g) or {}).get("count")}


def format_label(fmt) -> str:
    """A format's name in a menu, "(no cards loaded)" after it when its game has none:
    read once per request, however many menus and options a page has."""
    if "empty_games" not in g:
        g.empty_games = empty_games()
    return fmt.name + (" (no cards loaded)" if fmt.game in g.empty_games else "")


@bp.get("/about/data")
def about_data():
    db = get_db()
    licence = (
        resources.files("cardpool.starter")
        .joinpath("LICENSE-aegis-digimon-tcg.txt")
        .read_text("utf-8")
    )
    stored = list_store.current(db, LISTS_GAME)
    return render_template(
        "about_data.html",
        pools=[{**e, "line": freshness.line(e)} for e in freshness.status(db)],
        game_names={e["game"]: game_name(e["game"]) for e in freshness.status(db)},
        licence=licence,
        lists=stored,
        previous=list_store.previous(db, LISTS_GAME),
        sync_every=current_app.config.get("SYNC_EVERY"),
    )


@bp.get("/formats/dcg/changes.atom")
def changes_feed():
    stored = list_store.current(get_db(), LISTS_GAME)
    # Relative without DECKCHECK_BASE_URL (a reader resolves it against the feed's own
    # address), never from the request's Host header (contract, "Limits").
    link = share.link("web.format_detail", format_id=GAMES[LISTS_GAME].format_id)
    # The feed's time is when the lists last changed (the import, or the shipped file's
    # date), never in the future: a change effective in 2999 is news the day it is listed.
    listed = min((stored.updated or "2020-01-01")[:10], service.today().isoformat())
    # One entry per change, dated when it was announced (else when it takes effect), and
    # never after the list that holds it; a change with no known date by that list.
    days = [min(_day(c).isoformat(), listed) for c in stored.history.changes]
    updated = listed
    pairs = list(zip(stored.history.changes, days, strict=True))
    # Newest first; the undated after them (their day is only the list's).
    ordered = [p for p in reversed(pairs) if p[0].effective] + [
        p for p in pairs if not p[0].effective
    ]
    entries = "".join(_entry(change, link, day) for change, day in ordered)
    body = (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom">\n'
        f"<id>{FEED_ID}</id>\n"
        "<title>Digimon Card Game banned and restricted list changes (deckcheck)</title>\n"
        f"<subtitle>{escape(stored.source)}</subtitle>\n"
        f'<link rel="alternate" href="{escape(link)}"/>\n'
        f"<updated>{updated}T00:00:00Z</updated>\n"
        "<author><name>deckcheck</name></author>\n"
        f"{entries}</feed>\n"
    )
    return Response(body, mimetype="application/atom+xml")


def _day(change: Change) -> date:
    return change.announced or change.effective or date.max


def _entry(change: Change, link: str, day: str) -> str:
    when = change.effective.isoformat() if change.effective else "date unknown"
    at = change.effective.isoformat() if change.effective else "undated"  # an id has no spaces
    # A change known from one source says "reported", never "banned" (contract).
    cards = [
        f"{ref.label}: {reported_words(status) if change.reported else status}"
        for ref, status in change.limits
    ]
    cards += [
        f"choice restriction: {', '.join(r.label for r in a)} or "
        f"{', '.join(r.label for r in b)}, not both"
        + (f" (until {change.ends(at)})" if change.ends(at) else "")
        for at, (a, b) in enumerate(change.choices)
    ]
    lines = [
        f"Effective: {when}",
        f"Announced: {change.announced.isoformat() if change.announced else 'not known'}",
        *cards,
        *(f"Source: {source}" for source in change.sources),
    ]
    if change.doubt:
        lines.append(f"Doubt: {change.doubt}")
    content = "".join(f"<li>{escape(line)}</li>" for line in lines)
    title = (
        "Reported list change (one source), effective"
        if change.reported
        else "List change effective"
    )
    return (
        "<entry>\n"
        f"<id>{FEED_ID}/{at}/{_digest(change)}</id>\n"
        f"<title>{escape(f'{title} {when}: ' + ', '.join(cards)[:200])}</title>\n"
        f'<link rel="alternate" href="{escape(link)}"/>\n'
        f"<updated>{day}T00:00:00Z</updated>\n"
        f'<content type="html">{escape(f"<ul>{content}</ul>")}</content>\n'
        "</entry>\n"
    )


def _digest(change: Change) -> str:
    """A stable id part for one change: the same cards and statuses give the same id."""
    text = "|".join(
        [f"{ref.number}={status}" for ref, status in change.limits]
        + [",".join(r.number for r in (*a, *b)) for a, b in change.choices]
    )
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.add_template_global(card_lists, "card_lists")
    app.add_template_global(empty_games, "empty_games")
    app.add_template_global(format_label, "format_label")
    every = app.config.get("SYNC_EVERY")
    if every:
        sync = BackgroundSync(
            app.config["DATABASE"], every, app.config["SYNC_URLS"], app.config.get("LISTS_URL")
        )
        app.extensions["deckcheck.sync"] = sync

        # Only a serving process gets requests: a command (cardpool import) never syncs.
        @app.before_request
        def _start_sync() -> None:
            sync.start()
