"""Reported list changes (issue 43): a warning naming cards, date, source and the official
page; never a violation, until confirmed."""

from datetime import date

from fixture_cards import POOLS

from rules.builtin import BUILT_IN
from rules.lists import ListHistory, change_from_dict, load_history
from rules.model import Card
from rules.pool import CardIndex
from rules.validate import check_text

REPORTED = {
    "effective": "2026-09-01",
    "announced": None,
    "limits": [
        {"card": "BT15-003", "name": "Nyaromon", "status": "banned"},
        {"card": "EX1-066", "name": "Analog Youth", "status": "restricted"},
    ],
    "sources": ["a companion app quoting the official page"],
    "confidence": "reported",
}
POOL = CardIndex(
    "dcg",
    [
        Card("dcg", "BT15-003", "Nyaromon", "digi-egg", "2"),
        Card("dcg", "EX1-066", "Analog Youth", "option"),
        Card("dcg", "BT11-061", "Test Fifty", "digimon", "3", max_copies=50),
    ],
)
DECK = "Digi-Egg deck:\n2 BT15-003\nMain deck:\n46 BT11-061\n2 EX1-066\n2 BT11-061"


def judge(lists, on=date(2026, 12, 4), text=DECK):
    fmt = BUILT_IN["dcg"]
    from dataclasses import replace

    return check_text(replace(fmt, lists=lists), POOL, text, on)


def test_a_reported_change_warns_and_makes_no_violation():
    report = judge(ListHistory([change_from_dict(REPORTED)]))
    assert report.legal
    (warning,) = [w for w in report.warnings if w.code == "list-change-reported"]
    assert set(warning.cards) == {"BT15-003", "EX1-066"}
    for words in (
        "2026-09-01",
        "a companion app quoting the official page",
        "https://world.digimoncard.com/rule/restriction_card/",
        "Reported",
    ):
        assert words in warning.message
    assert "banned" not in warning.message  # "reported", never "banned"


def test_before_its_day_and_within_its_limits_it_says_nothing():
    assert not judge(ListHistory([change_from_dict(REPORTED)]), on=date(2026, 8, 31)).warnings
    one = "Main deck:\n49 BT11-061\n1 EX1-066"
    assert not judge(ListHistory([change_from_dict(REPORTED)]), text=one).warnings


def test_confirmed_it_is_a_rule_as_before():
    confirmed = change_from_dict({**REPORTED, "confidence": "confirmed"})
    report = judge(ListHistory([confirmed]))
    assert {v.code for v in report.violations} == {"banned", "restricted"}
    assert not [w for w in report.warnings if w.code == "list-change-reported"]


def test_the_shipped_history_holds_the_2026_09_01_change_as_reported():
    history = load_history()
    (change,) = [c for c in history.changes if c.reported]
    assert change.effective == date(2026, 9, 1) and not change.enforced
    limits = {ref.number: status for ref, status in change.limits}
    assert limits == {
        "BT15-003": "banned",
        "EX1-066": "restricted",
        "EX8-012": "restricted",
        "BT14-033": "restricted",
    }
    assert change.sources and "companion app" in change.sources[0]
    assert history.status_on("BT15-003", date(2026, 12, 4)) is None


def test_a_real_deck_with_the_cards_warns_with_the_shipped_lists():
    text = "4 ST1-01\n4 ST1-03\n" + "\n".join(f"4 BT{n}-001" for n in range(1, 2))
    report = check_text(BUILT_IN["dcg"], POOLS["dcg"], text, date(2026, 12, 4))
    assert "list-change-reported" not in {w.code for w in report.warnings}
