"""The HTML pages: paste a deck and read the report, browse cards, read the rules."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import Blueprint, Flask, Response, abort, render_template, request, url_for

from cardpool.search import MAX_QUERY, ORDERS, Found, Query, find_card, natural_key
from deckcheck import cardsearch, charts, service, share, unread, words
from deckcheck.days import query_day, read_day, reads_date_itself
from deckcheck.db import get_db
from deckcheck.documents import document
from deckcheck.errors import ApiError
from deckcheck.format_registry import registry
from deckcheck.report_json import report_json
from rules.export import ExportError, export
from rules.games import DEFAULT_FORMAT, GAMES, SECTIONS, game_name
from rules.numbers import number_key

bp = Blueprint("web", __name__)
MAX_UPLOAD = 1024 * 1024
EXPORT_STYLES = ("text", "tts", "deck-code")
PAGE_ORDER = "relevance"  # the card browser's default order, as the builder's
# Signed share-link tokens (deckcheck.share); quick_event still imports these names here.
pack, unpack = share.pack, share.unpack


@bp.get("/")
def index():
    return render_template(
        "index.html", formats=registry().formats.values(), today=service.today().isoformat()
    )


def _deck_request() -> tuple[str, str, date | None]:
    """(format id, decklist text, date) from the form, an upload, or a share link."""
    source = request.form if request.method == "POST" else request.args
    format_id = source.get("format", DEFAULT_FORMAT)
    text = source.get("decklist", "")
    upload = request.files.get("file")
    if upload and upload.filename:
        data = upload.read(MAX_UPLOAD + 1)
        if len(data) > MAX_UPLOAD:
            raise ApiError(413, "body-too-large", "The file is larger than 1 MB.")
        text = data.decode("utf-8", errors="replace")
    if source.get("d"):
        text = share.unpack(source["d"])
    day = source.get("date") or None
    try:
        on = read_day(day) if day else None
    except ValueError as err:
        # 422 as on the API: the request was read, its date is not one we can use.
        raise ApiError(422, "bad-date", str(err)) from err
    if not text.strip():
        raise ApiError(400, "empty-decklist", "Paste a decklist (or choose a file) first.")
    return format_id, text, on


@bp.route("/report", methods=["GET", "POST"])
def report():
    format_id, text, on = _deck_request()
    fmt = service.find_format(format_id)
    result = service.check(fmt, {"decklist": text}, on)
    link_args = {"format": fmt.id, "d": share.pack(text)}
    if on:
        link_args["date"] = on.isoformat()
    styles = [s for s in EXPORT_STYLES if s != "deck-code" or GAMES[fmt.game].has_deck_codes]
    link = share.link("web.report", **link_args)
    # Too long for an address bar or a proxy: the page posts the deck back instead.
    linked = share.fits(link)
    data = report_json(result, fmt)
    builder = builder_link(fmt.id, on, data["deck"])
    return render_template(
        "report.html",
        builder=builder if share.fits(builder) else None,
        fmt=fmt,
        report=result,
        data=data,
        totals=unread.section_totals(result.deck, text),
        left_out=unread.warnings(result.deck),
        stats=charts.deck_stats(result.deck),
        share=link if linked else None,
        repost={"format": fmt.id, "date": on.isoformat() if on else "", "decklist": text},
        exports={
            style: share.link("web.report_export", style=style, **link_args) if linked else None
            for style in styles
        },
        game_name=game_name(fmt.game),
        section_names={s.id: s.heading for s in SECTIONS.values()},
    )


def builder_link(format_id: str, on: date | None, deck: dict) -> str:
    """The builder holding the report's resolved deck (its address is the deck:
    `main=BT1-010*4,...`), so a problem is one tap from where it is fixed."""
    args: dict[str, Any] = {"format": format_id}
    if on:
        args["date"] = on.isoformat()
    for section, body in deck["sections"].items():
        args[section] = ",".join(f"{c['number']}*{c['count']}" for c in body["cards"])
    if deck.get("partner"):
        args["partner"] = deck["partner"]
    return url_for("builder.build", **args)


@bp.route("/report/export/<style>", methods=["GET", "POST"])
def report_export(style: str):
    format_id, text, on = _deck_request()
    fmt = service.find_format(format_id)
    result = service.check(fmt, {"decklist": text}, on)
    try:
        content = export(result.deck, style)
    except ExportError as err:
        raise ApiError(422, "style-not-supported", str(err)) from err
    suffix = {"text": "txt", "tts": "json", "deck-code": "txt"}.get(style, "txt")
    headers = {"Content-Disposition": f'attachment; filename="deck-{fmt.id}.{suffix}"'}
    if result.deck.unresolved:
        # A file has no room for warnings: the report page lists these lines beside
        # the export links, and the header tells a script.
        headers["X-Deckcheck-Left-Out"] = unread.header_value(result.deck)
    return Response(
        content,
        mimetype="application/json" if style == "tts" else "text/plain",
        headers=headers,
    )


@bp.get("/cards")
@reads_date_itself  # its query schema, which keeps the form filled in beside the error
def cards():
    """The card browser: the API's search (same query, same results) as a page."""
    args = request.args.copy()
    args["q"] = (args.get("q") or "")[:MAX_QUERY]
    # The page lists as the builder does (the card named what you typed first, then
    # number order); the API keeps the contract's default, `number`.
    args.setdefault("order", PAGE_ORDER)
    if not args.get("page", "1").isdigit():
        args.pop("page")  # a hand-edited page number shows the first page
    error = None
    try:
        query, day = cardsearch.load_query(args, per_page=50)
        found = cardsearch.find(query, day)
    except ApiError as err:
        error = err
        query, found = _kept_filters(args), Found([], 0)
    pages = max(1, -(-found.total // query.per_page))
    params = {k: request.args.getlist(k) for k in request.args if k != "page"}
    page = query.page
    body = render_template(
        "cards/list.html",
        rows=[cardsearch.card_json(r) for r in found.rows],
        total=found.total,
        found=found,
        query=query,
        error=error,
        colors=list(query.color or ()),
        pages=pages,
        prev_url=url_for("web.cards", page=page - 1, **params) if page > 1 else None,
        next_url=url_for("web.cards", page=page + 1, **params) if page < pages else None,
        suggest_url=url_for("web.cards", **{**params, "q": found.did_you_mean})
        if found.did_you_mean
        else None,
        games=GAMES,
        game_names={g.id: g.name for g in GAMES.values()},
        kinds=sorted({k for g in GAMES.values() for k in g.kinds}),
        orders=ORDERS,
    )
    return body, (error.status if error else 200)


def _kept_filters(args) -> Query:
    """The form as the player filled it, when the query cannot be read: the game, kind,
    level, colours and order stay chosen, so fixing the query is one edit."""
    colors = tuple(c for c in args.getlist("color") if c)
    return Query(
        game=args.get("game") if args.get("game") in GAMES else None,
        q=args["q"],
        kind=args.get("kind") or None,
        level=args.get("level") or None,
        color=colors or None,
        order=args.get("order") if args.get("order") in ORDERS else PAGE_ORDER,
    )


@bp.get("/cards/<game>/<path:number>")
def card(game: str, number: str):
    if game not in GAMES:
        abort(404)
    row = find_card(get_db(), game, number)
    if row is None:
        abort(404)
    return render_template(
        "cards/detail.html",
        card=cardsearch.card_json(row),
        limits=service.card_limits(game, row["number"]),
        game_name=game_name(game),
    )


@bp.get("/formats")
def formats():
    loaded = registry()
    return render_template(
        "formats/list.html",
        formats=loaded.formats.values(),
        errors=loaded.errors,
        game_names={g.id: g.name for g in GAMES.values()},
    )


@bp.get("/formats/<format_id>")
def format_detail(format_id: str):
    fmt = registry().formats.get(format_id)
    if fmt is None:
        abort(404)
    data = service.format_detail_json(fmt)
    today = service.today()
    on = query_day()
    return render_template(
        "formats/detail.html",
        fmt=fmt,
        data=data,
        # Newest first: players look for what changed last.
        timeline=list(reversed(data.get("lists") or [])),
        in_force=_in_force(fmt, on or today),
        sources=[document(s) for s in fmt.sources],
        game_name=game_name(fmt.game),
        today=today.isoformat(),
        on=on.isoformat() if on else None,
    )


def _in_force(fmt, day: date) -> list[dict]:
    """The cards limited on `day` (today, or the page's `?date=`), by status then number."""
    if fmt.lists is None:
        return []
    on = fmt.day(day)
    state = fmt.lists.state_on(on)
    found = []
    # Each change that sets a card's state once: the cards of one list are read once
    # (not once per limited card, which made a 2,000-card list take seconds).
    for change in {id(change): change for _, change in state.values()}.values():
        for ref, listed in change.limits:
            current = state.get(number_key(ref.number))
            if current is not None and current[0] == listed and current[1] is change:
                found.append(
                    {
                        "card": ref.number,
                        "name": ref.name,
                        "status": listed,
                        "since": change.effective.isoformat() if change.effective else None,
                    }
                )
    pairs = [
        {"a": [r.label for r in p.a], "b": [r.label for r in p.b], "since": p.change.effective}
        for p in fmt.lists.pairs_on(on)
    ]
    unique = {(f["card"], f["status"]): f for f in found}
    return sorted(unique.values(), key=lambda f: (f["status"], natural_key(f["card"]))) + [
        {"pair": p} for p in pairs
    ]


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    words.init_app(app)
    app.add_template_filter(document, "document")
