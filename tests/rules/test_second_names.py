"""DMCG second names: a card "also named Agumon" counts toward the 3-per-name limit
(dmcg-wiki.txt: "up to 3 cards with the same name ... regardless if they have different
card numbers"), and the message names each card counted. Run over every shipped DMCG
format, on the shipped starter pool plus one card with a second name."""

from __future__ import annotations

from datetime import date

import pytest
from fixture_cards import entries

from cardpool.cards import row_to_card
from cardpool.shipped import shipped_rows
from rules.builtin import BUILT_IN
from rules.model import Card
from rules.pool import CardIndex
from rules.validate import check_structured

DMCG_FORMATS = [f for f in BUILT_IN.values() if f.game == "dmcg"]
# A test-only card (not shipped): a second name is what the importers read into `aliases`.
SECOND = Card("dmcg", "St-990", "Agumon Test", "digimon", "III", aliases=("Agumon",))


@pytest.fixture(scope="module")
def index() -> CardIndex:
    cards = [row_to_card(row) for row in shipped_rows("dmcg")[1]]
    return CardIndex("dmcg", [*cards, SECOND])


def name_limits(fmt, index, main):
    report = check_structured(fmt, index, {"main": entries(main)}, None, date(2024, 1, 1))
    return [v for v in report.violations if v.code == "name-limit"]


@pytest.mark.parametrize("fmt", DMCG_FORMATS, ids=lambda f: f.id)
@pytest.mark.parametrize(
    ("main", "cards"),
    [
        ([("St-1", 3)], None),
        ([("St-1", 2), ("St-990", 1)], None),
        ([("St-1", 3), ("St-990", 1)], ("St-1", "St-990")),
        ([("St-1", 1), ("St-990", 3)], ("St-1", "St-990")),
        ([("St-990", 3)], None),
        ([("St-990", 4)], ("St-990",)),
    ],
    ids=["three-agumon", "two-and-one", "three-and-one", "one-and-three", "three", "four"],
)
def test_a_second_name_counts(fmt, index, main, cards):
    found = name_limits(fmt, index, main)
    if cards is None:
        assert found == []
    else:
        assert [v.cards for v in found] == [cards]


@pytest.mark.parametrize("fmt", DMCG_FORMATS, ids=lambda f: f.id)
def test_the_message_names_each_card_counted(fmt, index):
    [violation] = name_limits(fmt, index, [("St-1", 3), ("St-990", 1)])
    assert violation.message == (
        "You have 4 cards named Agumon (3 St-1 Agumon, 1 St-990 Agumon Test, also named "
        "Agumon), but a deck may have at most 3 cards of one name. Remove 1 card."
    )
