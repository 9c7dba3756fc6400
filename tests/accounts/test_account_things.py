"""What an account holds and does (contract "Accounts"): several passkeys (never none),
devices signed in and out, decks and collections it owns (saved signed in, claimed,
listed on every device, changed by its session), one feed, and deleting it with its
decks deleted or handed back."""

from __future__ import annotations

from datetime import date

from accounts.authenticator import SoftPasskey
from accounts.conftest import site_client
from accounts.helpers import login, register
from decks.deck_helpers import ban, import_change
from fixture_cards import ST1_TEXT

from deckcheck import service


def save(client, name="Blue Flare", **headers):
    made = client.post(
        "/api/v1/decks", json={"format": "dcg", "name": name, "decklist": ST1_TEXT}, headers=headers
    )
    assert made.status_code == 201, made.get_json()
    return made.get_json()


def test_add_a_second_passkey_sign_in_with_it_and_remove_the_first(app, client):
    _, first = register(client)
    options = client.post("/api/v1/account/passkeys/options", json={}).get_json()
    assert options["excludeCredentials"][0]["id"]  # the first passkey, not made twice
    second = SoftPasskey()
    added = client.post("/api/v1/account/passkeys/verify", json=second.create(options))
    assert added.status_code == 201
    keys = added.get_json()["account"]["passkeys"]
    assert len(keys) == 2
    assert login(site_client(app), second).status_code == 200
    assert client.delete(f"/api/v1/account/passkeys/{keys[0]['id']}").status_code == 204
    assert login(site_client(app), first).get_json()["error"]["code"] == "passkey-failed"
    last = client.delete(f"/api/v1/account/passkeys/{keys[1]['id']}")
    assert last.status_code == 409 and last.get_json()["error"]["code"] == "last-passkey"
    missing = client.delete("/api/v1/account/passkeys/nope")
    assert missing.status_code == 404


def test_a_passkey_challenge_of_one_account_adds_nothing_to_another(app, client):
    register(client)
    options = client.post("/api/v1/account/passkeys/options", json={}).get_json()
    other = site_client(app)
    register(other, "Other")
    refused = other.post("/api/v1/account/passkeys/verify", json=SoftPasskey().create(options))
    assert refused.get_json()["error"]["code"] == "passkey-failed"


def test_devices_listed_signed_out_one_by_one_and_all_others(app, client):
    _, key = register(client)
    phone, laptop = site_client(app), site_client(app)
    login(phone, key)
    login(laptop, key)
    listed = client.get("/api/v1/account/sessions").get_json()["data"]
    assert len(listed) == 3 and [s["current"] for s in listed] == [True, False, False]
    assert client.delete(f"/api/v1/account/sessions/{listed[1]['id']}").status_code == 204
    assert phone.get("/api/v1/account").status_code == 401
    assert laptop.get("/api/v1/account").status_code == 200
    assert client.delete("/api/v1/account/sessions").status_code == 204
    assert laptop.get("/api/v1/account").status_code == 401
    assert client.get("/api/v1/account").status_code == 200
    assert client.delete("/api/v1/account/sessions/nope").status_code == 404


def test_decks_saved_signed_in_belong_to_the_account_on_every_device(app, client):
    _, key = register(client)
    saved = save(client)
    laptop = site_client(app)
    login(laptop, key)
    mine = laptop.get("/api/v1/account/decks").get_json()["data"]
    assert [d["id"] for d in mine] == [saved["deck"]["id"]]
    # The laptop holds no edit token: its session may change the deck.
    changed = laptop.put(
        f"/api/v1/decks/{saved['deck']['id']}", json={"decklist": ST1_TEXT, "name": "Red"}
    )
    assert changed.status_code == 200 and changed.get_json()["version"] == 2
    # So may the token, as before; a stranger's session may not.
    stranger = site_client(app)
    register(stranger, "Stranger")
    refused = stranger.put(f"/api/v1/decks/{saved['deck']['id']}", json={"decklist": ST1_TEXT})
    assert refused.status_code == 403 and refused.get_json()["error"]["code"] == "bad-token"
    assert stranger.delete(f"/api/v1/decks/{saved['deck']['id']}").status_code == 403
    assert laptop.delete(f"/api/v1/decks/{saved['deck']['id']}").status_code == 204


