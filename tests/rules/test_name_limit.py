"""name-limit (DMCG): cards of one name count together, whatever their numbers."""

from datetime import date

import pytest
from fixture_cards import make_deck

from rules.builtin import BUILT_IN
from rules.checks import NameLimit
from rules.model import Context

CTX = Context(date(2024, 1, 1))
CHECK = BUILT_IN["dmcg"].check_of("name-limit")  # the shipped format's check


@pytest.mark.parametrize(
    ("main", "expected_cards"),
    [
        ({"St-2": 3}, None),
        ({"St-2": 2, "St-91": 1}, None),
        ({"St-2": 2, "St-91": 2}, ("St-2", "St-91")),
        ({"St-2": 4}, ("St-2",)),
        ({"St-50": 5}, None),
        ({"St-50": 6}, ("St-50",)),
    ],
    ids=[
        "three",
        "three-two-numbers",
        "four-two-numbers",
        "four-one-number",
        "own-rule",
        "own-rule-over",
    ],
)
def test_name_limit(main, expected_cards):
    found = list(CHECK.check(make_deck("dmcg", main=main), CTX))
    if expected_cards is None:
        assert found == []
    else:
        [violation] = found
        assert violation.code == "name-limit" and violation.cards == expected_cards


def test_message_names_the_cards_and_the_fix():
    [violation] = CHECK.check(make_deck("dmcg", main={"St-2": 2, "St-91": 2}), CTX)
    assert violation.message == (
        "You have 4 cards named Greymon (2 St-2 Greymon, 2 St-91 Greymon), but a deck may "
        "have at most 3 cards of one name. Remove 1 card."
    )


def test_none_means_no_limit():
    assert list(NameLimit("rule", limit=None).check(make_deck("dmcg", main={"St-2": 9}), CTX)) == []


def test_the_printed_japanese_name_decides():
    """Two English translations of one printed name are one name."""
    from rules.model import Card, Deck, Entry

    a = Card("dmcg", "St-7", "Wizarmon", "digimon", "IV", name_ja="ウィザーモン")
    b = Card("dmcg", "Bo-7", "Wizardmon", "digimon", "IV", name_ja="ウィザーモン")
    deck = Deck("dmcg", (Entry(a, 2, "main"), Entry(b, 2, "main")))
    [violation] = CHECK.check(deck, CTX)
    assert violation.cards == ("St-7", "Bo-7")
