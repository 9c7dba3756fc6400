"""The accounts API (/api/v1/account, contract "Accounts"): create an account with a
passkey, sign in (a passkey, a recovery code, a one-time link), devices and passkeys,
sign out, delete.

Every failed verification is a 400 `passkey-failed` that changes nothing of the account
(the challenge it answered is used up: a challenge is single use). Sign-in attempts are
limited per address and per account (429 `too-many-attempts`).
"""

from __future__ import annotations

import secrets
import time

from flask import Blueprint, current_app, jsonify, request

from deckcheck.accounts import passkeys
from deckcheck.accounts.passkeys import PasskeyFailed
from deckcheck.accounts.store import AccountStore
from deckcheck.bodies import json_body
from deckcheck.errors import ApiError
from deckcheck.server import http, limits, names, sessions
from deckcheck.server.opened import database, product_store

bp = Blueprint("accounts_api", __name__, url_prefix="/api/v1/account")
NAME_MAX = 60


def store() -> AccountStore:
    """The app's account store, on the app's database (opened on first use)."""
    return product_store("deckcheck.accounts", AccountStore)


def optional_body() -> dict:
    """The body of a POST that needs none: empty, or a JSON object (anything else is
    refused as every JSON route refuses it)."""
    raw = request.get_data(cache=True)
    return json_body(raw) if raw else {}


def failed(why: str = "") -> ApiError:
    return ApiError(
        400,
        "passkey-failed",
        "The passkey's answer could not be verified; nothing was changed. Try again.",
        {"reason": why[:200]} if why else {},
    )


def buckets(account: str | None = None) -> list[tuple[str, int, int]]:
    """The rate-limit buckets a sign-in attempt takes: this address's (and the account's)."""
    count, seconds = current_app.config["ACCOUNTS_SIGNIN_LIMIT"]
    if count <= 0:
        return []
    keys = [f"signin:address:{limits.client_address()}"]
    if account is not None:
        keys.append(f"signin:account:{account}")
    return [(key, count, seconds) for key in keys]


def too_many() -> ApiError:
    count, seconds = current_app.config["ACCOUNTS_SIGNIN_LIMIT"]
    return ApiError(
        429,
        "too-many-attempts",
        f"At most {count} sign-in attempts per {seconds} seconds; wait a while.",
        {"limit": count, "seconds": seconds},
    )


def attempt(account: str | None = None) -> None:
    """Count a sign-in attempt against this address (and the account): 429 past it."""
    for key, count, seconds in buckets(account):
        if not database().take(key, count, seconds, time.time()):
            raise too_many()


def account_json(row: dict, with_passkeys: bool = False) -> dict:
    data = {"id": row["id"], "name": row["name"], "created_at": row["created_at"]}
    if with_passkeys:
        data["passkeys"] = [
            {k: p[k] for k in ("id", "created_at", "last_used_at")}
            for p in store().passkeys(row["id"])
        ]
    return data


def signed_in(account_id: str, status: int = 200, secret: str | None = None, **extra):
    """The answer of a sign-in: the account, and the session's cookie (a new session
    unless the caller stored one: `secret`)."""
    row = store().account(account_id)
    if row is None:  # deleted meanwhile
        raise failed("no such account")
    secret = secret or sessions.start(account_id)
    response = jsonify({"account": account_json(row), **extra})
    response.status_code = status
    return sessions.give(response, secret)


def _base() -> str:
    return http.base_url()


def _taken(credential: object, purpose: str):
    """The challenge a response answers, used up; passkey-failed when it is not one."""
    challenge = _challenge_of(credential)
    found = store().take_challenge(challenge, purpose)
    if found is None:
        raise failed("unknown, used or expired challenge")
    return challenge, found


# -- creating an account ----------------------------------------------------------


@bp.post("/register/options")
def register_options():
    name = names.clean("name", json_body().get("name"), NAME_MAX)
    account_id = secrets.token_urlsafe(9)
    challenge = store().new_challenge("register", account_id, name, buckets())
    if challenge is None:
        raise too_many()
    return jsonify(passkeys.registration_options(_base(), account_id, name, challenge, []))


