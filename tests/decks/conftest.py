"""Saved-deck tests: an app on a SQLite file or a real PostgreSQL (the events tests'
fixtures), whose formats and pools see an imported list at once."""

from __future__ import annotations

import shutil

import pytest
from decks.deck_helpers import close, make_app

from deckcheck import format_registry


@pytest.fixture(autouse=True)
def _formats_at_once(monkeypatch):
    """A list imported by a test is in the formats on the next request, not a second later."""
    monkeypatch.setattr(format_registry, "RECHECK_SECONDS", 0.0)


@pytest.fixture
def app(tmp_path, events_template):
    """The app on a SQLite events database at the newest schema (a copy: conftest.py)."""
    shutil.copyfile(events_template, tmp_path / "events.db")
    made = make_app(tmp_path, str(tmp_path / "events.db"))
    yield made
    close(made)


@pytest.fixture
def both_app(tmp_path, events_database):
    """The app on each events database in turn (SQLite, PostgreSQL)."""
    made = make_app(tmp_path, events_database)
    yield made
    close(made)
