"""Accounts with passkeys through the API (contract "Accounts"): create, sign in, and
every way a verification fails (replayed, wrong origin, wrong relying party, a
challenge used or expired), on SQLite and PostgreSQL. Real signatures, real
py_webauthn: a software passkey (tests/accounts/authenticator.py) answers."""

from __future__ import annotations

import time

from accounts.authenticator import SoftPasskey
from accounts.conftest import site_client
from accounts.helpers import login, register
from sqlalchemy import func, select

from deckcheck.server.tables.accounts import accounts, recovery_codes
from deckcheck.server.tokens import token_hash


def _count(app, table) -> int:
    engine = app.extensions["deckcheck.database"].engine
    with engine.begin() as conn:
        return conn.execute(select(func.count()).select_from(table)).scalar_one()


def test_register_shows_ten_codes_once_stores_them_hashed_and_signs_in(both_app):
    client = site_client(both_app)
    options = client.post("/api/v1/account/register/options", json={"name": " Rika\u200b "})
    body = options.get_json()
    assert body["rp"]["id"] == "localhost" and body["attestation"] == "none"
    assert [p["alg"] for p in body["pubKeyCredParams"]] == [-7, -257]
    assert body["authenticatorSelection"]["residentKey"] == "required"
    assert body["authenticatorSelection"]["userVerification"] == "preferred"
    made = client.post("/api/v1/account/register/verify", json=SoftPasskey().create(body))
    assert made.status_code == 201
    answer = made.get_json()
    assert answer["account"]["name"] == "Rika"  # normalised as player names are
    codes = answer["recovery_codes"]
    assert len(codes) == 10 and len(set(codes)) == 10
    cookie = made.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    engine = both_app.extensions["deckcheck.database"].engine
    with engine.begin() as conn:
        stored = set(conn.execute(select(recovery_codes.c.code_hash)).scalars())
    assert codes[0] not in stored and len(stored) == 10  # hashed, never as typed
    me = client.get("/api/v1/account").get_json()["account"]
    assert me["id"] == answer["account"]["id"] and len(me["passkeys"]) == 1


def test_sign_in_with_the_passkey_on_another_device(both_app):
    _, key = register(site_client(both_app))
    other = site_client(both_app)
    assert other.get("/api/v1/account").status_code == 401
    signed = login(other, key)
    assert signed.status_code == 200 and signed.get_json()["account"]["name"] == "Rika"
    assert other.get("/api/v1/account").get_json()["account"]["passkeys"][0]["last_used_at"]


def test_an_rs256_passkey_registers_and_signs_in(app, client):
    _, key = register(client, key=SoftPasskey(rsa_key=True))
    assert login(site_client(app), key).status_code == 200


def test_a_replayed_assertion_is_refused_and_changes_nothing(app, client):
    _, key = register(client)
    options = client.post("/api/v1/account/login/options", json={}).get_json()
    answer = key.get(options)
    other = site_client(app)
    assert other.post("/api/v1/account/login/verify", json=answer).status_code == 200
    again = site_client(app).post("/api/v1/account/login/verify", json=answer)
    assert again.status_code == 400
    assert again.get_json()["error"]["code"] == "passkey-failed"
    assert "Set-Cookie" not in again.headers


def test_a_wrong_origin_or_relying_party_fails_and_makes_no_account(app, client):
    for kwargs in ({"origin": "https://evil.example"}, {"rp_id": "evil.example"},
                   {"origin": "http://localhost.evil.example"}):  # fmt: skip
        options = client.post("/api/v1/account/register/options", json={"name": "Eve"})
        made = client.post(
            "/api/v1/account/register/verify",
            json=SoftPasskey().create(options.get_json(), **kwargs),
        )
        assert made.status_code == 400, kwargs
        assert made.get_json()["error"]["code"] == "passkey-failed"
    assert _count(app, accounts) == 0
    _, key = register(client)
    for kwargs in ({"origin": "https://evil.example"}, {"rp_id": "evil.example"}):
        refused = login(site_client(app), key, **kwargs)
        assert refused.get_json()["error"]["code"] == "passkey-failed"


def test_a_bad_signature_and_garbage_are_passkey_failed_never_500(app, client):
    _, key = register(client)
    options = client.post("/api/v1/account/login/options", json={}).get_json()
    answer = key.get(options)
    answer["response"]["signature"] = answer["response"]["signature"][:-4] + "AAAA"
    assert login_verify(client, answer).get_json()["error"]["code"] == "passkey-failed"
    for junk in ({}, {"response": "x"}, {"response": {"clientDataJSON": "%%%"}}, {"id": 5}):
        answer = login_verify(client, junk)
        assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "passkey-failed"


