"""Secrets the server hands out and keeps only as hashes (edit, admin and session
tokens), and the one clock stored rows are stamped with."""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, datetime


def now_utc() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(stored_hash: str | None, token: str | None) -> bool:
    """Constant time, and never true for a row that has no token."""
    if not stored_hash or not token:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)
