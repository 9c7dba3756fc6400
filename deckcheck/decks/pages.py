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

from flask import Blueprint, Flask, abort, render_template

from deckcheck import builder
from deckcheck.format_registry import registry
from deckcheck.images import images
from rules.games import GAMES, SECTIONS

bp = Blueprint("deck_pages", __name__)
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
    """The builder on a saved deck: static/decks.js reads the token from the fragment
    and the deck from the API, so this page is the builder's own."""
    _deck_id(deck_id)
    return builder.build()


@bp.get("/decks")
def mine():
    return render_template("decks/mine.html", data=page_data())


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
