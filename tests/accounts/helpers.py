"""What the account tests share: making an account and signing in with a soft passkey."""

from __future__ import annotations

from accounts.authenticator import SoftPasskey


def register(
    client, name: str = "Rika", key: SoftPasskey | None = None
) -> tuple[dict, SoftPasskey]:
    """(The 201's body, the passkey made.)"""
    key = key or SoftPasskey()
    options = client.post("/api/v1/account/register/options", json={"name": name})
    assert options.status_code == 200, options.get_json()
    made = client.post("/api/v1/account/register/verify", json=key.create(options.get_json()))
    assert made.status_code == 201, made.get_json()
    return made.get_json(), key


def login(client, key: SoftPasskey, **kwargs):
    options = client.post("/api/v1/account/login/options", json={}).get_json()
    return client.post("/api/v1/account/login/verify", json=key.get(options, **kwargs))
