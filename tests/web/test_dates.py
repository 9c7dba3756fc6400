"""A check date in the address (`?date=`) is read the same way on every route (issue 32:
/formats/dcg, /build and /api/v1/formats/dcg answered 200 to `?date=BT99` and ignored it
while /cards answered 422). Routes are read from the app's own URL map, so a route added
later is held to this the day it lands."""

from __future__ import annotations

import html

import pytest

BAD = ["BT99", "9999-12-31", "2024-02-30", "x" * 5_000]


def every_route(app) -> list[tuple[str, str]]:
    """(method, address) of every route but static files, its path parts filled in."""
    adapter = app.url_map.bind("localhost")
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = adapter.build(rule.endpoint, dict.fromkeys(rule.arguments, "1"))
        found += [(method, path) for method in sorted(rule.methods - {"HEAD", "OPTIONS"})]
    return found


@pytest.mark.parametrize("bad", BAD, ids=["unknown-product", "year-9999", "no-such-day", "long"])
def test_a_bad_date_is_a_422_on_every_route(app, client, bad):
    routes = every_route(app)
    assert ("GET", "/formats/dcg") not in routes  # built from rules, not from a list here
    assert len(routes) > 40
    for method, path in routes:
        response = client.open(f"{path}?date={bad}", method=method)
        where = f"{method} {path}?date={bad[:20]}"
        assert response.status_code == 422, f"{where}: {response.status_code}"
        # The message names the date (a long one is only called not a date).
        shown = bad if len(bad) <= 40 else "date"
        if path.startswith("/api/"):
            error = response.get_json()["error"]
            assert set(error) == {"code", "message", "details"}, where
            assert error["code"] == "invalid-request", where
            assert shown in error["details"]["fields"]["date"][0], where
        else:
            assert response.mimetype == "text/html", where
            assert html.escape(shown, quote=True) in response.get_data(as_text=True), where


@pytest.mark.parametrize(
    "path", ["/formats/dcg", "/build", "/api/v1/formats/dcg", "/cards", "/api/v1/cards"]
)
def test_the_issue_addresses(client, path):
    assert client.get(f"{path}?date=BT99").status_code == 422


def test_two_dates_are_refused_and_an_empty_one_is_no_date(client):
    response = client.get("/api/v1/formats/dcg?date=2024-01-01&date=BT99")
    assert response.status_code == 422
    assert response.get_json()["error"]["details"]["fields"]["date"] == [
        "Give one date, not several."
    ]
    assert client.get("/formats/dcg?date=").status_code == 200
    assert client.get("/formats/dcg?date=%20").status_code == 200


def test_the_format_page_shows_the_lists_of_its_date(client):
    today = client.get("/formats/dcg").get_data(as_text=True)
    assert "In force today (" in today and "No card is banned" not in today
    before = client.get("/formats/dcg?date=2020-01-01").get_data(as_text=True)
    assert "In force on 2020-01-01" in before
    assert "No card is banned or restricted on that day." in before
    product = client.get("/formats/dcg?date=BT13").get_data(as_text=True)
    assert "In force on 2023-07-21" in product


def test_a_good_date_passes_on_the_api(client):
    response = client.get("/api/v1/formats/dcg?date=BT13")
    assert response.status_code == 200 and response.get_json()["id"] == "dcg"


def test_the_card_browser_keeps_its_form_beside_the_error(client):
    page = client.get("/cards?q=agumon&date=BT99")
    assert page.status_code == 422
    assert 'value="agumon"' in page.get_data(as_text=True)


def test_static_files_ignore_the_date(client):
    response = client.get("/static/page.js?date=BT99")
    response.close()
    assert response.status_code == 200
