"""The caches of `rules`: one helper (`@memo`, on `rules.cache.Bounded`), the same answers
as worked out afresh, bounded whatever is asked, and no cache on an object."""

from __future__ import annotations

import pytest

import rules.read.shapes as reader
from rules.cache import KEY_MAX, SIZE, Bounded, memo
from rules.numbers import is_number, number_key
from rules.pool import name_key
from rules.read import parse_line


@pytest.mark.parametrize(
    ("text", "key"),
    [("bt1-010_p1", "BT1-10"), (" BT01-010 ", "BT1-10"), ("ST1-01", "ST1-1"), ("P-007", "P-7")],
)
def test_number_keys_are_the_same_asked_twice(text, key):
    assert number_key(text) == key
    assert number_key(text) == key  # now from the cache


@pytest.mark.parametrize(
    ("text", "key"),
    [("Agumon", "agumon"), ("ＡＧＵＭＯＮ", "agumon"), ("Tai Kamiya & Matt", "taikamiyamatt")],
)
def test_name_keys_are_the_same_asked_twice(text, key):
    assert name_key(text) == key
    assert name_key(text) == key


def test_a_full_cache_starts_again():
    cache: Bounded[str, int] = Bounded(size=3)
    for n in range(2):
        cache.keep(str(n), n)
    assert cache.keep("last", -1) == -1
    assert len(cache) == 3  # at its size, nothing lost yet
    assert cache.keep("next", -2) == -2
    assert cache == {"next": -2}


def test_the_key_caches_stay_bounded_whatever_is_asked():
    for n in range(SIZE + 10):
        name_key(f"Zqx {n}")
        number_key(f"ZQ{n}-1")
    assert 0 < len(name_key.kept) <= SIZE
    assert 0 < len(number_key.kept) <= SIZE
    assert name_key("Agumon") == "agumon"  # still right after starting again


def test_a_long_key_is_worked_out_but_not_kept():
    cache: Bounded[str, int] = Bounded()
    long_key = "a" * (KEY_MAX + 1)
    assert cache.keep(long_key, 1) == 1
    assert cache.keep("a" * KEY_MAX, 2) == 2
    assert cache == {"a" * KEY_MAX: 2}


@pytest.mark.parametrize(
    ("token", "number"),
    [("BT1-010", True), ("bt1-10", True), ("Agumon", False), ("BT1-", False), ("X" * 80, False)],
)
def test_number_shapes_are_the_same_asked_twice(token, number):
    assert is_number(token) is number
    assert is_number(token) is number  # now from the cache (or not kept: too long)


@pytest.mark.parametrize(
    ("token", "kind"),
    [("Agumon", "W"), ("Alter-S", "W"), ("(X", "W"), ("x", "W"), ("DCG", "M"), ("(dcg)", "M"),
     ("X4", "C"), ("4", "C"), ("(4)", "C"), ("BT1-010", "N"), ("(BT1-010)", "N"), ("1.", "W")],
)  # fmt: skip
def test_token_kinds_are_the_same_asked_twice(token, kind):
    assert reader.token_kind(token) == kind
    assert reader.token_kind(token) == kind


def test_the_word_and_shape_caches_stay_bounded_whatever_is_asked():
    for n in range(SIZE + 10):
        is_number(f"Zq{n}")
        reader.token_kind(f"Zq{n}")
    assert 0 < len(is_number.kept) <= SIZE
    assert 0 < len(reader.token_kind.kept) <= SIZE
    assert is_number("BT1-010") and reader.token_kind("Agumon") == "W"


def test_a_memo_gives_the_answers_of_its_function_and_works_each_out_once():
    calls: list[tuple] = []

    @memo(size=8)
    def joined(a: str, b: str) -> str:
        calls.append((a, b))
        return f"{a}+{b}"

    assert [joined("x", "y"), joined("x", "y"), joined("y", "x")] == ["x+y", "x+y", "y+x"]
    assert calls == [("x", "y"), ("y", "x")]  # the second x, y came from what was kept
    assert joined.__name__ == "joined" and joined.kept == {("x", "y"): "x+y", ("y", "x"): "y+x"}


def test_a_memo_keeps_at_most_its_size():
    @memo(size=5)
    def double(n: int) -> int:
        return 2 * n

    for n in range(23):
        assert double(n) == 2 * n
        assert len(double.kept) <= 5
    assert double(7) == 14


