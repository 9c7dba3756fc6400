"""destiny-limit: the DBE Destiny Zone's limits (test-only cards)."""

import pytest
from fixture_cards import dbe_codes as codes


@pytest.mark.parametrize(
    ("partner", "sections", "expected"),
    [
        (
            "ACC-001",
            {
                "main": {"ACC-001": 4},
                "destiny": {"ACC-007": 1, "ACC-002": 1, "ACC-003": 1, "ACC-013": 1, "ACC-017": 1},
            },
            [],
        ),
        (
            None,
            {"main": {"ACC-001": 4}, "destiny": {"ACC-007": 1, "ACC-008": 1}},
            ["destiny-limit"],
        ),
        (
            "ACC-001",
            {"main": {"ACC-001": 4}, "destiny": {"ACC-002": 1, "ACC-003": 1, "ACC-004": 1}},
            ["destiny-limit"],
        ),
        ("ACC-001", {"main": {"ACC-001": 4}, "destiny": {"ACC-002": 2}}, ["destiny-limit"]),
        (
            None,
            {"main": {"ACC-001": 4}, "destiny": {"ACC-013": 1, "ACC-014": 1}},
            ["destiny-limit"],
        ),
        (
            None,
            {"main": {"ACC-001": 4}, "destiny": {"ACC-017": 1, "ACC-018": 1}},
            ["destiny-limit"],
        ),
        (None, {"main": {"ACC-001": 4}, "destiny": {"ACC-015": 1}}, ["destiny-limit"]),
    ],
    ids=[
        "full-legal-destiny",
        "two-level-m",
        "three-partner-c",
        "partner-c-twice",
        "two-proxies",
        "two-masteries",
        "plain-option-in-destiny",
    ],
)
def test_destiny_limit(partner, sections, expected):
    assert codes(partner, **sections) == expected
