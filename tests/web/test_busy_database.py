"""One handler for the one database error (issue 40 item 5): whichever product's view
meets a database that cannot answer in time, the answer is the same 503 `events-busy`
to send again, never a 500, as JSON or as a page."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import OperationalError

from deckcheck.decks.store import DeckStore
from deckcheck.events.store import EventStore


def _locked(*_args, **_kwargs):
    raise OperationalError("SELECT 1", {}, Exception("database is locked"))


@pytest.mark.parametrize(
    ("store", "method", "path"),
    [
        (EventStore, "event", "/api/v1/events/abcdefghijkl"),
        (EventStore, "event", "/e/abcdefghijkl"),
        (DeckStore, "deck", "/api/v1/decks/abcdefghijkl"),
        (DeckStore, "deck", "/d/abcdefghijkl"),
    ],
    ids=["events-api", "events-page", "decks-api", "deck-page"],
)
def test_a_busy_database_is_a_503_in_every_product(client, monkeypatch, store, method, path):
    monkeypatch.setattr(store, method, _locked)
    answer = client.get(path, headers={"Accept": "application/json"} if "/api/" in path else {})
    assert answer.status_code == 503
    assert answer.headers["Retry-After"] == "1"
    if "/api/" in path:
        assert answer.get_json()["error"]["code"] == "events-busy"
    else:
        assert "busy" in answer.get_data(as_text=True)


def test_the_handler_is_registered_once_for_the_whole_app(app):
    handlers = [
        handler
        for blueprint_specs in app.error_handler_spec.values()
        for codes in blueprint_specs.values()
        for exception, handler in codes.items()
        if exception is OperationalError
    ]
    assert len(handlers) == 1
    assert OperationalError in app.error_handler_spec[None][None]
