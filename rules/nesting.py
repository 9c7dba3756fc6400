"""How deep a file nests, measured before and after it is parsed (contract, "Limits").

Python's TOML and JSON parsers recurse once per level of `[` / `{`: a file nested
10,000 deep reaches the recursion limit and ends in a RecursionError, not a message.
Organizer format files (rules.custom) and list history files (cardpool.list_store) are
both held to MAX_DEPTH with these helpers: `bracket_depth` on the text before the
parser sees it, `value_depth` on what it gave (TOML nests by dotted keys and table
headers too, without brackets).
"""

from __future__ import annotations

import re

# The deepest a valid file needs: a format file 2 (the top table and a list of numbers),
# a list history 7 (top object > changes > a change > choice_restrictions > a pair >
# a side > a card). 8 leaves room and stays far below the parsers' recursion.
MAX_DEPTH = 8
# What the text scan stops at: brackets, and the starts of comments and strings.
_SPECIAL = re.compile(r"[\[\]{}#\"']")


def bracket_depth(text: str) -> int:
    """The deepest run of open `[` / `{`, not counting those in strings or `#` comments.

    An upper bound of what the TOML or JSON parser nests (a table header `[[a]]` counts
    2; in JSON a `#` or `'` outside a string is an error the parser stops at), so a file
    it passes never recurses deeply; one pass over the text.
    """
    depth = deepest = 0
    found = _SPECIAL.search(text)
    while found:
        char, i = found.group(), found.start()
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth = max(0, depth - 1)
        elif char == "#":
            i = _line_end(text, i)
        else:
            i = _string_end(text, i) - 1
        found = _SPECIAL.search(text, i + 1)
    return deepest


def _line_end(text: str, i: int) -> int:
    found = text.find("\n", i)
    return len(text) if found < 0 else found


def _string_end(text: str, i: int) -> int:
    """Where the string starting at `i` ends (one past its closing quote)."""
    quote = text[i]
    if text.startswith(quote * 3, i):
        found = text.find(quote * 3, i + 3)
        return len(text) if found < 0 else found + 3
    j = i + 1
    while j < len(text) and text[j] not in (quote, "\n"):
        j += 2 if quote == '"' and text[j] == "\\" else 1
    return j + 1


def value_depth(value: object, limit: int = MAX_DEPTH) -> int:
    """How deep lists and dicts nest in a parsed value (the top one is 1); iterative,
    and it stops as soon as it passes `limit`."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: list = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > limit:
            return deepest
        stack.extend((child, level + 1) for child in children)
    return deepest
