"""The signed-in half of the accounts API: the account, its passkeys (add, remove),
its devices (sessions), signing out, deleting it."""

from __future__ import annotations

from flask import Response, jsonify, request

from deckcheck.accounts import passkeys
from deckcheck.accounts.api import (
    _base,
    _taken,
    account_json,
    bp,
    failed,
    new_passkey,
    optional_body,
    store,
)
from deckcheck.accounts.schemas import DeleteSchema
from deckcheck.bodies import json_body, load
from deckcheck.errors import ApiError
from deckcheck.server import owners, sessions

_delete_schema = DeleteSchema()


def _account() -> dict:
    row = store().account(sessions.required().account_id)
    if row is None:
        raise ApiError(401, "not-signed-in", "Sign in first (on /account).")
    return row


@bp.get("")
def account():
    return jsonify({"account": account_json(_account(), with_passkeys=True)})


@bp.delete("")
def delete_account():
    body = json_body()
    row = _account()
    keep = load(_delete_schema, body)["decks"] == "keep"
    handed = owners.release_all(row["id"], keep)
    store().delete(row["id"])
    response = jsonify(handed) if keep else Response(status=204)
    return sessions.forget(response)


@bp.post("/passkeys/options")
def passkey_options():
    optional_body()
    row = _account()
    known = [p["credential_id"] for p in store().passkeys(row["id"])]
    challenge = store().new_challenge("add", row["id"])
    return jsonify(passkeys.registration_options(_base(), row["id"], row["name"], challenge, known))


@bp.post("/passkeys/verify")
def passkey_verify():
    credential = json_body()
    row = _account()
    challenge, found = _taken(credential, "add")
    if found.account_id != row["id"]:
        raise failed("the challenge was handed to another account")
    store().add_passkey(row["id"], new_passkey(credential, challenge))
    return jsonify({"account": account_json(row, with_passkeys=True)}), 201


@bp.delete("/passkeys/<passkey_id>")
def remove_passkey(passkey_id: str):
    why = store().remove_passkey(_account()["id"], passkey_id[:64])
    if why == "last":
        raise ApiError(
            409, "last-passkey", "This is the account's only passkey: add another one first."
        )
    if why is not None:
        raise ApiError(404, "passkey-not-found", "The account has no passkey of this id.")
    return Response(status=204)


@bp.get("/sessions")
def list_sessions():
    mine = sessions.required()
    rows = sessions.listed(mine.account_id)
    return jsonify({"data": [{**r, "current": r["id"] == mine.id} for r in rows]})


@bp.delete("/sessions/<session_id>")
def end_session(session_id: str):
    mine = sessions.required()
    if not sessions.end(mine.account_id, session_id[:64]):
        raise ApiError(404, "session-not-found", "The account has no session of this id.")
    response = Response(status=204)
    return sessions.forget(response) if session_id == mine.id else response


@bp.delete("/sessions")
def end_other_sessions():
    mine = sessions.required()
    sessions.end_others(mine.account_id, mine.id)
    return Response(status=204)


@bp.post("/logout")
def logout():
    optional_body()
    mine = sessions.current() if sessions.COOKIE in request.cookies else None
    if mine is not None:
        sessions.end(mine.account_id, mine.id)
    return sessions.forget(Response(status=204))
