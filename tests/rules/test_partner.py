"""partner: a declared partner and the partner Level C Digimon (DBE, test-only cards)."""

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
        (None, {"main": {"ACC-001": 4}, "destiny": {"ACC-002": 1}}, ["partner"]),
        ("ACC-023", {"main": {"ACC-023": 4}, "destiny": {"ACC-002": 1}}, ["partner"]),
        ("ACC-001", {"main": {"ACC-023": 4}}, ["partner"]),
        ("ACC-005", {"main": {"ACC-005": 4}}, ["partner"]),
        (None, {"main": {"ACC-001": 4}}, []),
    ],
    ids=[
        "partner-c-without-partner",
        "partner-c-not-naming-partner",
        "partner-not-in-main",
        "partner-not-level-r",
        "no-partner-at-all",
    ],
)
def test_partner(partner, sections, expected):
    assert codes(partner, **sections) == expected
