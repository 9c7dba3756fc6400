"""partner: a declared partner and the partner Level C Digimon (DBE, test-only cards)."""

import pytest
from fixture_cards import dbe_codes as codes


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


def _text_verdict(text):
    from datetime import date

    from fixture_cards import POOLS

    from rules.builtin import BUILT_IN
    from rules.validate import check_text

    return check_text(BUILT_IN["dbe"], POOLS["dbe"], text, date(2024, 1, 1))


def test_a_second_partner_line_is_a_partner_violation_not_the_last():
    report = _text_verdict(
        "Partner: ACC-001\nPartner: ACC-023\n// Destiny Zone\n1 ACC-002\n"
        "// Main\n4 ACC-001\n4 ACC-023"
    )
    partner = [v for v in report.violations if v.code == "partner"]
    assert len(partner) == 1 and "2 partners" in partner[0].message
    assert report.deck.partner.number == "ACC-001"


def test_no_follow_on_after_a_partner_that_cannot_be_one():
    """A partner that is not a Level R is reported once; its Level Cs are not re-judged."""
    report = _text_verdict("Partner: ACC-015\n// Destiny Zone\n1 ACC-002\n// Main\n3 ACC-015")
    partner = [v for v in report.violations if v.code == "partner"]
    assert len(partner) == 1 and "Power Charge" in partner[0].message
    assert "names Power Charge" not in partner[0].message
