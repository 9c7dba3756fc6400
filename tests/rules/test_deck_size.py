"""deck-size and egg-deck-size over the formats the service ships: at each size, one
short and one over, in every section the rule counts (DBE: main deck + Destiny Zone)."""

from datetime import date

import pytest
from fixture_cards import make_deck

from rules.builtin import BUILT_IN
from rules.model import Deck, Unresolved

DAY = date(2024, 1, 1)


def sizes(fmt_id, game, sections, deck=None):
    deck = deck or make_deck(game, **sections)
    violations, _ = BUILT_IN[fmt_id].judge(deck, DAY)
    return [v for v in violations if v.code in ("deck-size", "egg-deck-size")]


def _digibattle(n):
    return {f"BO-{i}": 1 for i in range(1, n + 1)}


@pytest.mark.parametrize(
    ("fmt_id", "game", "sections", "expected"),
    [
        ("dcg", "dcg", {"main": {"BT11-061": 50}}, []),
        ("dcg", "dcg", {"main": {"BT11-061": 49}}, ["deck-size"]),
        ("dcg", "dcg", {"main": {"BT11-061": 51}}, ["deck-size"]),
        ("dcg", "dcg", {"main": {"BT11-061": 50}, "eggs": {"ST1-01": 5}}, []),
        ("dcg", "dcg", {"main": {"BT11-061": 50}, "eggs": {"ST1-01": 6}}, ["egg-deck-size"]),
        ("dcg", "dcg", {"main": {"BT11-061": 45}, "eggs": {"ST1-01": 5}}, ["deck-size"]),
        ("dbe", "dbe", {"main": {"ACC-024": 10, "ACC-001": 40}}, []),
        ("dbe", "dbe", {"main": {"ACC-024": 10, "ACC-001": 36}, "destiny": {"ACC-007": 4}}, []),
        (
            "dbe",
            "dbe",
            {"main": {"ACC-024": 10, "ACC-001": 36}, "destiny": {"ACC-007": 3}},
            ["deck-size"],
        ),
        (
            "dbe",
            "dbe",
            {"main": {"ACC-024": 10, "ACC-001": 36}, "destiny": {"ACC-007": 5}},
            ["deck-size"],
        ),
        ("digibattle", "digibattle", {"main": _digibattle(30)}, []),
        ("digibattle", "digibattle", {"main": _digibattle(29)}, ["deck-size"]),
        ("digibattle", "digibattle", {"main": _digibattle(31)}, ["deck-size"]),
        ("dmcg", "dmcg", {"main": {f"St-{n}": 2 for n in range(100, 115)}}, []),
        (
            "dmcg",
            "dmcg",
            {"main": {"St-1": 1, **{f"St-{n}": 2 for n in range(100, 114)}}},
            ["deck-size"],
        ),
        (
            "dmcg",
            "dmcg",
            {"main": {"St-1": 3, **{f"St-{n}": 2 for n in range(100, 114)}}},
            ["deck-size"],
        ),
    ],
)
def test_deck_size(fmt_id, game, sections, expected):
    assert [v.code for v in sizes(fmt_id, game, sections)] == expected


def test_message_says_how_to_fix():
    [found] = sizes("dcg", "dcg", {"main": {"BT11-061": 49}})
    assert "has 49 cards, but it must have exactly 50 cards. Add 1 card." in found.message


def test_unread_lines_are_counted_in_the_message():
    read = make_deck("dcg", main={"BT11-061": 47})
    deck = Deck("dcg", read.entries, unresolved=(Unresolved(13, "2 Mental Trainig", 2),))
    [found] = sizes("dcg", "dcg", {}, deck)
    assert "47 cards that deckcheck could read, and 2 more on line 13 that it could not" in (
        found.message
    )
