"""docs/accounts.md says what the code does: every error code the accounts answer with,
every setting they read, and the numbers it quotes."""

from __future__ import annotations

import re

import pytest
from conftest import ROOT

from deckcheck.accounts import api, store
from deckcheck.server import sessions

DOC = (ROOT / "docs" / "accounts.md").read_text()
SOURCES = [
    *sorted((ROOT / "deckcheck" / "accounts").glob("*.py")),
    # The server layer's parts the accounts stand on (its others answer for every product).
    *(ROOT / "deckcheck" / "server" / name for name in ("sessions.py", "owners.py")),
    ROOT / "deckcheck" / "decks" / "owned.py",
]


def test_every_error_code_and_setting_is_documented():
    code = "\n".join(path.read_text() for path in SOURCES)
    codes = set(re.findall(r'ApiError\(\s*\d{3},\s*"([a-z-]+)"', code))
    codes |= {"passkey-failed", "too-many-attempts"}
    assert {"cross-site", "not-signed-in", "last-passkey", "link-not-valid"} <= codes
    assert [c for c in sorted(codes) if f"`{c}`" not in DOC] == []
    settings = set(re.findall(r'"(DECKCHECK_[A-Z_]+)"', code))
    assert [s for s in sorted(settings) if f"`{s}`" not in DOC] == []


def test_the_numbers_are_the_codes():
    assert store.CHALLENGE_SECONDS == 300 and "older than 5\n  minutes" in DOC
    assert store.LINK_SECONDS == 600 and "within 10 minutes" in DOC
    assert store.CODES == 10 and "10 recovery codes" in DOC
    assert api.NAME_MAX == 60 and "at most 60\ncharacters" in DOC
    assert sessions.LIFETIME.days == 30 and "unused for 30 days" in DOC
    assert sessions.COOKIE == "deckcheck_session" and "`deckcheck_session`" in DOC


def test_every_error_code_the_contract_names_for_accounts_is_answered():
    from conftest import SHARED

    path = SHARED / "spec" / "CONTRACT.md"
    if not path.exists():
        pytest.skip("the shared contract is absent")
    section = path.read_text().split("## Accounts", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`([a-z]+(?:-[a-z]+)+)`", section))
    assert {"passkey-failed", "too-many-attempts", "cross-site", "not-signed-in"} <= named
    code = "\n".join(path.read_text() for path in SOURCES)
    assert [c for c in sorted(named) if f'"{c}"' not in code] == []
    assert [c for c in sorted(named) if f"`{c}`" not in DOC] == []
