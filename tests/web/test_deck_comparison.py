"""Both deck checks, /deck-check and an event's check against the stored list, give the
same verdict in the same words (one comparison, rules.lock.compare_decks)."""

from __future__ import annotations

import re

import pytest
from fixture_cards import ST1_TEXT

from rules.lock import HEADLINES

EXTRA = ST1_TEXT + "\n2 Notacardmon Zzz"
COUNT = ST1_TEXT.replace("4 ST1-03", "3 ST1-03")


def _event_with(client, text):
    created = client.post(
        "/api/v1/events",
        json={"name": "Cup", "format": "dcg", "deadline": "2099-12-05T09:00:00+01:00"},
    ).get_json()
    sent = client.post(
        f"/api/v1/events/{created['id']}/submissions", json={"player": "Zoe", "decklist": text}
    ).get_json()
    return created, sent["submission"]["id"]


def _verdict(page: str) -> str:
    return re.search(r'<h2 id="lock-verdict">([^<]*)</h2>', page).group(1)


def _both_pages(client, stored, presented):
    event, sub = _event_with(client, stored)
    table = client.post(
        f"/e/{event['id']}/admin/deck-check",
        data={"token": event["admin_token"], "submission": sub, "presented": presented},
    )
    quick = client.post(
        "/deck-check", data={"format": "dcg", "registered": stored, "presented": presented}
    )
    assert table.status_code == quick.status_code == 200
    return table.get_data(as_text=True), quick.get_data(as_text=True)


@pytest.mark.parametrize(
    ("stored", "presented", "verdict"),
    [
        (ST1_TEXT, EXTRA, "same-cards"),
        (EXTRA, ST1_TEXT, "same-cards"),
        (ST1_TEXT, COUNT, "differ"),
        (ST1_TEXT, "\n".join(reversed(ST1_TEXT.splitlines())), "same"),
    ],
    ids=["extra-line-at-the-table", "extra-line-stored", "count", "same"],
)
def test_both_deck_checks_say_the_same(client, stored, presented, verdict):
    table, quick = _both_pages(client, stored, presented)
    assert _verdict(table) == _verdict(quick) == HEADLINES[verdict]
    assert ('id="lock-unread-note"' in table) == (verdict == "same-cards")


def test_an_extra_unread_line_at_the_table_is_a_difference_on_both_pages(client):
    table, quick = _both_pages(client, ST1_TEXT, EXTRA)
    for page in (table, quick):
        assert "✔ Same deck" not in page and 'data-verdict="same-cards"' in page
        assert "<q>2 Notacardmon Zzz</q>" in page
