"""A deck's totals and number keys, with and without a card number in two sections
(the common deck has none, and takes a shorter path: both must agree)."""

from __future__ import annotations

from rules.model import Card, Deck, Entry, Stack

AGUMON = Card("dcg", "BT1-010", "Agumon", "digimon")
AGUMON_ART = Card("dcg", "BT1-010_P1", "Agumon", "digimon")  # test-only alternate art
KOROMON = Card("dcg", "BT1-001", "Koromon", "digi-egg")


def test_without_a_number_in_two_sections_the_totals_are_the_stacks():
    deck = Deck("dcg", (Entry(AGUMON, 4, "main", 1), Entry(KOROMON, 2, "eggs", 2)))
    assert deck.totals == (Stack(AGUMON, 4, (1,)), Stack(KOROMON, 2, (2,)))
    assert [stack.card.key for stack in deck.totals] == ["BT1-10", "BT1-1"]
    assert deck.by_key == {"BT1-10": deck.totals[0], "BT1-1": deck.totals[1]}


def test_a_number_in_two_sections_is_added_up_in_the_totals():
    deck = Deck(
        "dcg",
        (Entry(AGUMON, 3, "main", 1), Entry(KOROMON, 1, "eggs", 2), Entry(AGUMON, 2, "eggs", 3)),
    )
    assert deck.totals == (Stack(AGUMON, 5, (1, 3)), Stack(KOROMON, 1, (2,)))
    assert [stack.card.key for stack in deck.totals] == ["BT1-10", "BT1-1"]
    # By key, each section's stack as listed; the later section's stack wins the key.
    assert deck.by_key == {"BT1-10": Stack(AGUMON, 2, (3,)), "BT1-1": Stack(KOROMON, 1, (2,))}


def test_two_printings_of_one_number_are_two_totals_and_one_key():
    deck = Deck("dcg", (Entry(AGUMON, 2, "main", 1), Entry(AGUMON_ART, 2, "main", 2)))
    assert deck.totals == (Stack(AGUMON, 2, (1,)), Stack(AGUMON_ART, 2, (2,)))
    assert [stack.card.key for stack in deck.totals] == ["BT1-10", "BT1-10"]
    assert deck.by_key == {"BT1-10": Stack(AGUMON_ART, 2, (2,))}


def test_a_derived_value_is_worked_out_once_and_kept_on_its_object():
    from dataclasses import dataclass

    from rules.model import derived

    made = []

    @dataclass(frozen=True)
    class Pair:  # test-only
        a: int

        @derived
        def double(self) -> int:
            made.append(self.a)
            return self.a * 2

    one, two = Pair(1), Pair(2)
    assert (one.double, one.double, two.double) == (2, 2, 4)
    assert made == [1, 2]  # once per object, each its own value
    assert one == Pair(1)  # the kept value is not a field
