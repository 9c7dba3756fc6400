"""/account rendered on the server (it reads without JavaScript), the one-time link form
with its QR code, the IP-address notice, and a session that ends unused."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from accounts.conftest import site_client
from accounts.helpers import register

from deckcheck.server.tables.accounts import account_sessions


def test_signed_out_the_page_offers_to_create_and_sign_in(client):
    page = client.get("/account").get_data(as_text=True)
    assert 'id="register-form"' in page and 'id="login"' in page and 'id="recovery-form"' in page
    assert "account-ip" not in page
    assert "account.js" in page and "<script>" not in page  # no inline script


def test_on_an_ip_address_the_page_says_to_use_a_host_name(app):
    page = app.test_client().get("/account", base_url="http://127.0.0.1:5000/")
    assert 'id="account-ip"' in page.get_data(as_text=True)


def test_signed_in_the_page_shows_the_account_its_passkeys_and_devices(client):
    register(client, "Rika Nonaka")
    page = client.get("/account").get_data(as_text=True)
    assert "Rika Nonaka" in page and "(this device)" in page
    assert page.count("<li>Added ") == 1 and "10 of your recovery codes are left" in page


def test_the_link_form_shows_a_whole_link_and_its_qr_code(app, client):
    register(client)
    page = client.post("/account/links", data={"origin": "http://localhost:5000"})
    text = page.get_data(as_text=True)
    found = re.search(r'id="link-url" href="(http://localhost:5000/account/link#([^"]+))"', text)
    assert found and '<svg xmlns="http://www.w3.org/2000/svg"' in text
    used = site_client(app).post("/api/v1/account/links/use", json={"secret": found.group(2)})
    assert used.status_code == 200
    # An origin that is not one stays out: the link is the path alone.
    odd = client.post("/account/links", data={"origin": "javascript:alert(1)//"})
    assert 'href="/account/link#' in odd.get_data(as_text=True)


def test_the_link_form_is_refused_cross_site(client):
    register(client)
    refused = client.post(
        "/account/links", data={"origin": ""}, headers={"Origin": "https://evil.example"}
    )
    assert refused.status_code == 403


def test_a_session_unused_for_30_days_ends(app, client):
    register(client)
    old = (datetime.now(UTC) - timedelta(days=31)).isoformat()
    engine = app.extensions["deckcheck.database"].engine
    with engine.begin() as conn:
        conn.execute(account_sessions.update().values(last_seen_at=old))
    assert client.get("/api/v1/account").status_code == 401


def test_the_cookie_is_secure_when_the_request_came_over_https(app):
    from accounts.authenticator import SoftPasskey

    client = app.test_client()
    client.environ_base["HTTP_ORIGIN"] = "https://localhost"
    options = client.post(
        "/api/v1/account/register/options", json={"name": "T"}, base_url="https://localhost/"
    )
    key = SoftPasskey(origin="https://localhost")
    made = client.post(
        "/api/v1/account/register/verify",
        json=key.create(options.get_json()),
        base_url="https://localhost/",
    )
    assert made.status_code == 201 and "Secure" in made.headers["Set-Cookie"]
