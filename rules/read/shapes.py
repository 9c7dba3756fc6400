"""How a card line is read: its tokens, its shape, and every reading of that shape.

The line is cut into tokens with `str.split`, and each token is classified once
(`token_kind`: a count, a card number, a deck-builder marker, or a word). The kinds, with
each run of words taken as one, are the line's *shape*; the shape alone decides which
tokens may be the count and the number, so `shape_readings` gives each shape its readings,
worked out once. `SHAPES` lists the shapes players write, with an
example each: the documentation of what is read, and the table's first rows.

A card line can often be read more than one way (`BT10-009 Shoutmon X4`: 4 copies, or 1
copy of "Shoutmon X4"?), so every reading is listed and the resolver keeps the one the
card pool agrees with. Reading never looks at the pool, and its cost is linear in the line.
"""

from __future__ import annotations

from typing import NamedTuple

from rules.cache import memo
from rules.games import MARKER_TOKENS
from rules.model import MAX_COUNT
from rules.numbers import bare, is_number, number_key
from rules.read.model import Reading

MAX_NUMBERS = 4  # more number-shaped tokens than this on one line is never one card
# More parts (counts, numbers, markers, runs of words) than this is never one card entry:
# the longest real lines have 6 (`1. 4x Agumon (DCG) (BT1-010)`). Each part may be the
# count or the number, so a line of hundreds of counts had hundreds of readings.
MAX_PARTS = 12

BULLETS = frozenset({">", "-", "*", "•", "·", "–", ">>"})
TIMES = frozenset({"x", "X", "×", "*"})
# Words deck builders add beside a name that are not part of it.
MARKERS = frozenset({*MARKER_TOKENS, "()", "[]"})  # and the games' tags (rules.games)

# Token kinds, one letter each in a shape: a count, a card number, a marker, a word (a
# run of words is one W), a list position (`1.`) before a count.
COUNT, NUMBER, MARKER, WORD, POSITION = "C", "N", "M", "W", "P"

# The line shapes players write (the contract's list and the deck builders' exports):
# shape -> (an example, a note for readers, or ""). docs/decklists.md's table of line
# shapes is generated from it (tools/docs_shapes.py; tests/test_docs.py holds the two
# equal); tests/rules/test_readings.py holds each example to its shape.
SHAPES: dict[str, tuple[str, str]] = {
    "C W N": ("4 Agumon BT1-010", "the number decides which card; the name is a hint"),
    "C N": ("4 BT1-010", "a count is written `4`, `4x`, `x4`, `×4`, `*4` or `(4)`"),
    "W N C": ("Agumon (BT1-010) x4", "brackets around a number or a count are dropped"),
    "N W C": (
        "BT1-010 Agumon 4",
        "`BT10-009 Shoutmon X4` is 1 copy: “Shoutmon X4” is that card's own name",
    ),
    "C W": ("4 Agumon", "a name alone must name exactly one card (else `ambiguous-card`)"),
    "W N": ("Agumon BT1-010", "no count: one copy"),
    "N C": ("BT1-010 x2", "also `BT1-010 (2)`, `BT1-010 *2`, `BT1-010 ×2`"),
    "W C N": ("Agumon 4 BT1-010", "a count between name and number"),
    "C W M N": (
        "1 MetalTyrannomon (DCG) (BT11-055)",
        "`(DCG)`, `[DCG]`, `DCG` are deck-builder marks, never part of the name",
    ),
    "P C N": ("1. 4 BT1-010", "a list number (`1.`, `1)`) before the entry"),
    "C N W": (
        "4 BT1-010 Agumon",
        "`46 ADR-02 Searcher`: ADR-02 is no card's number, so 46 of “ADR-02 Searcher”",
    ),
    "N": ("BT1-010", "no count: one copy"),
    "W": ("Agumon", "one copy of the one card with that name"),
}


def strip_lead(tokens: list[str]) -> list[str]:
    """Drop quote marks and bullets (`>`, `-`, `*`, `•`) before an entry."""
    start = 0
    while start < len(tokens) - 1 and tokens[start] in BULLETS:
        start += 1
    if start:
        tokens = tokens[start:]
    if tokens and tokens[0][0] in ">•·" and len(tokens[0]) > 1:
        tokens = [tokens[0].lstrip(">•·"), *tokens[1:]]
    return _join_times(tokens)


