"""A reported list change in a saved deck and its feed: "reported", never "banned" (issue 43)."""

from __future__ import annotations

from datetime import date

import pytest
from decks.deck_helpers import ban, import_change
from decks.test_rejudge import feed_titles, run_pass, save
from fixture_cards import ST1_TEXT

from deckcheck import service


@pytest.fixture(autouse=True)
def today(monkeypatch):
    monkeypatch.setattr(service, "today", lambda: date(2026, 11, 29))


def test_a_reported_ban_is_told_as_reported_and_the_deck_stays_legal(app, tmp_path):
    client = app.test_client()
    deck_id = save(client, ST1_TEXT)
    reported = {**ban("ST1-03", "2026-11-20"), "confidence": "reported"}
    import_change(app, tmp_path, reported)
    run_pass(app)
    deck = client.get(f"/api/v1/decks/{deck_id}").get_json()
    assert deck["legal"] is True and deck["verdict"] == "legal"
    (warning,) = [w for w in deck["warnings"] if w["code"] == "list-change-reported"]
    assert "ST1-03" in warning["cards"] and "2026-11-20" in warning["message"]
    titles = feed_titles(app, deck_id)
    assert titles and all("banned" not in t for t in titles)
    assert titles[0].startswith("Reported, not confirmed: from 2026-11-20, ST1-03")
    feed = client.get(f"/d/{deck_id}/changes.atom").get_data(as_text=True)
    assert "Reported, not confirmed" in feed and "banned" not in feed.lower()
