"""The name and number key caches: the same keys as worked out afresh, and bounded."""

from __future__ import annotations

import pytest

from rules import numbers, pool
from rules.numbers import CACHE_SIZE, number_key, remember
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
