"""wrong-section: Digi-Eggs and other kinds in the right DCG deck; DBE Level M / Mastery; tokens."""

from datetime import date

import pytest
from fixture_cards import make_deck

from rules.builtin import BUILT_IN
from rules.model import Context

CTX = Context(date(2024, 1, 1))


def wrong(fmt_id, game, **sections):
    check = BUILT_IN[fmt_id].check_of("wrong-section")
    return [v.cards[0] for v in check.check(make_deck(game, **sections), CTX)]


@pytest.mark.parametrize(
    ("fmt_id", "game", "sections", "bad"),
    [
        ("dcg", "dcg", {"main": {"ST1-03": 4}, "eggs": {"ST1-01": 4}}, []),
        ("dcg", "dcg", {"main": {"ST1-01": 1}}, ["ST1-01"]),
        ("dcg", "dcg", {"eggs": {"ST1-12": 1}}, ["ST1-12"]),
        ("dcg", "dcg", {"main": {"TK-01": 1}}, ["TK-01"]),
        ("dbe", "dbe", {"main": {"ACC-007": 1}}, ["ACC-007"]),
        ("dbe", "dbe", {"main": {"ACC-017": 1}}, ["ACC-017"]),
        ("dbe", "dbe", {"main": {"ACC-006": 4, "ACC-016": 2}, "destiny": {"ACC-015": 1}}, []),
        ("dbe", "dbe", {"eggs": {"ACC-001": 1}}, ["ACC-001"]),
        ("digibattle", "digibattle", {"eggs": {"ST-01": 1}}, ["ST-01"]),
    ],
    ids=[
        "dcg-ok",
        "dcg-egg-in-main",
        "dcg-tamer-in-eggs",
        "dcg-token",
        "dbe-level-m-in-main",
        "dbe-mastery-in-main",
        "dbe-destiny-left-to-destiny-limit",
        "dbe-no-egg-deck",
        "digibattle-no-egg-deck",
    ],
)
def test_wrong_section(fmt_id, game, sections, bad):
    assert wrong(fmt_id, game, **sections) == bad


def test_message_says_where_to_move_the_card():
    check = BUILT_IN["dcg"].check_of("wrong-section")
    [violation] = check.check(make_deck("dcg", main={"ST1-01": 1}), CTX)
    assert violation.message.startswith("ST1-01 Koromon cannot go in the main deck")
    assert violation.message.endswith("Move it to the Digi-Egg deck.")
