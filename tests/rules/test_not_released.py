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


def judged(client, cards, day):
    """The `not-released` violations and `release-unverified` warnings of a deck."""
    body = {
        "format": "dcg",
        "date": day,
        "deck": {"main": [{"card": c, "count": 1} for c in cards]},
    }
    response = client.post("/api/v1/decks/validate", json=body)
    assert response.status_code == 200, response.get_json()
    data = response.get_json()
    found = [v for v in data["violations"] if v["code"] == "not-released"]
    return found + [w for w in data["warnings"] if w["code"] == "release-unverified"]


def codes_for(client, cards, day):
    return [v for v in judged(client, cards, day) if v["code"] == "not-released"]


@pytest.mark.parametrize(
    ("card", "day", "verdict"),
    [
        ("BT18-001", "2022-01-01", "not-released"),  # BT18 came out 2024-11-01
        ("EX9-013", "2025-06-25", "not-released"),  # the day before EX9 (2025-06-26)
        ("EX9-013", "2025-06-26", None),  # its release day
        # BT18-BT20 came in two boosters: each card with the one that held it.
        ("BT19-002", "2024-11-01", None),  # in Ver.2.0 (2024-11-01)
        # Only in Ver.2.5 (2025-02-28) by one card list, while BT19 was out from 2024-11-01:
        # a doubt, so a warning, never a violation.
        ("BT19-012", "2025-02-27", "release-unverified"),
        ("BT19-012", "2025-02-28", None),
        ("BT20-001", "2024-11-01", "not-released"),
        # BT1-BT3 too: Ver.1.0 (2021-02-12) and Ver.1.5 (2021-03-12).
        ("BT2-005", "2021-02-11", "not-released"),
        ("BT2-005", "2021-02-12", None),  # a BT2 card of Ver.1.0
        ("BT1-083", "2021-02-20", "release-unverified"),  # a BT1 card only in Ver.1.5
        ("BT3-010", "2021-03-11", "release-unverified"),
        ("BT3-010", "2021-03-12", None),
        ("ST15-12", "2023-07-21", None),  # in BT13's box topper, before ST15
        ("ST15-12", "2023-07-20", "not-released"),
        ("ST1-02", "2021-01-01", None),  # sold at the November 2020 English pre-sale
        ("ST1-02", "2020-10-31", "not-released"),
        # A promo pack's day is a guess: a warning, never a problem.
        ("P-001", "2020-11-15", "release-unverified"),
        ("P-001", "2020-11-16", None),
        # A promo seen in a real tournament list: out by that day, whatever its pack says.
        ("P-101", "2024-01-27", None),  # 2023 Championship Finals (pack: 2024-04-26)
        ("P-101", "2024-01-26", "not-released"),
        ("P-186", "2025-05-10", None),  # an event on 2025-05-10 (pack: 2025-06-27)
        ("LM-001", "2020-01-01", None),  # LM packs have no known day: never judged
    ],
)
def test_a_card_is_judged_by_its_english_release(full_client, card, day, verdict):
    found = judged(full_client, [card], day)
    assert [v["code"] for v in found] == ([verdict] if verdict else [])
    if verdict:
        (violation,) = found
        assert violation["cards"] == [card]
        assert day in violation["message"]
        assert "products" in violation["rule"]


def test_a_guessed_day_is_a_warning_that_says_why(full_client):
    body = {"format": "dcg", "date": "2020-11-01", "decklist": "4 P-001\n4 P-002\n4 BT1-001"}
    data = full_client.post("/api/v1/decks/validate", json=body).get_json()
    (warning,) = [w for w in data["warnings"] if w["code"] == "release-unverified"]
    assert warning["cards"] == ["P-001", "P-002"]
    assert "2020-11-16 (Promotion Pack Ver. 0.0)" in warning["message"]
    assert "not sure" in warning["message"] and "first handed out" in warning["message"]
    # The guessed promos make no problem; the booster card, dated in stores, does.
    assert [v["cards"] for v in data["violations"] if v["code"] == "not-released"] == [["BT1-001"]]


def test_a_day_from_a_tournament_list_names_the_event(full_client):
    (found,) = codes_for(full_client, ["P-101"], "2024-01-01")
    assert "first played on 2024-01-27" in found["message"]
    assert "2023 Championship Finals" in found["message"]


def test_the_cards_of_one_product_make_one_problem(full_client):
    """Each unreleased card is named once, grouped by the product it came in."""
    cards = ["BT18-001", "EX9-013", "BT18-001", "BT18-002", "ST1-02", "P-001"]
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
    (ex13,) = [s for s in data["sets"] if s["set"] == "EX13"]
    assert ex13["name"] == "Chivalrous XIII" and ex13["in_stores"] == "2026-10-02"
    # Announced products come last, by the day they are announced for (issue 43).
    assert [s["set"] for s in data["sets"][-2:]] == ["EX14", "BT28"]
    assert data["sets"][-1]["rests_on"] == "announced"
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
    assert old.verified and not Product("P", "P", old.in_stores, old.released, "", "guess").verified
    releases = Releases({"BT1": old, "BT2": new}, {})
    assert releases.newest == date(2021, 6, 1)
    check = NotReleased(releases=releases)
    deck = Deck("dcg", (Entry(Card("dcg", "BT2-001", "Test Agumon", "digimon"), 1, "main"),))

    def late(day: date) -> list[tuple[str, ...]]:
        return [v.cards for v in check.check(deck, Context(day))]

    assert late(date(2021, 5, 31)) == [("BT2-001",)]
    assert late(date(2021, 6, 1)) == []
    assert late(date(2030, 1, 1)) == []


def test_the_format_lists_the_cards_dated_apart_and_what_each_day_rests_on(full_client):
    data = full_client.get("/api/v1/formats/dcg").get_json()["releases"]
    assert {s["rests_on"] for s in data["sets"]} == {"in-stores", "month-start", "announced"}
    groups = {g["product"]: g for g in data["cards"]}
    later = [g for g in data["cards"] if g["product"] == "Special Booster Ver.2.5"]
    doubted = [g for g in later if "BT19-012" in g["cards"]]
    assert doubted and doubted[0]["earliest"] == "2025-02-28" and not doubted[0]["verified"]
    seen = groups["first seen in a tournament list: 2023 Championship Finals"]
    assert seen["cards"] == ["P-101"] and seen["rests_on"] == "event" and seen["verified"]
    guessed = groups["Promotion Pack Ver. 0.0"]
    assert not guessed["verified"] and "first handed out" in guessed["note"]
    assert "P-101" not in groups["EX5 Limited Card Set"]["cards"]  # dated by its list
    page = full_client.get("/formats/dcg").data.decode()
    assert "Special Booster Ver.2.5" in page and "BT19-012" in page
    assert "a guess: the day a product holding it came out" in page