def new_passkey(credential: dict, challenge: bytes):
    """The passkey a registration makes, verified; 400 `passkey-failed` when it does not
    verify or already belongs to an account (registering, or adding one to an account)."""
    try:
        key = passkeys.verify_registration(_base(), credential, challenge)
    except PasskeyFailed as err:
        raise failed(str(err)) from err
    if store().passkey(key.credential_id) is not None:
        raise failed("this passkey already belongs to an account")
    return key


@bp.post("/register/verify")
def register_verify():
    credential = json_body()
    attempt()
    challenge, found = _taken(credential, "register")
    key = new_passkey(credential, challenge)
    account, codes = store().create(found.account_id, found.name, key)
    return signed_in(account["id"], 201, recovery_codes=codes)


# -- signing in -------------------------------------------------------------------


@bp.post("/login/options")
def login_options():
    optional_body()
    challenge = store().new_challenge("login", buckets=buckets())
    if challenge is None:
        raise too_many()
    return jsonify(passkeys.authentication_options(_base(), challenge))


@bp.post("/login/verify")
def login_verify():
    """Every attempt is counted in the transaction that ends it (the sign-in's, or the
    one that throws its challenge away): one commit for a sign-in."""
    credential = json_body()
    challenge = _challenge_of(credential)
    if store().peek_challenge(challenge, "login") is None:
        attempt()
        raise failed("unknown, used or expired challenge")
    key = store().passkey(str(credential.get("id", ""))[:1400])
    try:
        if key is None:
            raise PasskeyFailed("this passkey belongs to no account here")
        count = _verified(credential, challenge, key)
    except PasskeyFailed as err:
        mine = key["account_id"] if key is not None else None
        if not store().drop_challenge(challenge, buckets(mine)):
            raise too_many() from err
        raise failed(str(err)) from err
    row, secret = sessions.new_row(key["account_id"])
    refused = store().sign_in(challenge, key["id"], count, row, buckets(key["account_id"]))
    if refused == "limited":
        raise too_many()
    if refused is not None:
        raise failed("the challenge was used meanwhile")
    sessions.adopt(row)
    return signed_in(key["account_id"], secret=secret)


def _challenge_of(credential: object) -> bytes:
    try:
        return passkeys.challenge_of(credential)
    except PasskeyFailed as err:
        raise failed(str(err)) from err


def _verified(credential: dict, challenge: bytes, key: dict) -> int:
    """The authenticator's new counter, once the assertion is verified for `key`."""
    handle = passkeys.user_handle(credential)
    if handle is not None and handle != key["account_id"]:
        raise PasskeyFailed("the user handle names another account")
    return passkeys.verify_authentication(
        _base(), credential, challenge, key["public_key"], key["sign_count"]
    )


def _secret_field(field: str, limit: int = 200) -> str:
    value = json_body().get(field)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise names.FieldError(field, f"A text of at most {limit} characters.")
    return value


@bp.post("/login/recovery")
def login_recovery():
    code = _secret_field("code")
    attempt()
    account_id = store().use_code(code)
    if account_id is None:
        raise ApiError(
            400, "code-not-valid", "This recovery code is not one of an account, or was used."
        )
    return signed_in(account_id)


@bp.post("/links")
def new_link():
    optional_body()
    account_id = sessions.required().account_id
    secret, expires = store().new_link(account_id)
    return jsonify({"url": f"{_base()}/account/link#{secret}", "expires_at": expires}), 201


@bp.post("/links/use")
def use_link():
    secret = _secret_field("secret")
    attempt()
    account_id = store().use_link(secret)
    if account_id is None:
        raise ApiError(
            400,
            "link-not-valid",
            "This sign-in link was used, has expired (after 10 minutes) or is wrong: make a "
            "new one on a signed-in device.",
        )
    return signed_in(account_id)
