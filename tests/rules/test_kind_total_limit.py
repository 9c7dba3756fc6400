"""kind-total-limit over the shipped DBE format: 1 Ace, 3 Firewalls and 2 different DATA
cards per deck, the main deck and the Destiny Zone together; at each limit and one past."""

import pytest
from fixture_cards import dbe_codes as codes


@pytest.mark.parametrize(
    ("sections", "over"),
    [
        ({"main": {"ACC-019": 1}}, False),
        ({"main": {"ACC-019": 1, "ACC-020": 1}}, True),
        ({"main": {"ACC-019": 1}, "destiny": {"ACC-020": 1}}, True),
        ({"main": {"ACC-021": 3}}, False),
        ({"main": {"ACC-021": 2, "ACC-022": 1}}, False),
        ({"main": {"ACC-021": 3, "ACC-022": 1}}, True),
        ({"main": {"ACC-021": 2}, "destiny": {"ACC-022": 1}}, False),
        ({"main": {"ACC-021": 2}, "destiny": {"ACC-022": 2}}, True),
        ({"main": {"ACC-009": 1, "ACC-011": 1}, "destiny": {"ACC-007": 1}}, False),
        (
            {"main": {"ACC-009": 1, "ACC-010": 1, "ACC-011": 1}, "destiny": {"ACC-007": 1}},
            True,
        ),
        (
            {"main": {"ACC-009": 1, "ACC-011": 1}, "destiny": {"ACC-007": 1, "ACC-010": 1}},
            True,
        ),
    ],
    ids=[
        "one-ace",
        "two-aces",
        "ace-in-main-and-destiny",
        "three-firewalls",
        "three-firewalls-two-numbers",
        "four-firewalls",
        "three-firewalls-over-both",
        "four-firewalls-over-both",
        "two-data",
        "three-data",
        "three-data-over-both",
    ],
)
def test_kind_total_limit(sections, over):
    assert ("kind-total-limit" in codes(None, **sections)) == over
