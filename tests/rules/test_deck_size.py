"""deck-size and egg-deck-size: exact sizes, and sizes within bounds."""

from datetime import date

import pytest
from fixture_cards import make_deck

from rules.checks import DeckSize
from rules.model import Context

CTX = Context(date(2024, 1, 1))
MAIN_50 = DeckSize("rule", ("main",), exact=50)
EGGS_5 = DeckSize("rule", ("eggs",), maximum=5, what="Digi-Egg deck", code="egg-deck-size")


@pytest.mark.parametrize(
    ("check", "sections", "expected"),
    [
        (MAIN_50, {"main": {"BT11-061": 50}}, None),
        (
            MAIN_50,
            {"main": {"BT11-061": 49}},
            "has 49 cards, but it must have exactly 50 cards. Add 1 card.",
        ),
        (MAIN_50, {"main": {"BT11-061": 51}}, "Remove 1 card."),
        (MAIN_50, {"main": {}}, "has 0 cards"),
        (EGGS_5, {"eggs": {"ST1-01": 4}}, None),
        (EGGS_5, {"eggs": {}}, None),
        (EGGS_5, {"eggs": {"ST1-01": 6}}, "at most 5 cards. Remove 1 card."),
        (
            DeckSize("rule", ("main", "destiny"), minimum=40),
            {"main": {"BT11-061": 39}},
            "at least 40",
        ),
    ],
    ids=["exact", "one-short", "one-over", "empty", "eggs-ok", "no-eggs", "six-eggs", "minimum"],
)
def test_deck_size(check, sections, expected):
    found = list(check.check(make_deck("dcg", **sections), CTX))
    if expected is None:
        assert found == []
    else:
        assert len(found) == 1 and expected in found[0].message
        assert found[0].code == check.code


def test_sections_are_counted_together():
    check = DeckSize("rule", ("main", "destiny"), exact=50)
    deck = make_deck("dbe", main={"ACC-001": 45}, destiny={"ACC-007": 5})
    assert list(check.check(deck, CTX)) == []