def _join_times(tokens: list[str]) -> list[str]:
    """`x 4` is one count token, and so is `4 x` before a card number (`4 x BT1-010`).

    `4 X Antibody` stays as it is: there the X starts the name.
    """
    if TIMES.isdisjoint(tokens):
        return tokens
    joined: list[str] = []
    for index, token in enumerate(tokens):
        after = tokens[index + 1] if index + 1 < len(tokens) else ""
        if joined and joined[-1] in TIMES and token.isdigit():
            joined[-1] = "x" + token
        elif token in TIMES and joined and joined[-1].isdigit() and is_number(bare(after)):
            joined[-1] += "x"
        else:
            joined.append(token)
    return joined


def count_of(token: str) -> int | None:
    """The count a token writes (`4`, `4x`, `x4`, `×4`, `*4`, `(4)`), else None."""
    if token[:1] in "([" and token[-1:] in ")]":
        token = token[1:-1]
    elif token[:1] in "xX×*":
        token = token[1:]
    elif token[-1:] in "xX×":
        token = token[:-1]
    if not token.isascii() or not token.isdigit():
        return None
    # Cap before int(): a 10,000-digit "count" must not cost a big-int conversion.
    return int(token) if len(token) <= 7 else MAX_COUNT + 1


def _list_number(token: str) -> int | None:
    """`1.` or `1)` before an entry: a list position (or, maybe, a count)."""
    if len(token) > 1 and token[-1] in ".)" and token[:-1].isascii() and token[:-1].isdigit():
        return count_of(token[:-1])
    return None


@memo()
def token_kind(token: str) -> str:
    """COUNT, NUMBER, MARKER or WORD: what one token of a card line can be (kept)."""
    if not any(ch.isdigit() for ch in token):
        # A token without a digit is neither a count nor a card number.
        return MARKER if token.lower() in MARKERS else WORD
    if count_of(token) is not None:
        return COUNT
    if is_number(bare(token)):
        return NUMBER
    return MARKER if token.lower() in MARKERS else WORD


class Template(NamedTuple):
    """A reading of a shape: which part is the count and which the number (None: none;
    -1: the list position is the count), which parts make the name, and which of those
    are count- or number-shaped all the same (`spare`)."""

    count_at: int | None
    number_at: int | None
    name: tuple[int, ...]
    spare: tuple[int, ...]
    spare_numbers: int


def card_readings(tokens: list[str], counts: bool = True) -> tuple[Reading, ...]:
    """Every reading of a card entry's tokens, most natural first (see the module); none
    for a line of more than MAX_PARTS parts (`too_many_parts`)."""
    position, parts, kinds = _split(tokens, counts)
    if len(parts) > MAX_PARTS:
        return ()
    shape = " ".join(kinds)
    if position is not None:
        shape = f"{POSITION} {shape}"
    elif not counts:
        shape = f"- {shape}"  # no count is read (a structured entry, a partner)
    found = []
    for template in shape_readings(shape):
        reading = _reading(parts, template, position)
        if reading is not None:
            found.append(reading)
    return tuple(dict.fromkeys(found)) if len(found) > 1 else tuple(found)


def too_many_parts(tokens: list[str]) -> bool:
    """Has a card line more parts than one entry holds (its list number aside)?"""
    return len(tokens) > MAX_PARTS and len(_split(tokens, True)[1]) > MAX_PARTS


def _split(tokens: list[str], counts: bool) -> tuple[str | None, list[str], list[str]]:
    """(the list number, if the line starts with one, the other parts, their kinds)."""
    position = None
    if counts and len(tokens) > 1 and _list_number(tokens[0]) is not None:
        position = tokens[0]
        tokens = tokens[1:]
    return (position, *_parts(tokens))


def _parts(tokens: list[str]) -> tuple[list[str], list[str]]:
    """A line's parts and their kinds: each token, a run of words taken as one part."""
    parts: list[str] = []
    kinds: list[str] = []
    for token in tokens:
        kind = token_kind(token)
        if kind == WORD and kinds and kinds[-1] == WORD:
            parts[-1] = f"{parts[-1]} {token}"  # a run of words is one part of the name
        else:
            parts.append(token)
            kinds.append(kind)
    return parts, kinds


