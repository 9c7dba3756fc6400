"""destiny-limit, partner, data-legality and kind-total-limit (DBE, test-only cards)."""

from datetime import date

import pytest
from fixture_cards import make_deck

from rules.formats import BUILT_IN
from rules.model import Context

CTX = Context(date(2024, 1, 1))
DBE = BUILT_IN["dbe"]


def codes(partner=None, **sections):
    violations, _ = DBE.judge(make_deck("dbe", partner=partner, **sections), CTX.on)
    return sorted({v.code for v in violations} - {"deck-size"})


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
        (None, {"main": {"ACC-001": 4}, "destiny": {"ACC-002": 1}}, ["partner"]),
        ("ACC-023", {"main": {"ACC-023": 4}, "destiny": {"ACC-002": 1}}, ["partner"]),
        ("ACC-001", {"main": {"ACC-023": 4}}, ["partner"]),
        ("ACC-005", {"main": {"ACC-005": 4}}, ["partner"]),
        (None, {"main": {"ACC-001": 4}}, []),
        (None, {"main": {"ACC-010": 1}, "destiny": {"ACC-007": 1}}, ["data-legality"]),
        (None, {"main": {"ACC-011": 1}, "destiny": {"ACC-007": 1}}, []),
        (None, {"main": {"ACC-009": 1}, "destiny": {"SF-003": 1}}, []),
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
    ids=[
        "full-legal-destiny",
        "two-level-m",
        "three-partner-c",
        "partner-c-twice",
        "two-proxies",
        "two-masteries",
        "plain-option-in-destiny",
        "partner-c-without-partner",
        "partner-c-not-naming-partner",
        "partner-not-in-main",
        "partner-not-level-r",
        "no-partner-at-all",
        "data-without-name",
        "data-named-in-evo-box",
        "data-by-alias",
        "two-aces",
        "four-firewalls",
        "three-data",
    ],
)
def test_dbe(partner, sections, expected):
    sections = {s: {n: c for n, c in cards.items() if c} for s, cards in sections.items()}
    assert codes(partner, **sections) == expected
