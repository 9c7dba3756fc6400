"""A pre-release event (issue 43): `"early": ["BT24"]` on POST /api/v1/events; the event's
date is the day BT24 counts from."""

from event_requests import create_event, submit

# A real BT24 list shape on the shipped card list: BT24 is out 2026-01-23.
BT24 = "Digi-Egg deck:\n4 BT24-001\nMain deck:\n46 BT11-061\n4 BT24-010"
WEEKEND = "2026-01-17"


def test_a_bt24_pre_release_event_judges_its_lists_legal(client):
    event = create_event(client, date=WEEKEND, early=["bt-24"])
    assert event["early"] == ["BT24"]
    sub = submit(client, event, decklist=BT24).get_json()["submission"]
    assert sub["legal"] is True and sub["verdict"] == "legal", sub["violations"]
    page = client.get(f"/e/{event['id']}").get_data(as_text=True)
    assert 'id="early-products"' in page and "BT24" in page


def test_without_early_the_same_event_says_not_released(client):
    event = create_event(client, date=WEEKEND)
    sub = submit(client, event, decklist=BT24).get_json()["submission"]
    assert sub["legal"] is False
    assert {v["code"] for v in sub["violations"]} == {"not-released"}


def test_an_unknown_product_is_a_clear_422(client):
    body = {"name": "Cup", "format": "dcg", "date": WEEKEND, "deadline": "2099-12-05T09:00:00Z"}
    response = client.post("/api/v1/events", json={**body, "early": ["BT99"]})
    assert response.status_code == 422
    error = response.get_json()["error"]
    assert "BT99" in str(error["details"]["fields"]["early"])