def test_claim_this_browsers_decks_and_collections(app, client):
    anonymous = app.test_client()
    ours, theirs = save(anonymous, "Ours"), save(anonymous, "Theirs")
    collection = anonymous.post(
        "/api/v1/collections", json={"game": "dcg", "cards": "4 ST1-01"}
    ).get_json()
    other = site_client(app)
    register(other, "Other")
    claimed = other.post(
        "/api/v1/account/claim",
        json={"decks": [{"id": theirs["deck"]["id"], "edit_token": theirs["edit_token"]}]},
    )
    assert claimed.get_json()["claimed"] == [{"type": "deck", "id": theirs["deck"]["id"]}]
    register(client)
    answer = client.post(
        "/api/v1/account/claim",
        json={
            "decks": [
                {"id": ours["deck"]["id"], "edit_token": ours["edit_token"]},
                {"id": theirs["deck"]["id"], "edit_token": theirs["edit_token"]},
                {"id": ours["deck"]["id"] + "x", "edit_token": "nope"},
                {"id": ours["deck"]["id"], "edit_token": theirs["edit_token"]},
            ],
            "collections": [
                {"id": collection["collection"]["id"], "edit_token": collection["edit_token"]}
            ],
        },
    ).get_json()
    assert answer["claimed"] == [
        {"type": "deck", "id": ours["deck"]["id"]},
        {"type": "collection", "id": collection["collection"]["id"]},
    ]
    assert [r["reason"] for r in answer["refused"]] == ["owned", "not-found", "bad-token"]
    listed = client.get("/api/v1/account/collections").get_json()["data"]
    assert [c["id"] for c in listed] == [collection["collection"]["id"]]
    # A claimed deck's token still works.
    token_put = anonymous.put(
        f"/api/v1/decks/{ours['deck']['id']}",
        json={"decklist": ST1_TEXT},
        headers={"Authorization": f"Bearer {ours['edit_token']}"},
    )
    assert token_put.status_code == 200


def test_delete_the_account_keeping_its_decks_as_token_decks(app, client):
    register(client)
    saved = save(client)
    collection = client.post("/api/v1/collections", json={"game": "dcg", "cards": "4 ST1-01"})
    assert collection.status_code == 201
    handed = client.delete("/api/v1/account", json={"decks": "keep"})
    assert handed.status_code == 200
    body = handed.get_json()
    assert [d["id"] for d in body["decks"]] == [saved["deck"]["id"]]
    assert len(body["collections"]) == 1
    assert client.get("/api/v1/account").status_code == 401
    fresh = app.test_client()
    # The old token no longer works; the new one does.
    old = fresh.put(
        f"/api/v1/decks/{saved['deck']['id']}",
        json={"decklist": ST1_TEXT},
        headers={"Authorization": f"Bearer {saved['edit_token']}"},
    )
    assert old.status_code == 403
    new = fresh.put(
        f"/api/v1/decks/{saved['deck']['id']}",
        json={"decklist": ST1_TEXT},
        headers={"Authorization": f"Bearer {body['decks'][0]['edit_token']}"},
    )
    assert new.status_code == 200


def test_delete_the_account_and_its_decks(app, client):
    _, key = register(client)
    saved = save(client)
    refused = client.delete("/api/v1/account", json={"decks": "maybe"})
    assert refused.status_code == 422
    assert client.delete("/api/v1/account", json={"decks": "delete"}).status_code == 204
    assert app.test_client().get(f"/api/v1/decks/{saved['deck']['id']}").status_code == 404
    assert login(site_client(app), key).get_json()["error"]["code"] == "passkey-failed"


def test_one_feed_of_all_the_accounts_decks(app, client, tmp_path, monkeypatch):
    monkeypatch.setattr(service, "today", lambda: date(2026, 11, 29))
    register(client)
    first, second = save(client, "First"), save(client, "Second")
    save(app.test_client(), "Not mine")
    import_change(app, tmp_path, ban("ST1-03", "2026-11-20"))
    for deck in (first, second):  # read: judged again, a feed entry each
        assert client.get(f"/api/v1/decks/{deck['deck']['id']}").get_json()["legal"] is False
    feed = client.get("/account/changes.atom")
    assert feed.status_code == 200 and feed.mimetype == "application/atom+xml"
    text = feed.get_data(as_text=True)
    assert text.count("<entry>") == 2 and "ST1-03" in text
    assert "First" in text and "Second" in text and "Not mine" not in text
    assert app.test_client().get("/account/changes.atom").status_code == 401


def test_a_deck_page_shows_no_session(app, client):
    register(client, "Secret Name")
    saved = save(client)
    page = client.get(f"/d/{saved['deck']['id']}").get_data(as_text=True)
    assert "Secret Name" not in page
    api = client.get(f"/api/v1/decks/{saved['deck']['id']}").get_data(as_text=True)
    assert "Secret Name" not in api
