"""The saved-deck pages (contract "Saved decks, collections and sample hands", Pages).

`/d/<id>` and `/decks` are HTML shells plus `static/decks-*.js`: the scripts ask the
decks API (`/api/v1/decks/...`), the one place that reads and judges saved decks, so a
page and a script always see the same verdict. `/d/<id>/edit` is the builder itself
(`deckcheck.builder`): `static/decks.js` loads the deck into it and saves new versions.

Tokens never reach these routes: the edit token lives in the address's fragment and in
the browser's localStorage, and goes only to its own deck's API as `Authorization: Bearer`.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

from flask import Blueprint, Flask, abort, redirect, render_template, request
from sqlalchemy.exc import OperationalError

from deckcheck import builder
from deckcheck.decks import core, owned_store
from deckcheck.events import core as events_core
from deckcheck.events.packing import unpack
from deckcheck.format_registry import registry
from deckcheck.images import images
from deckcheck.server import owners
from rules.games import GAMES, SECTIONS

bp = Blueprint("deck_pages", __name__)
# An edit link reads the deck: a busy database is a 503 page to load again, never a 500.
bp.register_error_handler(OperationalError, events_core.busy_response)
# An id is what the API hands out; anything else cannot name a deck (and is not echoed).
DECK_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def page_data() -> dict:
    """What the scripts need to show a deck: each format's game and name, the section
    headings, which games have deck codes, and the image templates in force."""
    return {
        "formats": {f.id: {"name": f.name, "game": f.game} for f in registry().formats.values()},
        "sections": {s.id: s.heading for s in SECTIONS.values()},
        "images": {g: t for g, t in images().templates.items() if g in GAMES},
        "deckCodes": [g.id for g in GAMES.values() if g.has_deck_codes],
    }


def _deck_id(deck_id: str) -> str:
    if not DECK_ID.fullmatch(deck_id):
        abort(404)
    return deck_id


@bp.get("/d/<deck_id>")
def deck(deck_id: str):
    return render_template("decks/deck.html", deck_id=_deck_id(deck_id), data=page_data())


@bp.get("/d/<deck_id>/edit")
def edit(deck_id: str):
    """The builder on a saved deck. An edit link (no deck in the address) is sent on to
    the builder's address of the deck's latest list, so the builder opens on the deck in
    one load (the browser keeps the #token across the redirect); a builder that loaded
    empty and then reloaded itself lost a Save pressed in between. static/decks.js reads
    the token from the fragment and saves new versions."""
    _deck_id(deck_id)
    if not request.args:
        return redirect(_builder_address(deck_id), 302)
    return builder.build()


def _builder_address(deck_id: str) -> str:
    """`/d/<id>/edit?format=...&main=BT1-010*4,...`: the deck's latest list as the
    builder reads it (cards only; a line that named no card has no place there)."""
    row = core.store().deck(deck_id)
    latest = core.store().version(deck_id, row["version"]) if row is not None else None
    if row is None or latest is None:  # unknown, or deleted between the two reads
        abort(404)
    structured = unpack(latest["structured"])
    params = {"format": row["format"]}
    for section, items in structured["sections"].items():
        if items:
            params[section] = ",".join(f"{number}*{count}" for number, count in items)
    if structured.get("partner"):
        params["partner"] = structured["partner"]
    return f"/d/{deck_id}/edit?{urlencode(params, safe=',*')}"


@bp.get("/decks")
def mine():
    # The collection form offers every game: a collection is read against its game's list.
    games = [(g.id, g.name) for g in GAMES.values()]
    # Signed in: the account's decks, rendered here with their stored verdicts (the
    # background pass keeps them current), so a new device shows them at once.
    account = owners.account()
    owned = owned_store.owned_decks(core.store(), account) if account else None
    return render_template("decks/mine.html", data=page_data(), games=games, owned=owned)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
