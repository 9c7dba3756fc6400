"""Account tests: an app on a SQLite file or a real PostgreSQL (the events tests'
fixtures); clients that send this site's Origin, as a browser on the site does."""

from __future__ import annotations

import shutil

import pytest
from decks.deck_helpers import close, make_app

from deckcheck import format_registry

SITE = "http://localhost"


@pytest.fixture(autouse=True)
def _formats_at_once(monkeypatch):
    """A list imported by a test is in the formats on the next request, not a second later."""
    monkeypatch.setattr(format_registry, "RECHECK_SECONDS", 0.0)


def site_client(app):
    """A test client whose requests say they come from this site (Origin)."""
    client = app.test_client()
    client.environ_base["HTTP_ORIGIN"] = SITE
    return client


@pytest.fixture
def app(tmp_path, events_template):
    """The app on a SQLite events database at the newest schema (a copy: conftest.py)."""
    shutil.copyfile(events_template, tmp_path / "events.db")
    made = make_app(tmp_path, str(tmp_path / "events.db"))
    yield made
    close(made)


@pytest.fixture
def client(app):
    return site_client(app)


@pytest.fixture
def both_app(tmp_path, events_database):
    made = make_app(tmp_path, events_database)
    yield made
    close(made)
