"""banned, restricted, choice-restriction and upcoming-change over the DCG list history.

The day before and the day a change takes effect are both tested.
"""

from datetime import date

import pytest
from fixture_cards import make_deck

from rules.checks import BannedCards, ChoiceRestrictionCheck, RestrictedCards, UpcomingChange
from rules.lists import load_history
from rules.model import Context
from rules.numbers import number_key

LISTS = load_history()


def found(check, day, **sections):
    return list(check.check(make_deck("dcg", **sections), Context(date.fromisoformat(day), LISTS)))


@pytest.mark.parametrize(
    ("check", "day", "main", "bad"),
    [
        (BannedCards(), "2022-02-24", {"BT5-109": 1}, False),
        (BannedCards(), "2022-02-25", {"BT5-109": 1}, True),
        (RestrictedCards(), "2021-03-31", {"BT2-047": 2}, False),
        (RestrictedCards(), "2021-04-01", {"BT2-047": 2}, True),
        (RestrictedCards(), "2021-04-01", {"BT2-047": 1}, False),
        (RestrictedCards(), "2026-04-03", {"BT3-092": 4}, False),
        (RestrictedCards(), "2026-04-04", {"BT3-092": 4}, True),
        (ChoiceRestrictionCheck(), "2025-03-27", {"EX2-007": 1, "EX7-064": 1}, False),
        (ChoiceRestrictionCheck(), "2025-03-28", {"EX2-007": 1, "EX7-064": 1}, True),
        (ChoiceRestrictionCheck(), "2025-03-28", {"EX2-007": 4}, False),
    ],
    ids=[
        "banned-day-before",
        "banned-on-the-day",
        "restricted-day-before",
        "restricted-on-the-day",
        "restricted-one-copy",
        "2026-wave-day-before",
        "2026-wave-on-the-day",
        "pair-day-before",
        "pair-on-the-day",
        "pair-one-side",
    ],
)
def test_lists_by_date(check, day, main, bad):
    result = found(check, day, main=main)
    assert bool(result) is bad
    for violation in result:
        assert violation.code == check.code and "world.digimoncard.com" in violation.rule


def test_restricted_counts_both_decks():
    """Restricted means 1 copy over the deck and the Digi-Egg deck together."""
    assert found(RestrictedCards(), "2024-01-01", main={"BT2-047": 1}) == []


def test_restricted_message():
    [v] = found(RestrictedCards(), "2021-05-01", main={"BT2-047": 4})
    assert v.message == (
        "BT2-047 Argomon is restricted to 1 copy since 2021-04-01, and you have 4. Remove 3 copies."
    )


def test_lifted_restriction():
    """EX4-019 was restricted 2023-11-17 and lifted 2026-04-04."""
    assert LISTS.status_on("EX4-019", date(2023, 11, 17))[0] == "restricted"
    assert LISTS.status_on("EX4-019", date(2026, 4, 4)) is None


def test_unknown_date_is_not_enforced():
    """The 'emergency' EX5-065 pair has no known English date: shown, never enforced."""
    unknown = [c for c in LISTS.changes if not c.enforced]
    assert unknown and unknown[0].doubt
    assert not any(p.change.effective is None for p in LISTS.pairs_on(date(2030, 1, 1)))


def test_medium_confidence_date_is_enforced_and_shown():
    status, change = LISTS.status_on("BT6-015", date(2022, 5, 13))
    assert status == "restricted" and change.confidence == "medium"
    assert LISTS.status_on("BT6-015", date(2022, 5, 12)) is None


@pytest.mark.parametrize(
    ("day", "warned"),
    [("2026-03-15", False), ("2026-03-16", True), ("2026-04-03", True), ("2026-04-04", False)],
    ids=["before-announcement", "announcement-day", "day-before-effect", "in-force"],
)
def test_upcoming_change(day, warned):
    result = found(UpcomingChange(), day, main={"BT3-092": 4})
    assert bool(result) is warned
    for warning in result:
        assert warning.warning and warning.code == "upcoming-change"
        assert warning.message.startswith("From 2026-04-04:") and "BT3-092" in warning.cards


def test_history_matches_the_shared_curated_list():
    """Folded to 2026-04-04, the shipped history equals the curated 'current' list."""
    import json
    from pathlib import Path

    curated = Path(__file__).resolve().parents[3] / "shared/data/dcg/banlist_en_curated.json"
    if not curated.exists():
        pytest.skip("shared curated list absent")
    current = json.loads(curated.read_text())["current_en_as_of_2026-04-04"]
    state = LISTS.state_on(date(2026, 4, 4))
    assert sorted(k for k, (s, _) in state.items() if s == "banned") == sorted(
        map(number_key, current["banned"])
    )
    assert sorted(k for k, (s, _) in state.items() if s == "restricted") == sorted(
        map(number_key, current["restricted_1"])
    )
    pairs = [
        (sorted(r.number for r in p.a), sorted(r.number for r in p.b))
        for p in LISTS.pairs_on(date(2026, 4, 4))
    ]
    assert pairs == [(sorted(p["a"]), sorted(p["b"])) for p in current["banned_pairs"]]
