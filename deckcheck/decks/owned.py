"""An account's decks and collections (contract "Accounts"): listed on every device,
claimed from the tokens a browser keeps, one Atom feed of all their verdict changes,
and handed back or deleted with the account.

The decks ask the server layer who is signed in (deckcheck.server.owners); they never
import the accounts code, and the accounts code reaches them only through the release
registered here (deckcheck.server.owners.on_release).
"""

from __future__ import annotations

from flask import Blueprint, Flask, Response, jsonify
from marshmallow import Schema, fields, validate

from deckcheck.bodies import json_body, load
from deckcheck.decks import core, feed, owned_store
from deckcheck.server import names, owners
from deckcheck.server.tables.decks import collections, decks

bp = Blueprint("account_decks", __name__)
CLAIM_MAX = 500  # items of one claim, as a lookup's ids
FEED_ID = "tag:deckcheck,2026:accounts/{id}/changes"


class _Item(Schema):
    id = fields.String(required=True, validate=validate.Length(max=100))
    edit_token = fields.String(required=True, validate=validate.Length(max=200))


class ClaimSchema(Schema):
    decks = fields.List(fields.Nested(_Item), load_default=list)
    collections = fields.List(fields.Nested(_Item), load_default=list)


_claim_schema = ClaimSchema()


@bp.get("/api/v1/account/decks")
def account_decks():
    account = owners.signed_in()
    rows = owned_store.owned_decks(core.store(), account)
    # Judged again as a lookup is (decks/api.py): at most LOOKUP_JUDGED decks a request.
    return jsonify({"data": core.summaries(rows, core.LOOKUP_JUDGED)})


@bp.get("/api/v1/account/collections")
def account_collections():
    account = owners.signed_in()
    rows = owned_store.owned_collections(core.store(), account)
    keys = ("id", "name", "game", "entries", "created_at", "updated_at")
    return jsonify({"data": [{k: r[k] for k in keys} for r in rows]})


@bp.post("/api/v1/account/claim")
def claim():
    body = json_body()
    account = owners.signed_in()
    data = load(_claim_schema, body)
    items = [("deck", decks, i) for i in data["decks"]]
    items += [("collection", collections, i) for i in data["collections"]]
    if len(items) > CLAIM_MAX:
        raise names.FieldError("decks", f"At most {CLAIM_MAX} decks and collections at once.")
    claimed, refused = [], []
    for kind, table, item in items:
        found = None
        if names.is_id(item["id"]):
            found = owned_store.claim(core.store(), table, item["id"], item["edit_token"], account)
        else:
            found = "not-found"
        answer = {"type": kind, "id": item["id"]}
        if found is None:
            claimed.append(answer)
        else:
            refused.append({**answer, "reason": found})
    return jsonify({"claimed": claimed, "refused": refused})


@bp.get("/account/changes.atom")
def account_feed():
    account = owners.signed_in()
    entries = owned_store.account_feed(core.store(), account, feed.SHOWN)
    feed_id = FEED_ID.format(id=account)
    # Each entry names its deck: one feed holds them all.
    body = "".join(
        feed.entry_xml(
            f"{feed_id}/{e['deck_id']}",
            f"{core.base_url()}/d/{e['deck_id']}",
            {**e, "title": f"{e['name']}: {e['title']}"},
        )
        for e in entries
    )
    updated = entries[0]["at"] if entries else "1970-01-01T00:00:00+00:00"
    text = feed.feed_xml(
        feed_id, "My decks: changes to their verdicts", f"{core.base_url()}/decks", updated, body
    )
    return Response(text, mimetype="application/atom+xml")


def _release(account: str, keep: bool) -> dict:
    return owned_store.release(core.store(), account, keep)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    owners.on_release(app, _release)
