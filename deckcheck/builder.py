"""`/build`: build a deck by searching and clicking (contract "Deck builder page").

The page is static HTML plus `static/build.js`; the script asks the same API the
world uses (`/api/v1/cards`, `/decks/validate`, `/decks/export`, `/decks/odds`), so
the builder's verdict is the report's verdict. The deck lives in the page's address.
"""

from __future__ import annotations

from flask import Blueprint, Flask, render_template, request

from deckcheck import service
from deckcheck.days import query_day
from deckcheck.format_registry import registry
from deckcheck.images import images
from rules.games import DEFAULT_FORMAT, GAMES, section_title

bp = Blueprint("builder", __name__)
# A playset when a format names no copy limit of its own (DCG's is 4).
DEFAULT_PLAYSET = 4


def _chosen_format(formats: dict) -> str:
    """`?format=` wins, then the main format of `?game=`, then DCG."""
    wanted = request.args.get("format", "")
    if wanted in formats:
        return wanted
    game = request.args.get("game", "")
    if game in formats:
        return game
    return next((f.id for f in formats.values() if f.game == game), DEFAULT_FORMAT)


def playset(fmt) -> int:
    """How many copies the one-tap "x4" button sets: the format's own copy limit (DCG 4,
    Digi-Battle 1) or its limit per name (DMCG 3), read from its checks so a format
    declared elsewhere needs no builder change."""
    for check in fmt.checks:
        limit = getattr(check, "default", None) if check.code == "copy-limit" else None
        if check.code == "name-limit":
            limit = getattr(check, "limit", None)
        if isinstance(limit, int) and limit > 0:
            return limit
    return DEFAULT_PLAYSET


@bp.get("/build")
def build():
    formats = registry().formats
    chosen = formats[_chosen_format(formats)]
    on = query_day()  # a product code (BT13) as its day: the date field holds only days
    games = {
        g.id: {
            "name": g.name,
            "sections": [{"id": s, "title": section_title(s)} for s in g.sections],
            "levels": list(g.levels),
            "kinds": list(g.kinds),
            "colors": list(g.colors),
            "images": images().url(g.id, "X") is not None,
            "partner": g.has_partner,
            "deckCode": g.has_deck_codes,
            "hand": g.draws.hand if g.draws else None,
            "autoSections": [
                {"section": a.section, "kinds": sorted(a.kinds), "levels": sorted(a.levels)}
                for a in g.auto_sections
            ],
        }
        for g in GAMES.values()
    }
    return render_template(
        "build.html",
        formats=list(formats.values()),
        playsets={f.id: playset(f) for f in formats.values()},
        chosen=chosen,
        games=games,
        today=service.today().isoformat(),
        day=on.isoformat() if on else None,
        game_name=GAMES[chosen.game].name,
    )


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
