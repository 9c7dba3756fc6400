"""Opening-hand odds against values worked out independently: exact fractions by
counting hands, and the hand sizes of the rule documents."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb, isclose

import pytest
from fixture_cards import make_deck

from rules.games import GAMES
from rules.odds import at_least_one, deck_odds, seen_by_turn


def brute_force(deck_size: int, copies: int, seen: int) -> Fraction:
    """Count every hand: the share of hands holding at least one wanted card."""
    hits = sum(1 for hand in combinations(range(deck_size), seen) if min(hand) < copies)
    return Fraction(hits, comb(deck_size, seen))


@pytest.mark.parametrize(
    ("deck_size", "copies", "seen"), [(10, 2, 3), (12, 4, 5), (9, 1, 4), (8, 8, 1)]
)
def test_matches_counting_every_hand(deck_size, copies, seen):
    assert isclose(at_least_one(deck_size, copies, seen), brute_force(deck_size, copies, seen))


@pytest.mark.parametrize(
    ("copies", "seen", "exact"),
    [
        # 1 - C(46,5)/C(50,5) = 1 - 1370754/2118760
        (4, 5, Fraction(2118760 - 1370754, 2118760)),
        (1, 5, Fraction(5, 50)),
        (4, 7, 1 - Fraction(comb(46, 7), comb(50, 7))),
        (0, 5, Fraction(0)),
        (50, 5, Fraction(1)),
    ],
)
def test_fifty_card_values(copies, seen, exact):
    assert isclose(at_least_one(50, copies, seen), exact, abs_tol=1e-12)


@pytest.mark.parametrize(
    ("game", "turn", "first", "seen"),
    [
        ("dcg", 1, True, 5),  # the first player skips their first draw (Rule Manual)
        ("dcg", 1, False, 6),
        ("dcg", 3, True, 7),
        ("dcg", 3, False, 8),
        ("dbe", 1, True, 6),  # DBE draws every turn, the first one too
        ("dbe", 2, False, 7),
        ("digibattle", 1, True, 10),
        ("digibattle", 2, True, None),  # the hand refills: depends on play
        ("dmcg", 1, False, 6),
    ],
)
def test_seen_by_turn_follows_the_rule_documents(game, turn, first, seen):
    assert seen_by_turn(GAMES[game].draws, turn, first) == seen


def test_deck_odds_groups_levels_kinds_and_names():
    deck = make_deck(
        "dcg",
        main={"ST1-03": 4, "BT1-010": 4, "ST1-07": 2, "ST1-12": 4, "ST1-16": 36},
        eggs={"ST1-01": 4},
    )
    odds = deck_odds(deck, turn=2)
    by_label = {g["label"]: g for g in odds["groups"]}
    assert odds["deck_size"] == 50 and odds["hand_size"] == 5
    assert by_label["any Agumon"]["copies"] == 8  # ST1-03 and BT1-010 are both Agumon
    assert by_label["Level 3 Digimon"]["copies"] == 8
    assert by_label["Tamers"]["cards"] == ["ST1-12"]
    assert isclose(by_label["any Agumon"]["opening"], 1 - comb(42, 5) / comb(50, 5))
    assert isclose(by_label["Tamers"]["by_turn"]["second"], 1 - comb(46, 7) / comb(50, 7))
    assert "Koromon" not in " ".join(by_label)  # the Digi-Egg deck is not drawn from


def test_set_aside_card_leaves_the_deck():
    deck = make_deck("dmcg", main={"St-1": 3, "St-2": 27})
    odds = deck_odds(deck)
    assert odds["deck_size"] == 29 and odds["groups"][0]["by_turn"] is None
