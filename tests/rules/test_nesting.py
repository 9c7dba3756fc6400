"""rules.nesting: the one depth measure for organizer TOML files and list history JSON."""

import json

import pytest

from rules.nesting import MAX_DEPTH, bracket_depth, value_depth


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ('{"a": [[1]]}', 3),
        ('{"a": "[[[[[[[[[[["}', 1),  # brackets in a string are text
        ('{"a": "\\"[[[["}', 1),  # an escaped quote does not end the string
        ("a = 1 # [[[[[[[[[[\nb = [1]", 1),  # nor in a TOML comment
        ('x = """[[[\n[[[""" \ny = [[1]]', 2),
        ("[" * 10_000, 10_000),
    ],
)
def test_bracket_depth(text, depth):
    assert bracket_depth(text) == depth


def test_bracket_depth_bounds_what_json_nests():
    value = {"changes": [{"limits": [{"card": "[[[", "x": [[{"y": [1]}]]}]}]}
    assert value_depth(value) <= bracket_depth(json.dumps(value))


def test_value_depth_stops_past_the_limit():
    value: object = 1
    for _ in range(10_000):
        value = [value]
    assert value_depth(value) == MAX_DEPTH + 1
    assert value_depth({"a": {"b": [1, {"c": 2}]}}) == 4
