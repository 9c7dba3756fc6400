"""kind-total-limit: 1 Ace, 3 Firewalls, 2 DATA cards per deck (DBE, test-only cards)."""

import pytest
from fixture_cards import dbe_codes as codes


@pytest.mark.parametrize(
    ("partner", "sections", "expected"),
    [
        (None, {"main": {"ACC-019": 1, "ACC-020": 1}}, ["kind-total-limit"]),
        (None, {"main": {"ACC-021": 3, "ACC-022": 1}}, ["kind-total-limit"]),
        (
            None,
            {
                "main": {"ACC-009": 1, "ACC-010": 1, "ACC-011": 1},
                "destiny": {"ACC-007": 1, "ACC-008": 0},
            },
            ["data-legality", "kind-total-limit"],
        ),
    ],
    ids=["two-aces", "four-firewalls", "three-data"],
)
def test_kind_total_limit(partner, sections, expected):
    assert codes(partner, **sections) == expected