def test_a_memo_works_out_a_long_key_every_time_and_never_keeps_it():
    calls: list[str] = []

    @memo()
    def size(text: str) -> int:
        calls.append(text)
        return len(text)

    @memo()
    def pair(text: str, n: int) -> int:
        calls.append(text)
        return len(text) + n

    long_text = "a" * (KEY_MAX + 1)
    assert [size(long_text), size(long_text)] == [KEY_MAX + 1] * 2
    assert [pair(long_text, 1), pair(long_text, 1)] == [KEY_MAX + 2] * 2
    assert calls == [long_text] * 4 and not size.kept and not pair.kept
    assert size("a" * KEY_MAX) == KEY_MAX and list(size.kept) == ["a" * KEY_MAX]


def test_a_memo_keeps_a_none_answer():
    calls: list[str] = []

    @memo()
    def nothing(text: str) -> None:
        calls.append(text)

    assert nothing("x") is None and nothing("x") is None
    assert calls == ["x"]


def test_a_readings_line_is_the_same_read_twice_and_a_long_line_is_not_kept():
    from rules.read.lines import _card_entry

    line = "4 Gabumon BT15-020"
    assert parse_line(1, line).readings == parse_line(2, line).readings
    assert line in _card_entry.kept
    long_line = "4 Gabumon " + "x" * 80 + " BT15-020"
    assert parse_line(1, long_line).readings[0].number == "BT15-020"
    assert long_line not in _card_entry.kept


def test_no_object_of_rules_carries_a_cache_and_nothing_is_keyed_by_id():
    import re
    from pathlib import Path

    import rules

    root = Path(rules.__file__).parent
    for path in root.rglob("*.py"):
        text = path.read_text("utf-8")
        if path.name != "cache.py":
            assert "Bounded" not in text, f"{path}: a cache not made by @memo"
        assert not re.search(r"\bid\(", text), f"{path}: keyed by id()"


def test_a_list_history_answers_every_day_as_worked_out_afresh():
    from datetime import date, timedelta

    from rules.lists import load_history

    history = load_history()
    day = date(2020, 12, 1)
    while day < date(2027, 3, 1):
        assert history.state_on(day) == history._state_on(day)
        assert history.keyed_pairs_on(day) == history._keyed_pairs_on(day)
        assert history.upcoming(day) == history._upcoming_on(day)
        assert history.reported_on(day) == history._reported_by(day)
        day += timedelta(days=3)


def test_wrong_section_and_copy_limit_pass_over_cards_as_their_full_rule_does():
    from datetime import date
    from itertools import product

    from rules.builtin import BUILT_IN
    from rules.checks.copy_limit import CopyLimit
    from rules.checks.wrong_section import WrongSection
    from rules.model import Card, Context, Deck, Entry

    sections = ("main", "eggs", "destiny", "side2")
    kinds = ("digimon", "digi-egg", "option", "tamer", "data", "evolution")
    flags = (frozenset(), frozenset({"token"}), frozenset({"ace"}), frozenset({"firewall"}))
    for fmt in BUILT_IN.values():
        checks = [c for c in fmt.checks if isinstance(c, (WrongSection, CopyLimit))]
        for n, (section, kind, level, flag, count, own) in enumerate(
            product(sections, kinds, (None, "M", "6"), flags, (1, 2, 4, 5), (None, 1, 50))
        ):
            card = Card(fmt.game, f"Z{n}-1", "Zed", kind, level, flags=flag, max_copies=own)
            deck = Deck(fmt.game, (Entry(card, count, section),))
            ctx = Context(fmt.game, date(2026, 5, 1))
            for check in checks:
                found = [v.code for v in check.check(deck, ctx)]
                if isinstance(check, WrongSection):
                    assert bool(found) == bool(check._reason(section, card))
                elif section in check.sections and not check.per_deck(card):
                    limit = check.limit_for(card)
                    assert bool(found) == (limit is not None and count > limit)


def test_the_number_first_answer_is_kept_per_pool_not_per_readings_alone():
    from rules.model import Card
    from rules.pool import CardIndex
    from rules.read import parse
    from rules.resolve import resolve
    from rules.resolve.choose import _number_first

    line = "4 Agumon BT1-010"
    agumon = CardIndex("dcg", [Card("dcg", "BT1-010", "Agumon", "digimon")])
    gabumon = CardIndex("dcg", [Card("dcg", "BT1-010", "Gabumon", "digimon")])
    for _ in range(2):  # the second time from what was kept
        assert not resolve(parse(line), agumon).notes
        [note] = resolve(parse(line), gabumon).notes
        assert note.code == "name-mismatch"
    readings = parse(line).lines[0].readings
    assert (agumon, readings) in _number_first.kept and (gabumon, readings) in _number_first.kept
    long_line = "4 Agumon " + "x" * 80 + " BT1-010"
    resolve(parse(long_line), agumon)
    assert (agumon, parse(long_line).lines[0].readings) not in _number_first.kept