def login_verify(client, body):
    return client.post("/api/v1/account/login/verify", json=body)


def test_a_challenge_expires_after_five_minutes(app, client, monkeypatch):
    options = client.post("/api/v1/account/register/options", json={"name": "Late"}).get_json()
    later = time.time() + 301
    monkeypatch.setattr("deckcheck.accounts.store.time.time", lambda: later)
    made = client.post("/api/v1/account/register/verify", json=SoftPasskey().create(options))
    assert made.get_json()["error"]["code"] == "passkey-failed"
    assert _count(app, accounts) == 0


def test_a_registration_challenge_does_not_sign_in(app, client):
    _, key = register(client)
    options = client.post("/api/v1/account/register/options", json={"name": "X"}).get_json()
    assert login_verify(site_client(app), key.get(options)).status_code == 400


def test_a_challenge_from_one_server_verifies_on_the_other(tmp_path, postgres):
    """Two apps on one PostgreSQL: options on one, verify on the other; then a session
    made by the second is known to the first."""
    from decks.deck_helpers import close, make_app

    url = postgres.fresh_database()
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one = make_app(tmp_path / "one", url)
    two = make_app(tmp_path / "two", url)
    try:
        first, second = site_client(one), site_client(two)
        options = first.post("/api/v1/account/register/options", json={"name": "Rika"})
        key = SoftPasskey()
        made = second.post("/api/v1/account/register/verify", json=key.create(options.get_json()))
        assert made.status_code == 201
        login_options = second.post("/api/v1/account/login/options", json={}).get_json()
        signed = first.post("/api/v1/account/login/verify", json=key.get(login_options))
        assert signed.status_code == 200
        cookie = signed.headers["Set-Cookie"].split(";")[0].split("=", 1)[1]
        second.set_cookie("deckcheck_session", cookie, domain="localhost")
        assert second.get("/api/v1/account").get_json()["account"]["name"] == "Rika"
    finally:
        close(one)
        close(two)
        postgres.drop_later(url)


def test_secure_cookie_when_the_site_is_https(tmp_path):
    from decks.deck_helpers import close, make_app

    app = make_app(tmp_path, str(tmp_path / "e.db"), BASE_URL="https://decks.example")
    try:
        client = app.test_client()
        client.environ_base["HTTP_ORIGIN"] = "https://decks.example"
        options = client.post("/api/v1/account/register/options", json={"name": "S"}).get_json()
        assert options["rp"]["id"] == "decks.example"
        key = SoftPasskey(origin="https://decks.example", rp_id="decks.example")
        made = client.post("/api/v1/account/register/verify", json=key.create(options))
        assert made.status_code == 201 and "Secure" in made.headers["Set-Cookie"]
        # The configured origin is the only one: http on the same host is refused.
        bad = SoftPasskey(origin="http://decks.example", rp_id="decks.example")
        options = client.post("/api/v1/account/register/options", json={"name": "T"}).get_json()
        refused = client.post("/api/v1/account/register/verify", json=bad.create(options))
        assert refused.get_json()["error"]["code"] == "passkey-failed"
    finally:
        close(app)


def test_the_session_cookie_holds_a_random_id_stored_hashed(app, client):
    made = client.post("/api/v1/account/register/options", json={"name": "Hanako"})
    key = SoftPasskey()
    answer = client.post("/api/v1/account/register/verify", json=key.create(made.get_json()))
    value = answer.headers["Set-Cookie"].split(";")[0].split("=", 1)[1]
    account_id = answer.get_json()["account"]["id"]
    assert "Hanako" not in value and account_id not in value and len(value) >= 40
    from deckcheck.server.tables.accounts import account_sessions

    engine = app.extensions["deckcheck.database"].engine
    with engine.begin() as conn:
        stored = list(conn.execute(select(account_sessions.c.secret_hash)).scalars())
    assert stored == [token_hash(value)]


def test_one_assertion_sent_twice_at_once_signs_in_once(both_app):
    """Single use under a race: the sign-in's transaction uses the challenge up, so of
    two requests carrying the same answer at the same moment, one signs in."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    client = site_client(both_app)
    _, key = register(client)
    options = client.post("/api/v1/account/login/options", json={}).get_json()
    answer = key.get(options)
    barrier = Barrier(4)

    def send(_):
        other = site_client(both_app)
        barrier.wait()
        return other.post("/api/v1/account/login/verify", json=answer).status_code

    with ThreadPoolExecutor(4) as pool:
        statuses = sorted(pool.map(send, range(4)))
    assert statuses == [200, 400, 400, 400]
