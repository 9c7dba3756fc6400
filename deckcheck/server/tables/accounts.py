"""The tables of accounts and their sessions, on the server's one metadata (migrations:
deckcheck/server/migrations, revision 0007_accounts).

Nothing secret is stored as itself: a session's cookie value, a recovery code, a
one-time link and a challenge are stored as their SHA-256 (each is 128+ random bits, so
a hash is enough and a lookup by it leaks nothing about the secret).

- `accounts`: an id (also the WebAuthn user handle) and a display name.
- `passkeys`: the account's WebAuthn credentials (public key, signature counter).
- `recovery_codes`: ten per account, each works once (deleted when used).
- `account_sessions`: one row per signed-in browser: the public id (to list and sign
  out) and the hash of the cookie's random value.
- `account_challenges`: a WebAuthn challenge handed out and not yet used (5 minutes).
- `sign_in_links`: a one-time sign-in link for another device (10 minutes).
"""

from __future__ import annotations

from sqlalchemy import Column, Float, ForeignKey, Index, Integer, String, Table, Text

from deckcheck.server.tables.base import metadata

accounts = Table(
    "accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("created_at", String(40), nullable=False),
)

passkeys = Table(
    "passkeys",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id"), nullable=False),
    # The credential id, base64url (at most 1,023 bytes: 1,364 characters).
    Column("credential_id", String(1400), nullable=False, unique=True),
    Column("public_key", Text, nullable=False),
    Column("sign_count", Integer, nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("last_used_at", String(40), nullable=True),
    Index("passkeys_by_account", "account_id"),
)

recovery_codes = Table(
    "recovery_codes",
    metadata,
    Column("code_hash", String(64), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id"), nullable=False),
    Index("recovery_codes_by_account", "account_id"),
)

account_sessions = Table(
    "account_sessions",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("secret_hash", String(64), nullable=False, unique=True),
    Column("account_id", String(32), ForeignKey("accounts.id"), nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("last_seen_at", String(40), nullable=False),
    Index("account_sessions_by_account", "account_id"),
)

account_challenges = Table(
    "account_challenges",
    metadata,
    Column("challenge_hash", String(64), primary_key=True),
    # register | login | add
    Column("purpose", String(20), nullable=False),
    # register: the new account's id (the user handle handed out); add: the account's.
    Column("account_id", String(32), nullable=True),
    Column("name", String(200), nullable=True),
    Column("expires_at", Float, nullable=False),
    Index("account_challenges_by_expiry", "expires_at"),
)

sign_in_links = Table(
    "sign_in_links",
    metadata,
    Column("secret_hash", String(64), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id"), nullable=False),
    Column("expires_at", Float, nullable=False),
    Index("sign_in_links_by_account", "account_id"),
)
