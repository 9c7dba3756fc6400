"""not-released, and a check date written as a product, on the shipped `dcg` format.

Judged through the API over the shared full DCG pool, so the shipped release dates,
the format's checks and the date reading are all the ones a player meets.
"""

from datetime import date

import pytest

from rules.builtin import BUILT_IN
from rules.checks.not_released import NotReleased
from rules.model import Card, Context, Deck, Entry
from rules.releases import Product, Releases, dcg_releases


def codes_for(client, cards, day):
    body = {
        "format": "dcg",
        "date": day,
        "deck": {"main": [{"card": c, "count": 1} for c in cards]},
    }
    response = client.post("/api/v1/decks/validate", json=body)
    assert response.status_code == 200, response.get_json()
    return [v for v in response.get_json()["violations"] if v["code"] == "not-released"]


@pytest.mark.parametrize(
    ("card", "day", "flagged"),
    [
        ("BT18-001", "2022-01-01", True),  # the case: BT18 came out 2024-11-01
        ("EX9-013", "2025-06-25", True),  # the day before EX9 (2025-06-26)
        ("EX9-013", "2025-06-26", False),  # its release day
        ("BT19-001", "2024-11-01", False),  # half of BT19 came in Ver.2.0: its earliest day
        ("BT20-001", "2024-11-01", True),  # BT20 only with Ver.2.5 (2025-02-28)
        ("BT2-047", "2021-02-11", True),
        ("BT2-047", "2021-02-12", False),  # BT1-3 were split over Ver.1.0 and Ver.1.5
        ("ST1-02", "2021-01-01", False),  # sold at the November 2020 English pre-sale
        ("ST1-02", "2020-10-31", True),
        ("P-001", "2020-11-15", True),  # a promo: its pack's first day (2020-11-16)
        ("P-001", "2020-11-16", False),
        ("LM-001", "2020-01-01", False),  # LM packs have no known day: never judged
    ],
)
def test_a_card_is_judged_by_its_english_release(full_client, card, day, flagged):
    found = codes_for(full_client, [card], day)
    assert bool(found) == flagged
    if flagged:
        (violation,) = found
        assert violation["cards"] == [card]
        assert f"checked as of {day}" in violation["message"]
        assert "came out on" in violation["message"]
        assert "products" in violation["rule"]


def test_the_cards_of_one_product_make_one_problem(full_client):
    """Each unreleased card is named once, grouped by the product it came in."""
    cards = ["BT18-001", "EX9-013", "BT18-001", "BT18-002", "ST1-02"]
    found = codes_for(full_client, cards, "2022-01-01")
    assert [v["cards"] for v in found] == [["BT18-001", "BT18-002"], ["EX9-013"]]
    assert "before those cards existed" in found[0]["message"]


def test_a_long_product_is_named_in_short(full_client):
    cards = [f"BT18-{n:03}" for n in range(1, 13)]
    (found,) = codes_for(full_client, cards, "2022-01-01")
    assert found["cards"] == cards
    assert "and 4 more cards" in found["message"] and "BT18-012" not in found["message"]


@pytest.mark.parametrize(
    ("written", "day"),
    [("BT13", "2023-07-21"), ("bt-13", "2023-07-21"), ("EX5", "2024-01-19"), ("ST1", "2021-01-29")],
)
def test_a_date_may_name_a_product(full_client, written, day):
    body = {"format": "dcg", "date": written, "decklist": "4 ST1-02"}
    response = full_client.post("/api/v1/decks/validate", json=body)
    assert response.status_code == 200
    assert response.get_json()["format"]["date"] == day
    batch = {"format": "dcg", "date": written, "decks": [{"id": "a", "decklist": "4 ST1-02"}]}
    assert full_client.post("/api/v1/decks/validate-batch", json=batch).status_code == 200
    page = full_client.get("/report", query_string={"decklist": "4 ST1-02", "date": written})
    assert page.status_code == 200 and day.encode() in page.data


@pytest.mark.parametrize("written", ["BT99", "ZZ1", "P", "0000-01-01", "9999-12-31", "1969-12-31"])
def test_an_unknown_product_or_a_far_year_is_refused(full_client, written):
    body = {"format": "dcg", "date": written, "decklist": "4 ST1-02"}
    response = full_client.post("/api/v1/decks/validate", json=body)
    assert response.status_code == 422
    assert response.get_json()["error"]["details"]["fields"]["date"]
    page = full_client.get("/report", query_string={"decklist": "4 ST1-02", "date": written})
    assert page.status_code == 422


def test_the_format_says_which_sets_are_not_judged(full_client):
    data = full_client.get("/api/v1/formats/dcg").get_json()["releases"]
    assert {"set": "EX13", "name": "Chivalrous XIII"}.items() <= data["sets"][-1].items()
    assert {u["set"] for u in data["undated"]} >= {"LM"}
    page = full_client.get("/formats/dcg").data.decode()
    assert "Release dates" in page and "LM" in page


def test_every_set_of_the_shared_pool_has_a_day_or_is_listed_undated(full_client):
    """A set the pool holds but the release file forgot would silently never be judged."""
    cards = full_client.get("/api/v1/formats/dcg").get_json()["releases"]
    undated = {u["set"] for u in cards["undated"]}
    assert undated <= {"LM", "P"}


def test_the_shipped_dates_are_ordered_sensibly():
    releases = dcg_releases()
    for product in releases.sets.values():
        assert product.released <= product.in_stores
    assert releases.sets["BT1"].in_stores < releases.sets["BT26"].in_stores
    assert BUILT_IN["dcg"].check_of("not-released") is not None


def test_the_newest_product_is_judged_up_to_the_day_it_came_out():
    """On or after the newest release day nothing is looked up (no card can be late);
    the day before it, the newest product's cards are still judged. Test-only sets."""
    old = Product("BT1", "BT-01", date(2021, 3, 5), date(2021, 3, 1))
    new = Product("BT2", "BT-02", date(2021, 6, 4), date(2021, 6, 1))
    releases = Releases({"BT1": old, "BT2": new}, {})
    assert releases.newest == date(2021, 6, 1)
    check = NotReleased(releases=releases)
    deck = Deck("dcg", (Entry(Card("dcg", "BT2-001", "Test Agumon", "digimon"), 1, "main"),))

    def late(day: date) -> list[tuple[str, ...]]:
        return [v.cards for v in check.check(deck, Context(day))]

    assert late(date(2021, 5, 31)) == [("BT2-001",)]
    assert late(date(2021, 6, 1)) == []
    assert late(date(2030, 1, 1)) == []
