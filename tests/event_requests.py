"""Requests to the events API that many tests make: create an event, authorize as its
organizer, submit a list."""

from __future__ import annotations

from fixture_cards import ST1_TEXT

LATER = "2099-12-05T09:00:00+01:00"  # a submission deadline no test reaches


def create_event(client, **fields):
    body = {"name": "Store Cup", "format": "dcg", "date": "2021-01-01", "deadline": LATER}
    response = client.post("/api/v1/events", json={**body, **fields})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def admin_auth(event) -> dict:
    return {"Authorization": "Bearer " + event["admin_token"]}


def submit(client, event, player="Alice", decklist=ST1_TEXT, **extra):
    return client.post(
        f"/api/v1/events/{event['id']}/submissions",
        json={"player": player, "decklist": decklist, **extra},
    )
