"""The edit tokens a browser is shown on its receipts, kept sealed in its session cookie.

After a player sends a list through the form, the receipt page that follows shows the
private link (which holds the edit token) to that browser only. Flask's session cookie
is signed, not encrypted: anyone who sees the cookie could read a token kept there as
it is. So a token is kept sealed (Fernet: AES with an HMAC, under a key derived from
SECRET_KEY) beside its submission's id, which is public anyway, and only for
KEEP_SECONDS: a receipt opened later shows the public receipt, and the private link
is the player's to keep.
"""

from __future__ import annotations

import base64
import time
from collections.abc import MutableMapping

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import current_app

KEPT = 3  # tokens a browser's session remembers (its latest receipts)
KEEP_SECONDS = 3600
clock = time.time  # what "now" is when a sealed token is opened (a test moves it)
_made: dict[tuple, MultiFernet] = {}


def _key(secret: str | bytes) -> bytes:
    raw = secret.encode() if isinstance(secret, str) else secret
    # A key of its own, so a sealed token and a signed share link never share one.
    derived = HKDF(hashes.SHA256(), 32, salt=None, info=b"deckcheck edit tokens").derive(raw)
    return base64.urlsafe_b64encode(derived)


def _sealer() -> MultiFernet:
    """The current SECRET_KEY seals; it and its fallbacks open (a key rotated meanwhile)."""
    config = current_app.config
    secrets = (config["SECRET_KEY"], *(config.get("SECRET_KEY_FALLBACKS") or ()))
    made = _made.get(secrets)
    if made is None:
        made = _made[secrets] = MultiFernet([Fernet(_key(s)) for s in secrets])
    return made


def remember(session: MutableMapping, owner_id: str, token: str, kind: str = "edit") -> None:
    """Keep `token` sealed beside `owner_id` (a submission's id; an event's, for the
    organizer's token after creating it: `kind="created"`)."""
    sealed = _sealer().encrypt_at_time(token.encode(), int(clock())).decode()
    kept = [pair for pair in session.get(kind, []) if pair[0] != owner_id]
    session[kind] = [*kept[-(KEPT - 1) :], [owner_id, sealed]]


def remembered(session: MutableMapping, owner_id: str, kind: str = "edit") -> str | None:
    """The token kept for this id, while it is fresh; None otherwise (an old or
    damaged cookie, an unsealed token of an older release: none is trusted)."""
    return dict(_opened(session, kind)).get(owner_id)


def every_remembered(session: MutableMapping, kind: str = "edit") -> list[str]:
    """Every fresh token kept (a player's earlier list may be another version's id)."""
    return [token for _, token in _opened(session, kind)]


def _opened(session: MutableMapping, kind: str) -> list[tuple[str, str]]:
    """(id, token) of each well-formed, fresh pair the session keeps, opened."""
    found = []
    for pair in session.get(kind, []):
        if not isinstance(pair, list) or len(pair) != 2:
            continue
        try:
            opened = _sealer().decrypt_at_time(str(pair[1]).encode(), KEEP_SECONDS, int(clock()))
        except InvalidToken:
            continue
        found.append((str(pair[0]), opened.decode()))
    return found
