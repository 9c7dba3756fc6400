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


@pytest.mark.parametrize(
    "sections",
    [
        {"main": {"ACC-019": 2}},
        {"main": {"ACC-019": 1}, "destiny": {"ACC-019": 1}},
        {"main": {"ACC-021": 4}},
    ],
    ids=["two-copies-of-one-ace", "one-ace-in-both", "four-copies-of-one-firewall"],
)
def test_copies_of_one_card_are_one_problem_copy_limit(sections):
    """A contract review: two copies of one Ace got copy-limit and kind-total-limit for
    the same extra copy; the acceptance case says copy-limit."""
    found = codes(None, **sections)
    assert "copy-limit" in found and "kind-total-limit" not in found
