"""The collections API (/api/v1/collections): save, read, replace, edit (add, remove,
set), history and undo, export, per-set completion, products and what it can build.

Changes need the collection's edit token (`Authorization: Bearer`), checked by
deckcheck.decks.owner, the one place that says who may change a collection. A text
that is not empty and reads no card changes nothing (422 `nothing-read`): a bad paste
never empties a binder.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from deckcheck.bodies import json_body, load, raw_body
from deckcheck.decks import buildable, collection, collection_views, core, imports, owner, products
from deckcheck.decks.collection_store import BadProof, Edit, NothingToUndo
from deckcheck.decks.schemas import (
    BuildableRequestSchema,
    CollectionEditSchema,
    CollectionRequestSchema,
    ProductRequestSchema,
)
from deckcheck.errors import ApiError
from deckcheck.server import limits, names, owners
from rules.cache import Bounded
from rules.games import GAMES

bp = Blueprint("collections_api", __name__, url_prefix="/api/v1/collections")
_collection_schema = CollectionRequestSchema()
_edit_schema = CollectionEditSchema()
_product_schema = ProductRequestSchema()
_buildable_schema = BuildableRequestSchema()


def _read(text: str, game: str) -> imports.Reading:
    """The cards of a text; 422 `nothing-read` when it is not empty and names none."""
    reading = imports.read(text, collection.pool(game))
    if text.strip() and not reading.cards:
        raise _nothing_read(reading)
    return reading


def _nothing_read(reading: imports.Reading) -> ApiError:
    return ApiError(
        422,
        "nothing-read",
        "No line of this text names a card of the card list, so nothing was changed. "
        "Each line it could not read is listed with why.",
        {"unread": reading.unread[:100], "import": reading.about()},
    )


def _outcome(reading: imports.Reading) -> dict:
    return {"read": reading.read, "unread": reading.unread, "import": reading.about()}


def _name(value: str | None) -> str | None:
    return names.clean("name", value, names.EVENT_MAX, required=False) or None


def _may_change(collection_id: str) -> dict:
    """The collection, when this request may change it: 404, then 403 (before its body
    is read, so a stranger learns nothing of what the body would have done)."""
    row = collection.find(collection_id)
    if not owner.allows(row, owner.proof()):
        raise owner.refused()
    return row


# A collection's game never changes: an edit reads its text against that game's list
# without a read of the row first (the write checks the token and that the collection
# exists, after locking it). One read fewer per edit (on PostgreSQL, 3 round trips).
_GAMES: Bounded[str, str] = Bounded(4096)


def _game(collection_id: str) -> str:
    game = _GAMES.get(collection_id)
    if game is None:
        game = _GAMES.keep(collection_id, collection.find(collection_id)["game"])
    return game


def _edit(collection_id: str, change: Edit) -> tuple[dict, dict[str, int]]:
    try:
        done = collection.store().edit(collection_id, owner.proof(), change)
    except BadProof as err:
        raise owner.refused() from err
    if done is None:
        raise collection.not_found()
    return done


def _edited(row: dict, changed: dict[str, int], reading: imports.Reading) -> dict:
    summary = collection.summary_json(row)
    summary["changed"] = [{"number": n, "count": c} for n, c in sorted(changed.items())]
    return {"collection": summary, **_outcome(reading)}


@bp.post("")
def create_collection():
    # Limits before work: a refused request costs no JSON parse of its body and no read
    # of its (up to 20,000) lines, 0.3-0.5 s of CPU each when it came after them.
    limits.check(
        "collections",
        "create",
        "DECKS_CREATE_LIMIT",
        "At most {count} new collections per {seconds} seconds from one address; wait a "
        "while and save it again.",
    )
    data = load(_collection_schema, json_body())
    game = collection.game_of(data["game"])
    name = _name(data.get("name")) or "My collection"
    reading = _read(data["cards"], game)
    # Saved signed in: the account owns it (contract "Accounts").
    row, token = collection.store().create(name, game, reading.cards, owners.account())
    saved = collection.collection_json(row, reading.cards, reading.unread)
    return jsonify({"collection": saved, "edit_token": token, **_outcome(reading)}), 201


@bp.get("/<collection_id>")
def get_collection(collection_id: str):
    """`?names=true`: each card with its name too (the collections page shows them)."""
    row = collection.find(collection_id)
    body = collection.collection_json(row, collection.store().cards(row["id"]))
    if request.args.get("names") == "true" and row["game"] in GAMES:
        index = collection.pool(row["game"])
        for card in body["cards"]:
            found = index.cards.get(card["number"])
            card["name"] = found.name if found is not None else ""
    return jsonify(body)


@bp.put("/<collection_id>")
def replace_collection(collection_id: str):
    row = _may_change(collection_id)
    data = load(_collection_schema, {"game": row["game"], **json_body()})
    reading = _read(data["cards"], row["game"])
    if request.args.get("dry_run") == "true":
        return jsonify(_replace_preview(row, reading))
    stored, _ = _edit(collection_id, Edit("replace", reading.cards, _name(data.get("name"))))
    return jsonify(collection.collection_json(stored, reading.cards, reading.unread))


def _replace_preview(row: dict, reading: imports.Reading) -> dict:
    """What a replace would take away and add, without writing (`?dry_run=true`): the
    page's "Replace all" confirmation says what would be lost."""
    now = collection.store().cards(row["id"])
    lost = {n: c - reading.cards.get(n, 0) for n, c in now.items() if reading.cards.get(n, 0) < c}
    gained = {n: c - now.get(n, 0) for n, c in reading.cards.items() if now.get(n, 0) < c}
    return {
        "would_remove": [{"number": n, "count": c} for n, c in sorted(lost.items())],
        "would_add": [{"number": n, "count": c} for n, c in sorted(gained.items())],
        **_outcome(reading),
    }


