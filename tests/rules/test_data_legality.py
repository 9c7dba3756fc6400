"""data-legality: a DATA card's name must be in the Destiny Zone (DBE, test-only cards)."""

from datetime import date

import pytest
from fixture_cards import make_deck

from rules.formats import BUILT_IN

ON = date(2024, 1, 1)


def codes(partner=None, **sections):
    """The violation codes of a DBE deck, deck size aside (these decks are partial)."""
    sections = {s: {n: c for n, c in cards.items() if c} for s, cards in sections.items()}
    violations, _ = BUILT_IN["dbe"].judge(make_deck("dbe", partner=partner, **sections), ON)
    return sorted({v.code for v in violations} - {"deck-size"})


@pytest.mark.parametrize(
    ("partner", "sections", "expected"),
    [
        (None, {"main": {"ACC-010": 1}, "destiny": {"ACC-007": 1}}, ["data-legality"]),
        (None, {"main": {"ACC-011": 1}, "destiny": {"ACC-007": 1}}, []),
        (None, {"main": {"ACC-009": 1}, "destiny": {"SF-003": 1}}, []),
    ],
    ids=["data-without-name", "data-named-in-evo-box", "data-by-alias"],
)
def test_data_legality(partner, sections, expected):
    assert codes(partner, **sections) == expected
