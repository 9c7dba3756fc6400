"""The other ways in (contract "Accounts"): recovery codes and one-time links, each
single use; sign-in attempts limited per address and per account; and the same-origin
rule for every state-changing request that carries a session."""

from __future__ import annotations

import time

import pytest
from accounts.conftest import site_client
from accounts.helpers import login, register
from decks.deck_helpers import close, make_app


def test_a_recovery_code_signs_in_once(app, client):
    made, _ = register(client)
    code = made["recovery_codes"][3]
    other = site_client(app)
    typed = code.upper().replace("-", " ")  # as read aloud or copied with spaces
    signed = other.post("/api/v1/account/login/recovery", json={"code": typed})
    assert signed.status_code == 200 and signed.get_json()["account"]["id"] == made["account"]["id"]
    again = site_client(app).post("/api/v1/account/login/recovery", json={"code": code})
    assert again.status_code == 400 and again.get_json()["error"]["code"] == "code-not-valid"
    assert "Set-Cookie" not in again.headers
    page = other.get("/account").get_data(as_text=True)
    assert "9 of your recovery codes are left" in page


def test_a_one_time_link_signs_in_another_device_once(app, client):
    register(client)
    link = client.post("/api/v1/account/links")
    assert link.status_code == 201
    url = link.get_json()["url"]
    assert url.startswith("/account/link#")
    secret = url.split("#", 1)[1]
    laptop = site_client(app)
    used = laptop.post("/api/v1/account/links/use", json={"secret": secret})
    assert used.status_code == 200 and used.get_json()["account"]["name"] == "Rika"
    assert laptop.get("/api/v1/account").status_code == 200
    again = site_client(app).post("/api/v1/account/links/use", json={"secret": secret})
    assert again.status_code == 400 and again.get_json()["error"]["code"] == "link-not-valid"


def test_a_link_expires_after_ten_minutes(app, client, monkeypatch):
    register(client)
    secret = client.post("/api/v1/account/links").get_json()["url"].split("#", 1)[1]
    later = time.time() + 601
    monkeypatch.setattr("deckcheck.accounts.store.time.time", lambda: later)
    used = site_client(app).post("/api/v1/account/links/use", json={"secret": secret})
    assert used.status_code == 400 and used.get_json()["error"]["code"] == "link-not-valid"


def test_making_a_link_needs_a_session(client):
    answer = client.post("/api/v1/account/links")
    assert answer.status_code == 401 and answer.get_json()["error"]["code"] == "not-signed-in"


@pytest.fixture
def limited(tmp_path):
    made = make_app(tmp_path, str(tmp_path / "events.db"), ACCOUNTS_SIGNIN_LIMIT=(4, 3600))
    yield made
    close(made)


def test_sign_in_attempts_are_limited_per_address(limited):
    client = site_client(limited)
    for _ in range(4):
        answer = client.post("/api/v1/account/login/recovery", json={"code": "wrong-code"})
        assert answer.status_code == 400
    refused = client.post("/api/v1/account/login/recovery", json={"code": "wrong-code"})
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "too-many-attempts"


def test_sign_in_attempts_are_limited_per_account(limited):
    _, key = register(site_client(limited))  # options + verify: 2 from this address
    for n in range(4):
        # Each from another address: only the account's own bucket empties.
        client = site_client(limited)
        client.environ_base["REMOTE_ADDR"] = f"10.0.0.{n + 1}"
        assert login(client, key).status_code == 200
    client = site_client(limited)
    client.environ_base["REMOTE_ADDR"] = "10.0.1.1"
    refused = login(client, key)
    assert refused.status_code == 429 and refused.get_json()["error"]["code"] == "too-many-attempts"


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"},
        {"Sec-Fetch-Site": "same-site", "Origin": "http://sub.localhost"},
        {},  # neither header: nothing shows it came from this site
    ],
)
def test_a_cross_site_request_with_a_session_is_refused(app, headers):
    client = site_client(app)
    register(client)
    del client.environ_base["HTTP_ORIGIN"]
    saved = client.post(
        "/api/v1/decks", json={"format": "dcg", "decklist": "4 ST1-01"}, headers=headers
    )
    assert saved.status_code == 403 and saved.get_json()["error"]["code"] == "cross-site"
    for method, path in (("POST", "/api/v1/account/links"), ("POST", "/api/v1/account/logout"),
                         ("DELETE", "/api/v1/account/sessions")):  # fmt: skip
        answer = client.open(path, method=method, headers=headers, json={})
        assert answer.status_code == 403, path
    # The session was not ended by the refused logout.
    assert client.get("/api/v1/account").status_code == 200


def test_same_origin_and_bearer_requests_pass(app):
    client = site_client(app)
    register(client)
    del client.environ_base["HTTP_ORIGIN"]
    made = client.post(
        "/api/v1/decks",
        json={"format": "dcg", "decklist": "4 ST1-01"},
        headers={"Sec-Fetch-Site": "same-origin"},
    )
    assert made.status_code == 201
    body = made.get_json()
    # A bearer token proves its own right, from anywhere.
    changed = client.put(
        f"/api/v1/decks/{body['deck']['id']}",
        json={"decklist": "4 ST1-02"},
        headers={"Authorization": f"Bearer {body['edit_token']}", "Origin": "https://x.example"},
    )
    assert changed.status_code == 200


def test_a_request_without_a_session_needs_no_origin(app):
    client = app.test_client()
    made = client.post("/api/v1/decks", json={"format": "dcg", "decklist": "4 ST1-01"})
    assert made.status_code == 201


def test_a_signed_out_session_signs_nothing_in(app, client):
    _, key = register(client)
    kept = client.get_cookie("deckcheck_session").value
    assert client.post("/api/v1/account/logout").status_code == 204
    assert client.get_cookie("deckcheck_session") is None
    client.set_cookie("deckcheck_session", kept)  # a copy kept of the cookie: ended
    assert client.get("/api/v1/account").status_code == 401
    other = site_client(app)
    assert login(other, key).status_code == 200
