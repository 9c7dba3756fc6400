"""No secret in a readable cookie (issue 40): the edit token a receipt shows its browser
is kept sealed in the session cookie, for an hour; every cookie is HttpOnly,
SameSite=Lax, and Secure behind https."""

from __future__ import annotations

import re
import zlib

import pytest
from conftest import new_app
from fixture_cards import ST1_TEXT
from itsdangerous import base64_decode

from deckcheck.server import kept_tokens

EVENT = {"name": "Cup", "format": "dcg", "deadline": "2099-12-05T09:00:00+01:00"}


def _session_text(value: str) -> str:
    """What anyone who sees Flask's signed session cookie can read in it."""
    compressed = value.startswith(".")
    payload = base64_decode(value.lstrip(".").split(".")[0])
    return (zlib.decompress(payload) if compressed else payload).decode()


def _send_form(client, base_url="http://localhost"):
    event = client.post("/api/v1/events", json=EVENT, base_url=base_url).get_json()
    sent = client.post(
        f"/e/{event['id']}",
        data={"player": "Gus", "decklist": ST1_TEXT, "anyway": "1"},
        base_url=base_url,
    )
    assert sent.status_code == 303
    return sent


def _private_token(client, sent) -> str | None:
    page = client.get(sent.headers["Location"]).get_data(as_text=True)
    found = re.search(r'id="private-link" data-whole>[^<#]*#edit=([^<]+)<', page)
    return found.group(1) if found else None


def test_the_edit_token_is_not_readable_in_the_cookie(client):
    sent = _send_form(client)
    cookie = client.get_cookie("session")
    token = _private_token(client, sent)
    assert token, "the receipt shows the private link to the browser that sent the list"
    assert token not in cookie.value and token not in _session_text(cookie.value)
    assert token not in sent.headers["Set-Cookie"]


def test_a_kept_token_is_shown_for_an_hour_only(client, monkeypatch):
    sent = _send_form(client)
    assert _private_token(client, sent)
    now = kept_tokens.clock()
    monkeypatch.setattr(kept_tokens, "clock", lambda: now + kept_tokens.KEEP_SECONDS + 5)
    assert _private_token(client, sent) is None


def test_a_token_kept_in_the_clear_by_an_older_release_is_not_trusted(client):
    sent = _send_form(client)
    sid, token = sent.headers["Location"].rsplit("/", 1)[-1], _private_token(client, sent)
    with client.session_transaction() as session:
        session["edit"] = [[sid, token]]
    assert _private_token(client, sent) is None


@pytest.mark.parametrize(
    ("base_url", "setting", "secure"),
    [
        ("http://localhost", "", False),
        ("https://localhost", "", True),
        ("http://localhost", "https://deckcheck.example", True),
    ],
    ids=["http", "https", "https-base-url"],
)
def test_every_cookie_is_httponly_lax_and_secure_behind_https(
    tmp_path, cards_db, base_url, setting, secure
):
    client = new_app(tmp_path, BASE_URL=setting).test_client()
    sent = _send_form(client, base_url)
    cookies = sent.headers.getlist("Set-Cookie")
    assert cookies
    for cookie in cookies:
        flags = {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}
        assert "httponly" in flags and "samesite=lax" in cookie.lower()
        assert ("secure" in flags) == secure, cookie
