"""The saved decks API (/api/v1/decks): save, read, replace (a new version), delete,
versions and their diff, many decks at once, sample hands and what a collection lacks.

Changes carry `Authorization: Bearer <edit token>`; the token is compared in constant
time (as a SHA-256 hash) and never written to a log or the database.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from deckcheck import service
from deckcheck.bodies import json_body, load
from deckcheck.decks import collection, core, sample, versions
from deckcheck.decks.schemas import (
    DeckCreateSchema,
    DeckReplaceSchema,
    LookupSchema,
)
from deckcheck.errors import ApiError
from deckcheck.format_registry import get_format
from deckcheck.server import http, names, owners
from deckcheck.server.packing import unpack
from deckcheck.server.tokens import token_matches

bp = Blueprint("decks_api", __name__, url_prefix="/api/v1/decks")

_create_schema = DeckCreateSchema()
_replace_schema = DeckReplaceSchema()
_lookup_schema = LookupSchema()


def _deck_answer(row: dict) -> dict:
    seen = core.view_now(row)
    return core.deck_json(row, seen.view, seen.changed, seen.day)


@bp.post("")
def create_deck():
    data = load(_create_schema, json_body())
    row, token = core.create(data)
    body = {
        "deck": core.deck_json(row, unpack(row["judged"]), False, service.today().isoformat()),
        "edit_token": token,
        "edit_url": f"{core.base_url()}/d/{row['id']}/edit#{token}",
    }
    return jsonify(body), 201


@bp.post("/lookup")
def lookup():
    ids = load(_lookup_schema, json_body())["ids"]
    wanted = list(dict.fromkeys(i for i in ids))
    valid = [i for i in wanted if names.is_id(i)]
    found = {row["id"]: row for row in core.store().summaries(valid)} if valid else {}
    rows = [found[deck_id] for deck_id in wanted if deck_id in found]
    data = core.summaries(rows, core.LOOKUP_JUDGED)
    return jsonify({"data": data, "not_found": [i for i in wanted if i not in found]})


def _not_a_deck(deck_id: str) -> None:
    """`/api/v1/decks/validate` (and its siblings) take POST only: a GET, PUT or DELETE
    there is a 405 with their Allow, not a deck that was not found."""
    adapter = current_app.url_map.bind("localhost")
    try:
        adapter.match(f"{bp.url_prefix}/{deck_id}", method="POST")
    except HTTPException:
        return  # no POST route there: a deck id
    raise MethodNotAllowed(valid_methods=["POST"])


@bp.get("/<deck_id>")
def get_deck(deck_id: str):
    """The deck as of today; a changed verdict is "changed" (with "was") on this read
    and becomes the verdict the next read is measured against."""
    _not_a_deck(deck_id)
    row = core.find_deck(deck_id)
    seen = core.view_now(row)
    answer = core.deck_json(row, seen.view, seen.changed, seen.day)
    if seen.changed and request.method == "GET":  # a HEAD shows nothing
        core.shown(row, seen)
    if row["owner"] is not None and row["owner"] == owners.account():
        answer["yours"] = True  # to its owner only: the editor may save by the session
    response = jsonify(answer)
    response.vary.add("Cookie")
    return response


@bp.put("/<deck_id>")
def replace_deck(deck_id: str):
    _not_a_deck(deck_id)
    core.find_deck(deck_id)  # an unknown deck is a 404 whatever the body
    token = http.bearer_token()
    data = load(_replace_schema, json_body())
    return jsonify(_deck_answer(core.replace(deck_id, token, data)))


@bp.get("/<deck_id>/edit-token")
def check_edit_token(deck_id: str):
    """204 when the Bearer token is this deck's edit token, else 403 `bad-token`: the
    editor asks before it keeps a token from a link (deck ids are public, so a link with
    a wrong token must not replace the one a browser keeps). Changes nothing."""
    row = core.find_deck(deck_id)
    if not token_matches(row["edit_hash"], http.bearer_token()):
        raise core.bad_token()
    return Response(status=204)


@bp.delete("/<deck_id>")
def delete_deck(deck_id: str):
    _not_a_deck(deck_id)
    core.delete(deck_id, http.bearer_token())
    return Response(status=204)


@bp.get("/<deck_id>/versions")
def deck_versions(deck_id: str):
    """The versions a deck keeps, oldest first, a page at a time: `?after=<n>` (the
    versions after number n) and `?limit=` (1-100, default 100); `has_more` says whether
    more follow, `next_after` what to ask for next."""
    core.find_deck(deck_id)
    after = versions.version_number(request.args.get("after"), "after", 0)
    limit = versions.page_size(request.args.get("limit"))
    rows = core.store().versions(deck_id, after=after, limit=limit + 1)
    page = rows[:limit]
    more = len(rows) > limit
    return jsonify(
        {
            "data": [
                {**r, "legal": bool(r["legal"]), "verdict": versions.verdict_as_saved(r)}
                for r in page
            ],
            "has_more": more,
            "next_after": page[-1]["version"] if more else None,
        }
    )


def _version(deck_id: str, number: int) -> dict:
    row = core.store().version(deck_id, number)
    if row is None:
        raise ApiError(
            404,
            "version-not-found",
            f"This deck has no version {number} (a deck keeps its newest "
            f"{current_app.config['DECKS_VERSIONS_KEPT']} versions).",
            {"version": number},
        )
    return row


@bp.get("/<deck_id>/versions/<number>")
def deck_version(deck_id: str, number: str):
    core.find_deck(deck_id)
    wanted = versions.version_number(number, "version", 0)
    return jsonify(versions.version_json(_version(deck_id, wanted)))


@bp.get("/<deck_id>/diff")
def deck_diff(deck_id: str):
    row = core.find_deck(deck_id)
    to = versions.version_number(request.args.get("to"), "to", row["version"])
    start = versions.version_number(request.args.get("from"), "from", max(1, to - 1))
    before, after = _version(deck_id, start), _version(deck_id, to)
    fmt = get_format(row["format"])
    index = core.world(fmt)[1] if fmt is not None else None
    body = versions.diff(unpack(before["structured"]), unpack(after["structured"]), index)
    return jsonify({"from": start, "to": to, **body})


@bp.get("/<deck_id>/sample")
def deck_sample(deck_id: str):
    row = core.find_deck(deck_id)
    seed = sample.seed_of(request.args.get("seed"))
    structured = unpack(_version(deck_id, row["version"])["structured"])
    fmt = service.find_format(row["format"])
    return jsonify(sample.draw(fmt.game, structured, seed, core.world(fmt)[1]))


@bp.get("/<deck_id>/missing")
def deck_missing(deck_id: str):
    row = core.find_deck(deck_id)
    owned = collection.find(request.args.get("collection") or "")
    structured = unpack(_version(deck_id, row["version"])["structured"])
    fmt = service.find_format(row["format"])
    return jsonify(collection.missing(structured, owned, core.world(fmt)[1]))
