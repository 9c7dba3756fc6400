"""banned, restricted, choice-restriction and upcoming-change over the DCG list history.

The day before and the day a change takes effect are both tested.
"""

from datetime import date

import pytest
from fixture_cards import make_deck

from rules.builtin import BUILT_IN
from rules.lists import load_history
from rules.numbers import number_key

LISTS = load_history()
DCG = BUILT_IN["dcg"]


def found(code, day, **sections):
    """Violations and warnings with `code` from the shipped DCG format on `day`."""
    violations, warnings = DCG.judge(make_deck("dcg", **sections), date.fromisoformat(day))
    return [v for v in (*violations, *warnings) if v.code == code]


@pytest.mark.parametrize(
    ("code", "day", "sections", "bad"),
    [
        ("banned", "2022-02-24", {"main": {"BT5-109": 1}}, False),
        ("banned", "2022-02-25", {"main": {"BT5-109": 1}}, True),
        ("banned", "2022-02-25", {"eggs": {"BT5-109": 1}}, True),
        ("restricted", "2021-03-31", {"main": {"BT2-047": 2}}, False),
        ("restricted", "2021-04-01", {"main": {"BT2-047": 2}}, True),
        ("restricted", "2021-04-01", {"main": {"BT2-047": 1}}, False),
        ("restricted", "2021-04-01", {"eggs": {"BT2-047": 1}}, False),
        ("restricted", "2021-04-01", {"main": {"BT2-047": 1}, "eggs": {"BT2-047": 1}}, True),
        ("restricted", "2021-04-01", {"eggs": {"BT2-047": 2}}, True),
        ("restricted", "2026-04-03", {"main": {"BT3-092": 4}}, False),
        ("restricted", "2026-04-04", {"main": {"BT3-092": 4}}, True),
        ("choice-restriction", "2025-03-27", {"main": {"EX2-007": 1, "EX7-064": 1}}, False),
        ("choice-restriction", "2025-03-28", {"main": {"EX2-007": 1, "EX7-064": 1}}, True),
        (
            "choice-restriction",
            "2025-03-28",
            {"main": {"EX2-007": 1}, "eggs": {"EX7-064": 1}},
            True,
        ),
        ("choice-restriction", "2025-03-28", {"main": {"EX2-007": 4}}, False),
    ],
    ids=[
        "banned-day-before",
        "banned-on-the-day",
        "banned-in-egg-deck",
        "restricted-day-before",
        "restricted-on-the-day",
        "restricted-one-copy",
        "restricted-one-copy-in-eggs",
        "restricted-one-in-each-deck",
        "restricted-two-in-eggs",
        "2026-wave-day-before",
        "2026-wave-on-the-day",
        "pair-day-before",
        "pair-on-the-day",
        "pair-over-both-decks",
        "pair-one-side",
    ],
)
def test_lists_by_date(code, day, sections, bad):
    result = found(code, day, **sections)
    assert bool(result) is bad
    for violation in result:
        assert "world.digimoncard.com" in violation.rule


def test_restricted_message_says_which_deck():
    [v] = found("restricted", "2021-05-01", main={"BT2-047": 3}, eggs={"BT2-047": 1})
    assert v.message == (
        "BT2-047 Argomon is restricted to 1 copy over both decks since 2021-04-01, and you "
        "have 4 (3 in the main deck and 1 in the Digi-Egg deck). Remove 3 copies."
    )


def test_medium_confidence_date_says_so():
    [v] = found("restricted", "2022-06-01", main={"BT6-015": 2})
    assert "medium" in v.message and "medium confidence" in v.rule


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
    result = found("upcoming-change", day, main={"BT3-092": 4})
    assert bool(result) is warned
    for warning in result:
        assert warning.warning and "BT3-092" in warning.cards
        assert warning.message.startswith(
            "From 2026-04-04, BT3-092 MaloMyotismon will be restricted to 1 copy; you have 4."
        )


def test_upcoming_change_is_given_once():
    """A card that two announced lists both limit is warned about once, by the first."""
    from fixture_cards import POOLS

    from rules.validate import check_structured

    report = check_structured(
        DCG, POOLS["dcg"], {"main": [{"card": "BT5-109", "count": 1}]}, None, date(2022, 1, 14)
    )
    upcoming = [w for w in report.warnings if w.code == "upcoming-change"]
    assert len(upcoming) <= 1 and len(report.warnings) == len(set(report.warnings))


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


def test_banned_and_restricted_look_the_deck_up_in_the_days_lists_once(monkeypatch):
    """Issue 33: each of the two checks looked every card up in the day's list state
    (`Deck.listed_in`); the deck keeps the answer for the second. (The upcoming-change
    warning looks in a later day's state: once too.)"""
    from collections import Counter

    from rules.lists import ListHistory

    lookups: Counter = Counter()

    class Counted(dict):
        def __contains__(self, key):
            lookups[id(self), key] += 1
            return super().__contains__(key)

    real, seen = ListHistory.state_on, {}

    def counted_state_on(self, on):
        state = real(self, on)
        if id(state) not in seen:
            seen[id(state)] = Counted(state)  # one object per day, as the real cache gives
        return seen[id(state)]

    monkeypatch.setattr(ListHistory, "state_on", counted_state_on)
    deck = make_deck("dcg", main={"BT2-047": 2, "BT5-109": 1, "ST1-03": 4})
    violations, _ = DCG.judge(deck, date(2022, 3, 1))
    assert {"banned", "restricted"} <= {v.code for v in violations}
    assert lookups and set(lookups.values()) == {1}
    assert {key for _, key in lookups} == {stack.card.key for stack in deck.totals}
