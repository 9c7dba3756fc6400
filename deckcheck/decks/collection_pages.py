"""The collection pages: `/c/<id>`, a collection shared read-only (rendered on the server,
readable without JavaScript; no token is ever in it), and `/collections`, the binders
this browser keeps the edit tokens of (static/collections.js edits them through the
collections API; the tokens stay in localStorage)."""

from __future__ import annotations

import re

from flask import Blueprint, abort, render_template

from deckcheck.decks import collection, collection_views, products
from deckcheck.server import http
from rules.games import GAMES

bp = Blueprint("collection_pages", __name__)
COLLECTION_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@bp.get("/c/<collection_id>")
def shared(collection_id: str):
    row = collection.store().row(collection_id) if COLLECTION_ID.fullmatch(collection_id) else None
    if row is None:
        abort(404)
    cards = collection.store().cards(row["id"])
    index = collection.pool(row["game"]) if row["game"] in GAMES else None
    known = index.cards if index is not None else {}
    listed = [
        (number, known[number].name if number in known else "", count)
        for number, count in sorted(cards.items())
    ]
    held = collection.store().set_counts(row["id"])
    sets = collection_views.completion(held, index) if index is not None else []
    game = GAMES[row["game"]].name if row["game"] in GAMES else row["game"]
    return render_template(
        "decks/collection.html",
        row=row,
        game=game,
        cards=listed,
        copies=sum(cards.values()),
        sets=[s for s in sets if s["owned"]],
        description=description(game, len(cards), sum(cards.values())),
        base=http.base_url(),
    )


def description(game: str, different: int, copies: int) -> str:
    """og:description of a shared collection: its game, different cards and copies."""
    kinds = "card" if different == 1 else "cards"
    return f"A {game} collection: {different:,} different {kinds}, {copies:,} in all."


@bp.get("/collections")
def mine():
    games = [(g.id, g.name) for g in GAMES.values()]
    starters = [(code, deck["name"]) for code, deck in sorted(products.starter_decks().items())]
    return render_template("decks/collections.html", games=games, starters=starters)
