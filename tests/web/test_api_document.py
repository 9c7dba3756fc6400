"""The OpenAPI document cannot drift from the routes: every /api/v1 rule is in it.

schemathesis fuzzes what the document lists, so an endpoint missing here would be
neither documented for organizer software nor fuzzed.
"""

import re

import pytest

from deckcheck import create_app

PREFIX = "/api/v1"
# Flask answers these by itself for every rule; the document lists what a view does.
IMPLICIT = {"HEAD", "OPTIONS"}
# The document itself is not an operation of the API it describes.
NOT_OPERATIONS = {"/openapi.json"}


def _openapi_path(rule: str) -> str:
    """Flask's `<converter:name>` as OpenAPI's `{name}`."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def _api_rules(app) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.rule != PREFIX and not rule.rule.startswith(PREFIX + "/"):
            continue
        path = _openapi_path(rule.rule[len(PREFIX) :]) or "/"  # /api/v1 itself: the index
        if path in NOT_OPERATIONS:
            continue
        found.setdefault(path, set()).update(m for m in rule.methods or () if m not in IMPLICIT)
    return found


@pytest.fixture(scope="module")
def documented(tmp_path_factory):
    folder = tmp_path_factory.mktemp("doc")
    app = create_app(
        {"TESTING": True, "DATABASE": str(folder / "c.db"), "FORMATS_DIR": str(folder)}
    )
    document = app.test_client().get(PREFIX + "/openapi.json").get_json()
    paths = {
        path: {method.upper() for method in operations if method != "parameters"}
        for path, operations in document["paths"].items()
    }
    return _api_rules(app), paths


def test_every_api_route_is_documented_with_its_methods(documented):
    routes, paths = documented
    missing = {
        path: sorted(methods - paths.get(path, set()))
        for path, methods in routes.items()
        if methods - paths.get(path, set())
    }
    assert not missing, f"routes missing from deckcheck/openapi.py: {missing}"


def test_the_document_lists_no_route_that_does_not_exist(documented):
    routes, paths = documented
    extra = {
        path: sorted(methods - routes.get(path, set()))
        for path, methods in paths.items()
        if methods - routes.get(path, set())
    }
    assert not extra, f"documented but not served: {extra}"


def test_the_rule_to_path_translation():
    assert _openapi_path("/cards/<game>/<path:number>") == "/cards/{game}/{number}"


def test_the_copies_in_a_card_object_are_documented_as_deprecated(client):
    """Issue 33: a DCG card's `types` repeats its `colors` and `play_cost` repeats `cost`.
    One release keeps them, equal to what they copy, marked deprecated in the document."""
    document = client.get("/api/v1/openapi.json").get_json()
    card = document["components"]["schemas"]["Card"]["properties"]
    assert (
        card["play_cost"]["deprecated"] is True
        and "read `cost`" in card["play_cost"]["description"]
    )
    assert "deprecated" not in card["cost"]
    for schema in ("Card", "DeckCard"):
        types = document["components"]["schemas"][schema]["properties"]["types"]
        assert "DCG: a copy of `colors`, deprecated" in types["description"]
    found = client.get("/api/v1/cards?game=dcg&q=agumon").get_json()["data"]
    assert found
    for item in found:
        assert item["types"] == item["colors"] and item["play_cost"] == item["cost"]


def test_the_index_and_the_503s_of_the_database_are_documented(client):
    """Issue 40: `GET /api/v1` was missing, and a saved deck's read did not say it may
    answer 503 events-busy (the database busy or not taking writes)."""
    document = client.get("/api/v1/openapi.json").get_json()
    index = document["paths"]["/"]["get"]["responses"]["200"]["content"]
    assert set(index) == {"application/json", "text/html"}
    listed = client.get("/api/v1", headers={"Accept": "application/json"}).get_json()
    assert {"method": "GET", "path": "/api/v1/", "summary": document["paths"]["/"]["get"][
        "summary"]} in listed["operations"]  # fmt: skip
    for path in ("/decks/{deck_id}", "/events/{event_id}", "/collections/{collection_id}"):
        assert "events-busy" in document["paths"][path]["get"]["responses"]["503"]["description"]
    health = document["paths"]["/health"]["get"]["responses"]["503"]["description"]
    assert "database-not-writable" in health
