"""copy-limit over the formats the service ships: at each limit and one past it, in
every section the rule covers (DCG main and Digi-Egg deck; DBE per deck over main
deck and Destiny Zone for Ace, Firewall and DATA; a card's own limit in every game)."""

from datetime import date

import pytest
from fixture_cards import make_deck

from rules.builtin import BUILT_IN
from rules.model import Deck, Entry

DAY = date(2024, 1, 1)


def copy_limits(fmt_id: str, game: str, sections: dict) -> list[str]:
    violations, _ = BUILT_IN[fmt_id].judge(make_deck(game, **sections), DAY)
    return [v.cards[0] for v in violations if v.code == "copy-limit"]


CASES = [
    # format, game, sections, over
    ("dcg", "dcg", {"main": {"ST1-03": 4}}, []),
    ("dcg", "dcg", {"main": {"ST1-03": 5}}, ["ST1-03"]),
    ("dcg", "dcg", {"eggs": {"ST1-01": 4}}, []),
    ("dcg", "dcg", {"eggs": {"ST1-01": 5}}, ["ST1-01"]),
    ("dcg", "dcg", {"main": {"BT11-061": 50}}, []),
    ("dcg", "dcg", {"main": {"BT11-061": 51}}, ["BT11-061"]),
    ("dcg", "dcg", {"main": {"ST1-03": 4, "BT1-010": 4}}, []),
    ("dbe", "dbe", {"main": {"ACC-001": 4}}, []),
    ("dbe", "dbe", {"main": {"ACC-001": 5}}, ["ACC-001"]),
    ("dbe", "dbe", {"main": {"ACC-015": 3}}, []),
    ("dbe", "dbe", {"main": {"ACC-015": 4}}, ["ACC-015"]),
    ("dbe", "dbe", {"main": {"ACC-016": 2}}, []),
    ("dbe", "dbe", {"main": {"ACC-016": 3}}, ["ACC-016"]),
    ("dbe", "dbe", {"main": {"ACC-019": 1}}, []),
    ("dbe", "dbe", {"main": {"ACC-019": 2}}, ["ACC-019"]),
    ("dbe", "dbe", {"main": {"ACC-019": 1}, "destiny": {"ACC-019": 1}}, ["ACC-019"]),
    ("dbe", "dbe", {"main": {"ACC-021": 3}}, []),
    ("dbe", "dbe", {"main": {"ACC-021": 4}}, ["ACC-021"]),
    ("dbe", "dbe", {"main": {"ACC-021": 2}, "destiny": {"ACC-021": 1}}, []),
    ("dbe", "dbe", {"main": {"ACC-021": 3}, "destiny": {"ACC-021": 1}}, ["ACC-021"]),
    ("dbe", "dbe", {"main": {"ACC-009": 1}}, []),
    ("dbe", "dbe", {"main": {"ACC-009": 2}}, ["ACC-009"]),
    ("dbe", "dbe", {"main": {"ACC-009": 1}, "destiny": {"ACC-009": 1}}, ["ACC-009"]),
    ("dbe", "dbe", {"main": {"ACC-024": 10}}, []),
    ("dbe", "dbe", {"main": {"ACC-024": 11}}, ["ACC-024"]),
    ("dbe", "dbe", {"destiny": {"ACC-002": 9}}, []),
    ("digibattle", "digibattle", {"main": {"ST-01": 1, "ST-44": 1, "ST-44S": 1}}, []),
    ("digibattle", "digibattle", {"main": {"ST-01": 2}}, ["ST-01"]),
    ("digibattle", "digibattle", {"main": {"BO-90": 3}}, []),
    ("digibattle", "digibattle", {"main": {"BO-90": 4}}, ["BO-90"]),
]


@pytest.mark.parametrize(("fmt_id", "game", "sections", "over"), CASES)
def test_copy_limit(fmt_id, game, sections, over):
    assert copy_limits(fmt_id, game, sections) == over


def test_message_names_card_count_and_fix():
    violations, _ = BUILT_IN["digibattle"].judge(make_deck("digibattle", main={"ST-01": 2}), DAY)
    [found] = [v for v in violations if v.code == "copy-limit"]
    assert "2 copies of ST-01 Agumon" in found.message and "no card code twice" in found.message
    assert "Remove 1 copy" in found.message


def test_copies_of_one_number_add_up_over_lines():
    agumon = make_deck("dcg", main={"ST1-03": 1}).entries[0].card
    deck = Deck("dcg", (Entry(agumon, 3, "main", 1), Entry(agumon, 2, "main", 7)))
    violations, _ = BUILT_IN["dcg"].judge(deck, DAY)
    [found] = [v for v in violations if v.code == "copy-limit"]
    assert "5 copies of ST1-03 Agumon" in found.message and found.line == 1
