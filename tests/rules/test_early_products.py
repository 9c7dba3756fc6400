"""Pre-release events (issue 43): products an organizer names legal early."""

from datetime import date

import pytest

from rules.builtin import BUILT_IN
from rules.custom import FormatFileError, build, parse
from rules.model import Card
from rules.pool import CardIndex
from rules.validate import check_text
from rules.verdict import verdict_of

POOL = CardIndex(
    "dcg",
    [
        Card("dcg", "BT24-001", "Test Egg 24", "digi-egg", "2"),
        Card("dcg", "BT24-010", "Test Twenty-Four", "digimon", "3"),
        Card("dcg", "BT11-061", "Test Fifty", "digimon", "3", max_copies=50),
    ],
)
DECK = "Digi-Egg deck:\n4 BT24-001\nMain deck:\n46 BT11-061\n4 BT24-010"
WEEKEND = date(2026, 1, 17)  # a BT24 pre-release weekend; BT24 is out 2026-01-23


def fmt(text: str):
    return build(parse(text.encode()), dict(BUILT_IN), BUILT_IN, "pre.toml")


PRE = fmt('id = "bt24-pre"\nextends = "dcg"\nearly = ["BT-24"]\nearly_from = "2026-01-17"\n')


def test_a_bt24_pre_release_event_judges_its_lists_legal():
    assert PRE.early == ("BT24",) and PRE.early_from == WEEKEND
    report = check_text(PRE, POOL, DECK, WEEKEND)
    assert report.legal and verdict_of(report.violations) == "legal"


def test_the_plain_format_still_says_not_released():
    report = check_text(BUILT_IN["dcg"], POOL, DECK, WEEKEND)
    assert {v.code for v in report.violations} == {"not-released"}


def test_before_early_from_the_cards_are_not_out():
    report = check_text(PRE, POOL, DECK, date(2026, 1, 10))
    assert {v.code for v in report.violations} == {"not-released"}


@pytest.mark.parametrize(
    ("lines", "words"),
    [
        ('early = ["BT99"]', "not a DCG product"),
        ('early = "BT24"', "must be a list"),
        ('early_from = "2026-01-17"', "early_from needs early"),
        ('early = ["BT24"]\nearly_from = "soon"', "is not a date"),
    ],
)
def test_a_bad_early_key_is_reported(lines, words):
    with pytest.raises(FormatFileError, match=words):
        fmt(f'id = "bad"\nextends = "dcg"\n{lines}\n')
