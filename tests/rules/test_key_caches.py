"""The name and number key caches: the same keys as worked out afresh, and bounded."""

from __future__ import annotations

import pytest

import rules.parse as reader
from rules import numbers, pool
from rules.numbers import CACHE_KEY_MAX, CACHE_SIZE, is_number, number_key, remember
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
    cache = {str(n): n for n in range(CACHE_SIZE - 1)}
    assert remember(cache, "last", -1) == -1
    assert len(cache) == CACHE_SIZE  # at its size, nothing lost yet
    assert remember(cache, "next", -2) == -2
    assert cache == {"next": -2}


def test_the_key_caches_stay_bounded_whatever_is_asked():
    for n in range(CACHE_SIZE + 10):
        name_key(f"Zqx {n}")
        number_key(f"ZQ{n}-1")
    assert 0 < len(pool._NAME_KEYS) <= CACHE_SIZE
    assert 0 < len(numbers._NUMBER_KEYS) <= CACHE_SIZE
    assert name_key("Agumon") == "agumon"  # still right after starting again


def test_a_long_key_is_worked_out_but_not_kept():
    cache: dict[str, int] = {}
    long_key = "a" * (CACHE_KEY_MAX + 1)
    assert remember(cache, long_key, 1) == 1
    assert remember(cache, "a" * CACHE_KEY_MAX, 2) == 2
    assert cache == {"a" * CACHE_KEY_MAX: 2}


@pytest.mark.parametrize(
    ("token", "number"),
    [("BT1-010", True), ("bt1-10", True), ("Agumon", False), ("BT1-", False), ("X" * 80, False)],
)
def test_number_shapes_are_the_same_asked_twice(token, number):
    assert is_number(token) is number
    assert is_number(token) is number  # now from the cache (or not kept: too long)


@pytest.mark.parametrize(
    ("token", "plain"),
    [("Agumon", True), ("Alter-S", True), ("(X", True), ("x", False), ("*", False),
     ("DCG", False), ("(dcg)", False), ("X4", False), ("BT1-010", False)],
)  # fmt: skip
def test_name_words_are_the_same_asked_twice(token, plain):
    assert reader._plain_token(token) is plain
    assert reader._plain_token(token) is plain


def test_the_word_caches_stay_bounded_whatever_is_asked():
    for n in range(CACHE_SIZE + 10):
        is_number(f"Zq{n}")
        reader._plain_token(f"Zq{n}")
    assert 0 < len(numbers._IS_NUMBER) <= CACHE_SIZE
    assert 0 < len(reader._PLAIN_TOKENS) <= CACHE_SIZE
    assert is_number("BT1-010") and reader._plain_token("Agumon")
