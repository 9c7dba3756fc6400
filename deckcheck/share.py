"""Share links: a report's decklist carried in its own address, signed.

The `d=` parameter comes back from any browser, so it is checked before any work:
its length first (a link longer than SHARE_LINK_MAX was never made here), then its
signature (itsdangerous, keyed by SECRET_KEY), and only then is it decompressed.
A tampered, foreign or oversized link is a 400 page, never a 500.

Links are relative, or absolute from DECKCHECK_BASE_URL; never built from the
request's Host header, which any client can set.
"""

from __future__ import annotations

from flask import current_app, url_for
from itsdangerous import BadSignature, URLSafeSerializer

from deckcheck.errors import ApiError

SALT = "deckcheck.share-link.v1"


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt=SALT)


def pack(text: str) -> str:
    """A decklist as a signed, compressed URL parameter."""
    return _serializer().dumps(text)


def unpack(token: str) -> str:
    if len(token) > current_app.config["SHARE_LINK_MAX"]:
        raise ApiError(400, "link-too-long", "This report link is longer than any link made here.")
    try:
        text = _serializer().loads(token)
    except BadSignature as err:
        raise ApiError(
            400, "bad-link", "This report link is damaged; paste the deck again."
        ) from err
    if not isinstance(text, str):
        raise ApiError(400, "bad-link", "This report link is damaged; paste the deck again.")
    return text


def link(endpoint: str, **values) -> str:
    """An address of this service: relative, or under the configured base URL."""
    return current_app.config["BASE_URL"] + url_for(endpoint, **values)


def fits(url: str) -> bool:
    """Whether a link is short enough to hand out (else the page offers a posted form)."""
    return len(url) <= current_app.config["SHARE_LINK_MAX"]
