"""The saved-deck pages (contract "Saved decks, collections and sample hands", Pages,
and "Saved deck pages").

`/d/<id>` is rendered on the server (deckcheck.decks.showing: the same judging as the
API's read) and reads whole without JavaScript; `static/decks-deck.js` then adds card
images, odds, sample hands, export and the diff. `/d/<id>.png` is its picture for link
previews (deckcheck.decks.picture). `/decks` is an HTML shell plus `static/decks-mine.js`
(the decks it lists are in the browser's localStorage). `/d/<id>/edit` is the builder
itself (`deckcheck.builder`): `static/decks.js` reads the deck from the API, loads it
into the builder and saves new versions.

Tokens never reach these routes: the edit token lives in the address's fragment and in
the browser's localStorage, and goes only to its own deck's API as `Authorization: Bearer`.
"""

from __future__ import annotations

import re

from flask import Blueprint, Flask, Response, abort, render_template

from deckcheck import builder
from deckcheck.decks import core, owned_store, picture, showing
from deckcheck.format_registry import registry
from deckcheck.images import images
from deckcheck.server import owners
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
    found = showing.shown(deck_id)
    versions = core.store().versions(deck_id, newest=showing.VERSIONS_SHOWN)
    return render_template(
        "decks/deck.html",
        deck_id=deck_id,
        deck=found,
        versions=versions,
        moment=showing.moment,
        base=core.base_url(),
        data=page_data(),
    )


@bp.get("/d/<deck_id>.png")
def deck_picture(deck_id: str):
    found = showing.shown(deck_id)
    response = Response(picture.picture(found), mimetype="image/png")
    # A preview service may keep it a while; a new version or verdict is a new picture.
    response.headers["Cache-Control"] = "public, max-age=300"
    return response


@bp.get("/d/<deck_id>/edit")
def edit(deck_id: str):
    """The builder on a saved deck. static/decks.js reads the deck from the API (not
    from the address: a deck of 1,000 different cards makes an address no server takes)
    and the edit token from the fragment, and saves new versions. An address that
    carries a list (`?format=&main=...`, the builder's own, on a reload) opens that list:
    the player's unsaved edit."""
    core.find_deck(_deck_id(deck_id))  # an unknown deck is the 404 page, not a builder
    return builder.build()


@bp.get("/decks")
def mine():
    # The collection form offers every game: a collection is read against its game's list.
    games = [(g.id, g.name) for g in GAMES.values()]
    # Signed in: the account's decks, rendered here with their stored verdicts (the
    # background pass keeps them current), so a new device shows them at once.
    account = owners.account()
    rows = owned_store.owned_decks(core.store(), account) if account else None
    owned = [{**r, "verdict": core.stored_verdict(r)} for r in rows] if rows is not None else None
    return render_template("decks/mine.html", data=page_data(), games=games, owned=owned)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
