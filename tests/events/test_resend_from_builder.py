"""A player sends a changed deck again (from the builder's "Send to an event", or the
form) under the name their first list holds (issue 41, a phone flow without dead ends):
the 409 keeps the form as written and, when this browser sent the first list, offers to
replace it (the token stays in the session; the page never holds it)."""

from __future__ import annotations

import re

import pytest
from conftest import new_app
from event_requests import admin_auth, create_event
from fixture_cards import ST1_TEXT

CHANGED = ST1_TEXT.replace("4 ST1-03", "3 ST1-03").replace("2 ST1-07", "3 ST1-07")


@pytest.fixture
def app(tmp_path):
    made = new_app(tmp_path)
    yield made
    if "deckcheck.events" in made.extensions:
        made.extensions["deckcheck.events"].close()


def send(client, event, decklist, **form):
    data = {"player": "Rika Nonaka", "decklist": decklist, **form}
    return client.post(f"/e/{event['id']}", data=data)


def rows(client, event) -> list[dict]:
    answer = client.get(f"/api/v1/events/{event['id']}/submissions", headers=admin_auth(event))
    return answer.get_json()["data"]


def test_a_resend_from_the_same_browser_keeps_the_form_and_replaces_on_request(app):
    client = app.test_client()
    event = create_event(client)
    assert send(client, event, ST1_TEXT).status_code == 303
    again = send(client, event, CHANGED)
    assert again.status_code == 409
    html = again.get_data(as_text=True)
    assert 'data-testid="name-taken"' in html and "Replace my earlier list" in html
    assert "3 ST1-03" in html  # the new list, kept in the form
    assert "`" not in html  # no `edit_token` in backticks
    [first] = rows(client, event)
    replace = re.search(r'name="replace" value="([^"]+)"', html).group(1)
    done = client.post(
        f"/e/{event['id']}",
        data={"player": "Rika Nonaka", "decklist": CHANGED, "replace": replace},
    )
    assert done.status_code == 303
    [row] = rows(client, event)
    assert row["player"] == first["player"] and row["version"] == 2
    assert "3 ST1-07" in client.get(
        f"/api/v1/events/{event['id']}/submissions/{row['id']}", headers=admin_auth(event)
    ).get_data(as_text=True)


def test_another_browser_is_told_why_and_keeps_its_list(app):
    client = app.test_client()
    event = create_event(client)
    assert send(client, event, ST1_TEXT).status_code == 303
    stranger = app.test_client()
    refused = send(stranger, event, CHANGED)
    assert refused.status_code == 409
    html = refused.get_data(as_text=True)
    assert "private link on its receipt" in html and "Replace my earlier list" not in html
    assert "3 ST1-03" in html and "`" not in html
    [first] = rows(client, event)
    # Naming the first list is not enough: only the browser that sent it holds its token.
    taken = re.search(r"[A-Za-z0-9_-]{12,}", first["id"]).group(0)
    forged = send(stranger, event, CHANGED, replace=taken)
    assert forged.status_code == 409
    assert rows(client, event)[0]["version"] == 1
