"""docs/events.md says what the code does: every setting the events read, every error
code they answer with, and the numbers it quotes are the code's."""

from __future__ import annotations

import re

from conftest import ROOT

from deckcheck.events import event_fields as core
from deckcheck.events import verdicts
from deckcheck.server import database as store
from deckcheck.server.names import EVENT_MAX, MAX_LIST_BYTES, PLAYER_ID_MAX, PLAYER_MAX

DOC = (ROOT / "docs" / "events.md").read_text()
SOURCES = [
    *sorted((ROOT / "deckcheck" / "events").glob("*.py")),
    # The events' limits, list size and busy answer are the server layer's now.
    *(ROOT / "deckcheck" / "server" / name for name in ("limits.py", "names.py", "http.py")),
    ROOT / "deckcheck" / "__init__.py",
]


def _code() -> str:
    return "\n".join(path.read_text() for path in SOURCES)


def test_every_setting_is_documented():
    settings = set(re.findall(r'"(DECKCHECK_(?:EVENTS_\w+|TRUSTED_PROXIES))"', _code()))
    assert {"DECKCHECK_EVENTS_MAX_PLAYERS", "DECKCHECK_TRUSTED_PROXIES"} <= settings
    assert [s for s in sorted(settings) if f"`{s}`" not in DOC] == []


def test_every_error_code_is_documented():
    codes = set(re.findall(r'ApiError\(\s*\d{3},\s*"([a-z-]+)"', _code()))
    codes |= {"too-many-submissions", "too-many-events", "events-busy", "invalid-request"}
    codes -= {"token-required", "event-not-found", "submission-not-found", "empty-decklist"}
    codes -= {"bad-date"}
    assert [c for c in sorted(codes) if f"`{c}`" not in DOC] == []


def test_the_numbers_are_the_codes():
    assert MAX_LIST_BYTES == 64 * 1024 and "64 KB" in DOC
    assert (PLAYER_MAX, PLAYER_ID_MAX, EVENT_MAX) == (100, 100, 200)
    assert "player names at most\n100 characters, player ids 100, event names 200" in DOC
    assert f"at most {verdicts.SHOWN} problems" in DOC
    assert store.WAIT_MS == 1500 and "at most 1.5 s" in DOC
    assert (core.FIRST_YEAR, core.LAST_YEAR) == (1970, 2999) and "1970 to 2999" in DOC
