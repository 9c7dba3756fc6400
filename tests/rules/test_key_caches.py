"""The caches of `rules`: one helper (`rules.cache.Bounded`), the same answers as worked
out afresh, and bounded whatever is asked."""

from __future__ import annotations

import pytest

import rules.read.shapes as reader
from rules import numbers, pool
from rules.cache import KEY_MAX, SIZE, Bounded
from rules.numbers import is_number, number_key
from rules.pool import name_key


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
    assert 0 < len(pool._NAME_KEYS) <= SIZE
    assert 0 < len(numbers._NUMBER_KEYS) <= SIZE
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
    assert 0 < len(numbers._IS_NUMBER) <= SIZE
    assert 0 < len(reader._KINDS) <= SIZE
    assert is_number("BT1-010") and reader.token_kind("Agumon") == "W"
