"""`GET /api/v1/cards?game=<game>&number=<n>&number=<n>…`: the cards of the numbers asked
for, in one request (the builder learns a whole deck's cards this way; docs/api.md)."""

from __future__ import annotations

import pytest


def asked(client, *numbers: str, game: str = "dcg", **params) -> tuple[int, dict]:
    query = [("game", game), *[("number", n) for n in numbers], *params.items()]
    response = client.get("/api/v1/cards", query_string=query)
    return response.status_code, response.get_json()


def found(client, *numbers: str, **params) -> list[str]:
    status, body = asked(client, *numbers, **params)
    assert status == 200, body
    assert body["total"] == len(body["data"])
    return [card["number"] for card in body["data"]]


def test_the_cards_of_the_numbers_asked_for(client):
    assert found(client, "ST1-03", "ST1-01", "BT1-010") == ["BT1-010", "ST1-01", "ST1-03"]


def test_a_number_no_card_has_is_left_out_and_each_card_comes_once(client):
    assert found(client, "ST1-03", "ZZ9-999", "ST1-03") == ["ST1-03"]


def test_another_spelling_finds_the_printed_card(client):
    # An alternate art's number, a lower-case number: the card under its printed number.
    assert found(client, "ST1-07_P1") == ["ST1-07"]
    assert found(client, "st1-03") == ["ST1-03"]


def test_the_query_and_filters_still_apply(client):
    assert found(client, "ST1-01", "ST1-03", q="k:digi-egg") == ["ST1-01"]
    assert found(client, "ST1-01", "ST1-03", kind="digimon") == ["ST1-03"]


def test_the_numbers_are_of_the_game_asked(client):
    dmcg = client.get("/api/v1/cards?game=dmcg&per_page=1").get_json()["data"][0]["number"]
    assert found(client, dmcg, "ST1-01") == ["ST1-01"]
    assert found(client, "ST1-01", dmcg, game="dmcg") == [dmcg]


def test_a_suggestion_is_kept_for_its_own_numbers_only(client):
    """Nothing found: the suggestion kept for one set of numbers is not another's (two
    promos, then one number written with the comma between them)."""
    status, first = asked(client, "P-1", "P-2", q="agumn")
    assert status == 200 and first["did_you_mean"]
    status, other = asked(client, "P-1,P-2", q="agumn")
    assert status == 200 and other["total"] == 0 and "did_you_mean" not in other


def test_200_numbers_in_one_request_and_no_more(client):
    numbers = [f"BT1-{n:03d}" for n in range(1, 201)]
    assert len(found(client, *numbers, per_page=200)) > 100
    status, body = asked(client, *numbers, "BT1-201")
    assert status == 422 and "number" in body["error"]["details"]["fields"]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"number": "ST1-01"}, "game"),  # which game's numbers?
        ({"game": "dcg", "number": "ST1-01", "collection": "abc"}, "number"),
        ({"game": "dcg", "number": "x" * 41}, "number"),
    ],
)
def test_what_cannot_be_read_is_a_422_naming_the_field(client, params, field):
    response = client.get("/api/v1/cards", query_string=params)
    assert response.status_code == 422
    assert field in response.get_json()["error"]["details"]["fields"]