def _set_reading(items: list[dict], game: str) -> imports.Reading:
    """`set`'s numbers against the card list: each one it lacks is unread, by position."""
    index = collection.pool(game)
    reading = imports.Reading(style="set")
    for at, item in enumerate(items, start=1):
        card = index.by_number(item["number"]) if len(item["number"]) <= 40 else None
        if card is None:
            reading.skip(at, item["number"], "no card has this number in the card list")
            continue
        reading.cards[card.number] = item["count"]
        reading.read += 1
    if items and not reading.read:
        raise _nothing_read(reading)
    return reading


@bp.patch("/<collection_id>")
def edit_collection(collection_id: str):
    game = _game(collection_id)
    data = load(_edit_schema, json_body())
    given = [key for key in ("add", "remove", "set") if key in data]
    if len(given) != 1:
        raise ApiError(
            422,
            "invalid-request",
            'Send exactly one of "add", "remove" and "set".',
            {"fields": {"add": ["one of add, remove and set"]}},
        )
    kind = given[0]
    if kind == "set":
        reading = _set_reading(data["set"], game)
    else:
        reading = _read(data[kind], game)
    stored, changed = _edit(collection_id, Edit(kind, reading.cards, _name(data.get("name"))))
    return jsonify(_edited(stored, changed, reading))


@bp.get("/<collection_id>/history")
def collection_history(collection_id: str):
    row = collection.find(collection_id)
    return jsonify({"data": collection.store().history(row["id"])})


@bp.post("/<collection_id>/undo")
def undo_change(collection_id: str):
    _may_change(collection_id)
    try:
        stored = collection.store().undo(collection_id, owner.proof())
    except BadProof as err:
        raise owner.refused() from err
    except NothingToUndo as err:
        raise ApiError(
            409,
            "nothing-to-undo",
            "This collection has no change left to undo (the last 20 changes are kept).",
        ) from err
    if stored is None:
        raise collection.not_found()
    return jsonify(collection.collection_json(stored, collection.store().cards(collection_id)))


@bp.get("/<collection_id>/export")
def export_collection(collection_id: str):
    row = collection.find(collection_id)
    style = request.args.get("style", "csv")
    if style not in ("csv", "text"):
        raise ApiError(
            422, "invalid-request", "style is csv or text.", {"fields": {"style": ["csv, text"]}}
        )
    cards, index = collection.store().cards(row["id"]), collection.pool(row["game"])
    if style == "csv":
        body, mimetype, ext = collection_views.as_csv(cards, index), "text/csv", "csv"
    else:
        body, mimetype, ext = collection_views.as_text(cards, index), "text/plain", "txt"
    disposition = f'attachment; filename="collection-{row["id"]}.{ext}"'
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": disposition})


@bp.get("/<collection_id>/sets")
def collection_sets(collection_id: str):
    row = collection.find(collection_id)
    held, index = collection.store().set_counts(row["id"]), collection.pool(row["game"])
    return jsonify({"data": collection_views.completion(held, index)})


@bp.post("/<collection_id>/products")
def add_product(collection_id: str):
    row = _may_change(collection_id)
    data = load(_product_schema, json_body())
    if ("product" in data) == ("playset" in data):
        raise ApiError(
            422,
            "invalid-request",
            'Send one of "product" (a starter deck, ST1) and "playset" (a set, BT24).',
            {"fields": {"product": ["one of product and playset"]}},
        )
    reading = imports.Reading(style="product" if "product" in data else "playset")
    if "product" in data:
        _, cards = products.starter(data["product"], row["game"])
    else:
        cards = products.playset(data["playset"], collection.pool(row["game"]))
    reading.cards, reading.read = cards, len(cards)
    stored, changed = _edit(collection_id, Edit(reading.style, cards))
    return jsonify(_edited(stored, changed, reading))


@bp.post("/<collection_id>/buildable")
def collection_buildable(collection_id: str):
    """The decks sent, or without `decks` (or a body) the signed-in account's decks."""
    row = collection.find(collection_id)
    raw = raw_body()
    ids = load(_buildable_schema, json_body(raw) if raw.strip() else {}).get("decks")
    if ids is None:
        return jsonify(_account_buildable(row))
    wanted = list(dict.fromkeys(ids))
    valid = [i for i in wanted if names.is_id(i)]
    rows = buildable.latest_lists(core.store().engine, valid) if valid else []
    found = {r["id"] for r in rows}
    body = buildable.buildable(row, rows, collection.pool(row["game"]))
    body["not_found"] = [i for i in wanted if i not in found]
    return jsonify(body)


def _account_buildable(row: dict) -> dict:
    account = owners.account()
    if account is None:
        raise ApiError(
            422,
            "invalid-request",
            'Say which decks: send {"decks": ["<deck id>", ...]}, or sign in to ask '
            "about your account's saved decks.",
            {"fields": {"decks": ["Missing: send deck ids, or sign in."]}},
        )
    rows, more = buildable.owned_lists(core.store().engine, account)
    body = buildable.buildable(row, rows, collection.pool(row["game"]))
    body["not_found"] = []
    if more:
        body["more_decks"] = True
    return body