# Shapes, not lines: real lists use a few dozen. A long shape's readings are large (a
# 12-part shape's about 17 KB), so fewer are kept than in the other caches.
@memo(512)
def shape_readings(shape: str) -> tuple[Template, ...]:
    """The readings of a shape, most natural first.

    A count is a count-shaped part first, last, or next to a card number (or none: 1
    copy; or a list position, `1. 4 BT1-010`); a number is one of the number-shaped
    parts (or none: the card is named). The parts a reading does not use are the name
    (markers never are).
    """
    kinds = shape.split()
    counts = kinds[:1] != ["-"]
    position = kinds[:1] == [POSITION]
    if position or not counts:
        kinds = kinds[1:]
    number_at = [i for i, kind in enumerate(kinds) if kind == NUMBER]
    if len(number_at) > MAX_NUMBERS:
        return ()
    count_at = _count_places(kinds, number_at) if counts else [None]
    found: list[tuple[tuple[int, bool, bool], Template]] = []
    for c in count_at:
        for n in [*number_at, None]:
            found += _templates(kinds, c, n, position)
    found.sort(key=lambda pair: pair[0])  # stable: equal keys keep the order above
    return tuple(template for _, template in found)


def _count_places(kinds: list[str], number_at: list[int]) -> list[int | None]:
    """Where a shape's count may be: nowhere (1 copy), or a count-shaped part first,
    last, or next to a card number."""
    last = len(kinds) - 1
    near = {i + step for i in number_at for step in (-1, 1)}
    return [
        None,
        *(i for i, kind in enumerate(kinds) if kind == COUNT and (i in (0, last) or i in near)),
    ]


def _templates(
    kinds: list[str], c: int | None, n: int | None, position: bool
) -> list[tuple[tuple[int, bool, bool], Template]]:
    """The reading with the count at `c` and the number at `n` (None: none), with its
    sort key (least strain, a number, a count first); with a list position and no
    count, also the reading of the position as the count."""
    name = tuple(i for i, k in enumerate(kinds) if i not in (c, n) and k != MARKER)
    spare = tuple(i for i in name if kinds[i] in (COUNT, NUMBER))
    template = Template(c, n, name, spare, sum(kinds[i] == NUMBER for i in spare))
    found = [((len(spare), n is None, c is None), template)]
    if position and c is None:
        # The list position read as the count: a reading of its own.
        found.append(((len(spare), n is None, False), template._replace(count_at=-1)))
    return found


def _reading(parts: list[str], template: Template, position: str | None) -> Reading | None:
    c, n, at = template.count_at, template.number_at, template.name
    joined = parts[at[0]] if len(at) == 1 else " ".join([parts[i] for i in at])
    if joined and (joined[0] in _UNCLEAN or joined[-1] in _UNCLEAN):
        joined = _clean_name(joined)
    name = joined or None
    if n is None and name is None:
        return None
    if c is None:
        count_token, count = None, 1
    elif c == -1:
        count_token = position
        count = _list_number(position or "") or 0
    else:
        count_token = parts[c]
        count = count_of(count_token) or 0
    number = bare(parts[n]) if n is not None else None
    key = number_key(number) if number is not None else None
    spare = tuple([parts[i] for i in template.spare]) if template.spare else ()
    return Reading(count, number, name, count_token, len(spare), spare, template.spare_numbers, key)


_EDGE = " |:,;=<>-–"
# The first or last characters of a name that `_clean_name` may take off.
_UNCLEAN = frozenset(_EDGE) | {"(", "[", ")", "]"}


def _clean_name(text: str) -> str:
    text = text.strip(_EDGE)
    if (
        text.startswith(("(", "["))
        and text.endswith((")", "]"))
        and text.count("(") + text.count("[") == 1
    ):
        text = text[1:-1].strip(_EDGE)
    return text


# The documented shapes' readings worked out at import (any other shape when met).
for _shape in SHAPES:
    shape_readings(_shape)
