"""deckcheck.events.alike: which rows the organizer's table flags as one player twice."""

from __future__ import annotations

import time

import pytest

from deckcheck.events.alike import MAX_FLAGS, near_duplicates


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Carol Chen", "Chen, Carol"),
        ("Carol Chen", "Carol Chén"),
        ("Carol Chen", "CarolChen"),
        ("Carol Chen", "carol-chen"),
        ("Zoë Ödegård", "zoe odegard"),
    ],
)
def test_names_with_the_same_letters_are_flagged(one, other):
    found = near_duplicates([("a", one, ""), ("b", other, ""), ("c", "Bob Baker", "")])
    assert found == {"a": [{"id": "b", "player": other}], "b": [{"id": "a", "player": one}]}


@pytest.mark.parametrize(
    ("one", "other"),
    [("Carol Chen", "Carol Cheng"), ("Ann Lee", "Anne Lee"), ("Al", "Al B")],
)
def test_other_names_are_not(one, other):
    assert near_duplicates([("a", one, ""), ("b", other, "")]) == {}


def test_the_same_player_id_is_flagged():
    found = near_duplicates([("a", "Carol", "0000333"), ("b", "Caz", "0000333")])
    assert found["a"] == [{"id": "b", "player": "Caz"}]


def test_a_big_group_costs_a_step_a_row_and_names_a_few():
    rows = [(f"s{n}", f"Player {n}", "same-id") for n in range(20_000)]
    # CPU time, which other work on a busy machine does not inflate.
    started = time.process_time()
    found = near_duplicates(rows)
    assert time.process_time() - started < 1.0
    assert len(found) == 20_000 and all(len(v) <= MAX_FLAGS for v in found.values())
