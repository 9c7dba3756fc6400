"""Accounts, passkeys, recovery codes, challenges and one-time links in the server's
database (SQLite or PostgreSQL: two servers on one database share them all).

Every secret is single use: a challenge, a code or a link is taken by deleting its row
inside one write transaction (locked: FOR UPDATE on PostgreSQL, BEGIN IMMEDIATE on
SQLite), so two requests can never both use it.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import select

from deckcheck.accounts.passkeys import NewPasskey
from deckcheck.server.buckets import take_statement
from deckcheck.server.database import Database
from deckcheck.server.tables.accounts import (
    account_challenges,
    account_sessions,
    accounts,
    passkeys,
    recovery_codes,
    sign_in_links,
)
from deckcheck.server.tokens import now_utc, token_hash

CHALLENGE_SECONDS = 300
LINK_SECONDS = 600
CODES = 10
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i to misread


# Rate-limit buckets a write takes in its own transaction: (key, count, seconds).
Buckets = Sequence[tuple[str, int, int]]


@dataclass(frozen=True)
class Challenge:
    purpose: str
    account_id: str | None
    name: str | None


def normal_code(code: str) -> str:
    """A recovery code as typed: case, spaces and dashes do not matter."""
    return "".join(c for c in code.lower() if c.isalnum())


def _new_code() -> str:
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(20))  # about 99 bits
    return "-".join(raw[i : i + 5] for i in range(0, 20, 5))


class AccountStore:
    """Each method is one transaction."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self._writer = database.writer

    # -- challenges -----------------------------------------------------------

    def _take(self, conn, buckets: Buckets) -> bool:
        """Each bucket's token taken in this transaction (deckcheck.server.limits):
        False when any is empty. A sign-in's limit costs no commit of its own."""
        statement = take_statement(self.engine.dialect.name)
        now, allowed = time.time(), True
        for key, count, seconds in buckets:
            params = {"key": key, "cap": float(count), "rate": count / seconds, "now": now}
            allowed = bool(conn.execute(statement, params).scalar_one()) and allowed
        return allowed

    def new_challenge(
        self, purpose: str, account_id: str | None = None, name=None, buckets: Buckets = ()
    ) -> bytes | None:
        """A new challenge (None: a bucket of `buckets` is empty, none is handed out)."""
        challenge = secrets.token_bytes(32)
        now = time.time()
        with self._writer.begin() as conn:
            if not self._take(conn, buckets):
                return None
            conn.execute(account_challenges.delete().where(account_challenges.c.expires_at < now))
            conn.execute(
                account_challenges.insert(),
                {
                    "challenge_hash": token_hash(challenge.hex()),
                    "purpose": purpose,
                    "account_id": account_id,
                    "name": name,
                    "expires_at": now + CHALLENGE_SECONDS,
                },
            )
        return challenge

    def peek_challenge(self, challenge: bytes, purpose: str) -> Challenge | None:
        """The challenge if it was handed out for `purpose` and is unused and unexpired
        (read only: `sign_in` uses it up, `drop_challenge` throws it away)."""
        key = account_challenges.c.challenge_hash == token_hash(challenge.hex())
        with self.engine.begin() as conn:
            row = conn.execute(select(account_challenges).where(key)).first()
        if row is None or row.purpose != purpose or row.expires_at < time.time():
            return None
        return Challenge(row.purpose, row.account_id, row.name)

    def drop_challenge(self, challenge: bytes, buckets: Buckets = ()) -> bool:
        """The challenge thrown away (a failed attempt), counted in `buckets`: False when
        one of them is empty."""
        key = account_challenges.c.challenge_hash == token_hash(challenge.hex())
        with self._writer.begin() as conn:
            conn.execute(account_challenges.delete().where(key))
            return self._take(conn, buckets)

    def sign_in(
        self, challenge: bytes, passkey_id: str, sign_count: int, session: dict, buckets: Buckets
    ) -> str | None:
        """One transaction for a verified sign-in: the attempt counted in `buckets`, the
        challenge used up, the passkey's counter and the new session. One write, not
        four: a sign-in's time is mostly its commits. None: signed in; else why not:
        `limited` (a bucket is empty) or `used` (another request used the challenge)."""
        key = account_challenges.c.challenge_hash == token_hash(challenge.hex())
        with self._writer.begin() as conn:
            used = conn.execute(account_challenges.delete().where(key)).rowcount != 1
            if not self._take(conn, buckets):
                return "limited"
            if used:
                return "used"
            conn.execute(
                passkeys.update()
                .where(passkeys.c.id == passkey_id)
                .values(sign_count=sign_count, last_used_at=now_utc())
            )
            conn.execute(account_sessions.insert(), session)
        return None

    def take_challenge(self, challenge: bytes, purpose: str) -> Challenge | None:
        """The challenge, used up; None when it was never handed out for `purpose`,
        was used already or has expired."""
        key = account_challenges.c.challenge_hash == token_hash(challenge.hex())
        with self._writer.begin() as conn:
            row = conn.execute(select(account_challenges).where(key).with_for_update()).first()
            if row is None:
                return None
            conn.execute(account_challenges.delete().where(key))
        if row.purpose != purpose or row.expires_at < time.time():
            return None
        return Challenge(row.purpose, row.account_id, row.name)

    # -- accounts and passkeys ------------------------------------------------

    def create(self, account_id: str, name: str, key: NewPasskey) -> tuple[dict, list[str]]:
        """The account with its first passkey, and its recovery codes (shown once)."""
        account = {"id": account_id, "name": name, "created_at": now_utc()}
        codes = [_new_code() for _ in range(CODES)]
        with self._writer.begin() as conn:
            conn.execute(accounts.insert(), account)
            self._add_passkey(conn, account_id, key)
            conn.execute(
                recovery_codes.insert(),
                [{"code_hash": token_hash(normal_code(c)), "account_id": account_id}
                 for c in codes],
            )  # fmt: skip
        return account, codes

    @staticmethod
    def _add_passkey(conn, account_id: str, key: NewPasskey) -> None:
        conn.execute(
            passkeys.insert(),
            {
                "id": secrets.token_urlsafe(9),
                "account_id": account_id,
                "credential_id": key.credential_id,
                "public_key": key.public_key,
                "sign_count": key.sign_count,
                "created_at": now_utc(),
                "last_used_at": None,
            },
        )

    def add_passkey(self, account_id: str, key: NewPasskey) -> None:
        with self._writer.begin() as conn:
            self._add_passkey(conn, account_id, key)

    def account(self, account_id: str) -> dict | None:
        with self.engine.begin() as conn:
            row = conn.execute(select(accounts).where(accounts.c.id == account_id)).first()
        return dict(row._mapping) if row is not None else None

    def passkeys(self, account_id: str) -> list[dict]:
        query = (
            select(passkeys.c.id, passkeys.c.credential_id, passkeys.c.created_at,
                   passkeys.c.last_used_at)
            .where(passkeys.c.account_id == account_id)
            .order_by(passkeys.c.created_at)
        )  # fmt: skip
        with self.engine.begin() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def passkey(self, credential_id: str) -> dict | None:
        query = select(passkeys).where(passkeys.c.credential_id == credential_id)
        with self.engine.begin() as conn:
            row = conn.execute(query).first()
        return dict(row._mapping) if row is not None else None

    def used(self, passkey_id: str, sign_count: int) -> None:
        with self._writer.begin() as conn:
            conn.execute(
                passkeys.update()
                .where(passkeys.c.id == passkey_id)
                .values(sign_count=sign_count, last_used_at=now_utc())
            )

    def remove_passkey(self, account_id: str, passkey_id: str) -> str | None:
        """None: removed; else why not: `not-found` or `last` (an account keeps one)."""
        mine = passkeys.c.account_id == account_id
        with self._writer.begin() as conn:
            ids = list(conn.execute(select(passkeys.c.id).where(mine).with_for_update()).scalars())
            if passkey_id not in ids:
                return "not-found"
            if len(ids) == 1:
                return "last"
            conn.execute(passkeys.delete().where(mine, passkeys.c.id == passkey_id))
        return None

    def delete(self, account_id: str) -> None:
        """The account and everything of it this store and the sessions hold."""
        with self._writer.begin() as conn:
            for table in (passkeys, recovery_codes, sign_in_links, account_sessions):
                conn.execute(table.delete().where(table.c.account_id == account_id))
            conn.execute(
                account_challenges.delete().where(account_challenges.c.account_id == account_id)
            )
            conn.execute(accounts.delete().where(accounts.c.id == account_id))

    # -- recovery codes and one-time links ------------------------------------

    def use_code(self, code: str) -> str | None:
        """The account a recovery code belongs to, the code used up; None: no such code."""
        key = recovery_codes.c.code_hash == token_hash(normal_code(code))
        with self._writer.begin() as conn:
            found = conn.execute(
                select(recovery_codes.c.account_id).where(key).with_for_update()
            ).scalar_one_or_none()
            if found is not None:
                conn.execute(recovery_codes.delete().where(key))
        return found

    def codes_left(self, account_id: str) -> int:
        query = select(recovery_codes.c.code_hash).where(recovery_codes.c.account_id == account_id)
        with self.engine.begin() as conn:
            return len(conn.execute(query).all())

    def new_link(self, account_id: str) -> tuple[str, str]:
        """A one-time sign-in secret and when it expires (ISO time)."""
        secret = secrets.token_urlsafe(32)
        expires = time.time() + LINK_SECONDS
        with self._writer.begin() as conn:
            conn.execute(sign_in_links.delete().where(sign_in_links.c.expires_at < time.time()))
            conn.execute(
                sign_in_links.insert(),
                {"secret_hash": token_hash(secret), "account_id": account_id,
                 "expires_at": expires},
            )  # fmt: skip
        return secret, datetime.fromtimestamp(expires, UTC).isoformat(timespec="seconds")

    def use_link(self, secret: str) -> str | None:
        """The account of a one-time link, the link used up; None: unknown, used or
        expired."""
        key = sign_in_links.c.secret_hash == token_hash(secret)
        with self._writer.begin() as conn:
            row = conn.execute(select(sign_in_links).where(key).with_for_update()).first()
            if row is None:
                return None
            conn.execute(sign_in_links.delete().where(key))
        return row.account_id if row.expires_at >= time.time() else None
