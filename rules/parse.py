"""Turn whatever a player pasted into lines: card entries, headers, comments.

Accepted: the text styles of the contract and of the deck builders players use
(digimoncard.io / .dev / .app, DigimonMeta, Untap, forum text), Egman and DigimonMeta
deck links, Tabletop Simulator JSON arrays, Limitless objects and `DCG...` deck codes.
Every one of them, and a structured deck's entries, becomes the same `Line`s for the
one resolver (`rules.resolve`).

Parsing never looks at the card pool. A card line can often be read more than one
way (`BT10-009 Shoutmon X4`: 4 copies, or 1 copy of "Shoutmon X4"?), so the parser
lists every *reading* and the resolver keeps the one the pool agrees with.

How a card line is read: the line is cut into tokens with `str.split`, and each token
is classified once (`token_kind`: a count, a card number, a deck-builder marker, or a
word). The kinds, with each run of words taken as one, are the line's *shape*; the
shape alone decides which tokens may be the count and the number, so `READINGS` maps
each shape to its readings, worked out once (`_shape_readings`). `SHAPES` lists the
shapes players write, with an example each: the documentation of what is read, and
the table's first rows. The parser never raises, and its cost is linear in the text.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypedDict

from rules import deckcode
from rules.budget import OVER_ENTRIES, Budget
from rules.cache import Bounded
from rules.games import HEADERS
from rules.links import deck_link
from rules.model import MAX_COUNT
from rules.numbers import bare, is_number

MAX_LINE = 1000
MAX_NUMBERS = 4  # more number-shaped tokens than this on one line is never one card
# More parts (counts, numbers, markers, runs of words) than this is never one card entry:
# the longest real lines have 6 (`1. 4x Agumon (DCG) (BT1-010)`). Each part may be the
# count or the number, so a line of hundreds of counts had hundreds of readings.
MAX_PARTS = 12

BULLETS = frozenset({">", "-", "*", "•", "·", "–", ">>"})
TIMES = frozenset({"x", "X", "×", "*"})
# Words deck builders add beside a name that are not part of it.
MARKERS = frozenset({"(dcg)", "[dcg]", "dcg", "()", "[]"})

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


class Reading(NamedTuple):
    """One way to read a card line: `count` copies of `number` (or of `name`).

    `strain` counts the count- or number-shaped tokens this reading leaves inside
    the name: the fewer, the more natural the reading. `spare` names them.
    """

    count: int  # type: ignore[assignment]  # a field named count shadows tuple.count
    number: str | None
    name: str | None
    count_token: str | None = None
    strain: int = 0
    spare: tuple[str, ...] = ()
    spare_numbers: int = 0


class Line(NamedTuple):
    """What one input line (or structured entry) says.

    `kind`: "card", "header", "comment", "partner" or "unparsed". `section` is the header
    in force above it (a hint), or a structured entry's section. `count`, `numbers` and
    `name` are the most natural reading; `readings` holds every reading, most natural
    first. A structured entry's `number` is its place in its section. A named tuple,
    as `Reading`: a request builds one per line.
    """

    number: int
    text: str
    kind: str
    count: int = 1  # type: ignore[assignment]  # a field named count shadows tuple.count
    numbers: tuple[str, ...] = ()
    name: str | None = None
    section: str | None = None
    problem: str | None = None
    readings: tuple[Reading, ...] = ()
    unread_count: int | None = None


@dataclass(frozen=True, slots=True)
class Parsed:
    """A whole decklist as lines; `style` says which input style was recognised
    ("structured": a structured deck, whose sections are taken as given)."""

    lines: tuple[Line, ...]
    style: str = "text"
    name: str | None = None
    partners: tuple[Line, ...] = ()
    has_headers: bool = False

    @property
    def partner(self) -> Line | None:
        return self.partners[0] if self.partners else None

    def cards(self) -> list[Line]:
        return [line for line in self.lines if line.kind == "card"]


def count_lines(text: str) -> int:
    """Non-empty lines, the unit of the contract's decklist length limit."""
    return sum(1 for line in text.splitlines() if line.strip())


def parse(text: str, budget: Budget | None = None) -> Parsed:
    """`budget`: what the request may still spend (`rules.budget`); a fresh one if None."""
    budget = budget or Budget()
    stripped = text.strip()
    if deckcode.looks_like_deck_code(stripped):
        return _parse_deck_code(stripped, _first_line(text), budget)
    if stripped.startswith("["):
        tts = _parse_tts(stripped, _first_line(text), budget)
        if tts is not None:
            return tts
    if stripped.startswith("{"):
        limitless = _parse_limitless(stripped, budget)
        if limitless is not None:
            return limitless
    return _parse_lines(text, budget)


class Entry(TypedDict):
    """A structured deck's entry, as the contract writes it (and a request holds it)."""

    card: str
    count: int


def parse_structured(sections: Mapping[str, Iterable[Entry]], partner: str | None = None) -> Parsed:
    """A structured deck's entries as lines: each `card` value read like a line without a
    count (its count is the entry's), in the section it is given in. The entries are read
    as the request holds them: no copy of them is made first."""
    lines = []
    for section, items in sections.items():
        for position, item in enumerate(items, start=1):
            lines.append(_entry_line(position, item["card"], item["count"], section))
    partners = (_entry_line(1, partner, 1, None, "partner"),) if partner else ()
    return Parsed(tuple(lines), "structured", partners=partners, has_headers=True)


def _entry_line(
    position: int, text: str, count: int, section: str | None, kind: str = "card"
) -> Line:
    key = f"{count}={text}"  # cached like a card line's reading, with the entry's count
    read = _ENTRY_READINGS.get(key)
    if read is None:
        read = _ENTRY_READINGS.keep(key, _read_entry(text, count))
    numbers, name, readings = read
    return Line(position, text, kind, count, numbers, name, section, None, readings)


def _read_entry(text: str, count: int) -> tuple[tuple[str, ...], str | None, tuple[Reading, ...]]:
    """A structured entry's (numbers, name, readings): its `card` read like a line
    without a count, every reading given the entry's count."""
    readings = tuple(r._replace(count=count) for r in card_readings(text.split(), counts=False))
    best = readings[0] if readings else Reading(count, None, None)
    return ((best.number,) if best.number else ()), best.name, readings


def _first_line(text: str) -> int:
    """The line a whole-text input (a deck code, a TTS array) starts on: blank lines and
    a lone carriage return before it are lines too, so a problem names the right one."""
    leading = text[: len(text) - len(text.lstrip())]
    return len((leading + "x").splitlines())


def _parse_lines(text: str, budget: Budget) -> Parsed:
    lines: list[Line] = []
    section: str | None = None
    partners: list[Line] = []
    has_headers = False
    style = "text"
    for number, raw in enumerate(text.splitlines(), start=1):
        found = parse_lines_of(number, raw, section, budget)
        for line in found:
            if line.kind == "header":
                section = line.section
                has_headers = has_headers or section in ("main", "eggs", "destiny")
            elif line.kind == "partner":
                partners.append(line)
            lines.append(line)
        if len(found) > 1 or (found and found[0].text.startswith(("http", "dg="))):
            style = "link"
    return Parsed(tuple(lines), style, None, tuple(partners), has_headers)


def parse_lines_of(
    number: int, raw: str, section: str | None = None, budget: Budget | None = None
) -> list[Line]:
    """One input line as parsed lines: none (blank), one, or one per card of a deck link
    (read while the request's `budget` of entries lasts; a link beyond it is reported)."""
    if len(raw) > MAX_LINE:
        # Checked before any other work: a long line costs one length check.
        return [Line(number, raw[:80], "unparsed", section=section, problem="too long")]
    # NFKC leaves ASCII as it is; most lines are ASCII, so skip the call for them.
    text = raw if raw.isascii() else unicodedata.normalize("NFKC", raw)
    text = text.replace("\x00", "").strip()
    if not text:
        return []
    if len(text) > MAX_LINE:
        return [Line(number, text[:80], "unparsed", section=section, problem="too long")]
    if " " not in text and ("n" in text or "=" in text):
        link = deck_link(text, budget)
        if link is not None:
            return _link_lines(number, text, section, link)
    return [_line(number, text, section)]


def _link_lines(number: int, text: str, section: str | None, link: list) -> list[Line]:
    return [
        _card(number, text, count, card, section)
        if card and count
        else Line(number, text, "unparsed", section=section, problem=problem)
        for card, count, problem in link
    ]


def parse_line(number: int, raw: str, section: str | None = None) -> Line | None:
    """One line of text; None for a blank line (a deck link gives its first card)."""
    found = parse_lines_of(number, raw, section)
    return found[0] if found else None


def _line(number: int, text: str, section: str | None) -> Line:
    # Most lines start with a count: skip the header / partner / comment tests then.
    if not text[0].isdigit():
        header = header_of(text)
        if header:
            return Line(number, text, "header", section=header)
        partner = _partner_rest(text)
        if partner is not None:
            return _partner_line(number, text, partner)
        if text.startswith(("//", "#")):
            return Line(number, text, "comment", section=section)
    return _card_line(number, text, section)


def header_of(text: str) -> str | None:
    """The section a header line names (`// Digi-Egg Deck (5):` -> eggs), else None."""
    body = text.lstrip("/#").strip().rstrip(":").strip()
    if body.endswith(")"):
        inner_start = body.rfind("(")
        if inner_start > 0 and body[inner_start + 1 : -1].strip().isdigit():
            body = body[:inner_start]
    words = body.replace(":", " ").split()
    if words and words[-1].isdigit():
        words.pop()
    if not words or len(words) > 3:
        return None
    return HEADERS.get(" ".join(words).lower())


def _partner_rest(text: str) -> str | None:
    body = text.lstrip("/").strip() if text.startswith("//") else text
    if body[:7].lower() != "partner":
        return None
    rest = body[7:].lstrip()
    if not rest or rest[0] not in ":=-":
        return None
    return rest[1:].strip()


def _partner_line(number: int, text: str, rest: str) -> Line:
    tokens = rest.split()
    numbers = [bare(t) for t in tokens if is_number(bare(t))]
    if len(numbers) > 1:
        # Several numbers: several partners, each its own reading (a `partner` violation).
        readings = tuple(Reading(1, n, None) for n in numbers)
    else:
        readings = tuple(r for r in card_readings(tokens, counts=False) if r.strain == 0)
    if not readings:
        return Line(number, text, "unparsed", problem="the Partner line names no card")
    return Line(number, text, "partner", 1, tuple(numbers), readings[0].name, readings=readings)


def _card_line(number: int, text: str, section: str | None) -> Line:
    """A line that is no header, partner line or comment: a card entry or a problem.
    What it says depends on its text alone, so that is worked out once per text
    (`_CARD_LINES`: lists are made of the same lines, `4 Gabumon BT15-020`)."""
    said = _CARD_LINES.get(text)
    if said is None:
        said = _CARD_LINES.keep(text, _card_entry(text))
    kind, count, numbers, name, problem, readings, unread = said
    return Line(number, text, kind, count, numbers, name, section, problem, readings, unread)


def _card_entry(text: str) -> _Said:
    """What a card line says: ("card", count, numbers, name, None, readings, None), or
    ("unparsed", 1, (), None, the problem, (), None)."""
    tokens = _strip_lead(text.split())
    if not tokens:
        return _problem("no card number or name here")
    if len(tokens) == 1 and _count_of(tokens[0]) is not None:
        return _problem("a count with no card after it")
    first = tokens[0]
    if first.startswith("-") and first[1:].isdigit():
        return _problem(f"the count {first} is below 1")
    readings = card_readings(tokens)
    if not readings and too_many_parts(tokens):
        return _problem("more counts and card numbers than one card entry holds")
    if not readings or not _names_a_card(readings):
        return _problem("no card number or name here")
    best = readings[0]
    if not 1 <= best.count <= MAX_COUNT:
        return _problem(f"the count {best.count_token} is not a whole number from 1 to {MAX_COUNT}")
    numbers = (best.number,) if best.number else ()
    return ("card", best.count, numbers, best.name, None, readings, None)


# kind, count, numbers, name, problem, readings, unread count: a Line without its place.
_Said = tuple[str, int, tuple[str, ...], str | None, str | None, tuple[Reading, ...], None]
# A few thousand lines: the lines of the lists in play, each a few hundred bytes.
_CARD_LINES: Bounded[str, _Said] = Bounded(4096)


def _problem(problem: str) -> _Said:
    return ("unparsed", 1, (), None, problem, (), None)


def _names_a_card(readings: tuple[Reading, ...]) -> bool:
    """Does a reading give a card number or a name with a letter (most: the first)?"""
    first = readings[0]
    if first.number or _has_letter(first.name):
        return True
    return any(r.number or _has_letter(r.name) for r in readings)


def _has_letter(text: str | None) -> bool:
    return text is not None and any(ch.isalpha() for ch in text)


def _strip_lead(tokens: list[str]) -> list[str]:
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


def _count_of(token: str) -> int | None:
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
        return _count_of(token[:-1])
    return None


def token_kind(token: str) -> str:
    """COUNT, NUMBER, MARKER or WORD: what one token of a card line can be (cached)."""
    kind = _KINDS.get(token)
    if kind is None:
        if not any(ch.isdigit() for ch in token):
            # A token without a digit is neither a count nor a card number.
            kind = MARKER if token.lower() in MARKERS else WORD
        elif _count_of(token) is not None:
            kind = COUNT
        elif is_number(bare(token)):
            kind = NUMBER
        else:
            kind = MARKER if token.lower() in MARKERS else WORD
        _KINDS.keep(token, kind)
    return kind


_KINDS: Bounded[str, str] = Bounded()


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
    templates = READINGS.get(shape)
    if templates is None:
        templates = READINGS.keep(shape, _shape_readings(shape))
    found = []
    for template in templates:
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


_ENTRY_READINGS: Bounded[str, tuple[tuple[str, ...], str | None, tuple[Reading, ...]]] = Bounded(
    4096
)


def _shape_readings(shape: str) -> tuple[Template, ...]:
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
    count_at: list[int | None] = [None]
    if counts:
        last = len(kinds) - 1
        near = {i + step for i in number_at for step in (-1, 1)}
        count_at += [
            i for i, kind in enumerate(kinds) if kind == COUNT and (i in (0, last) or i in near)
        ]
    found: list[tuple[tuple[int, bool, bool], Template]] = []
    for c in count_at:
        for n in [*number_at, None]:
            name = tuple(i for i, k in enumerate(kinds) if i not in (c, n) and k != MARKER)
            spare = tuple(i for i in name if kinds[i] in (COUNT, NUMBER))
            template = Template(c, n, name, spare, sum(kinds[i] == NUMBER for i in spare))
            found.append(((len(spare), n is None, c is None), template))
            if position and c is None:
                # The list position read as the count: a reading of its own.
                found.append(((len(spare), n is None, False), template._replace(count_at=-1)))
    found.sort(key=lambda pair: pair[0])  # stable: equal keys keep the order above
    return tuple(template for _, template in found)


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
        count = _count_of(count_token) or 0
    number = bare(parts[n]) if n is not None else None
    spare = tuple([parts[i] for i in template.spare]) if template.spare else ()
    return Reading(count, number, name, count_token, len(spare), spare, template.spare_numbers)


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


# Shape -> its readings: the documented shapes first, any other shape added when met.
# Shapes, not lines: real lists use a few dozen. A long shape's readings are large (a
# 12-part shape's about 17 KB), so fewer are kept than in the other caches.
READINGS: Bounded[str, tuple[Template, ...]] = Bounded(512)
for _shape in SHAPES:
    READINGS.keep(_shape, _shape_readings(_shape))


def _parse_tts(text: str, position: int = 1, budget: Budget | None = None) -> Parsed | None:
    """A Tabletop Simulator array: an `Exported from ...` header, then one id per copy.

    Non-id strings are read like text lines, so headers and a `Partner:` entry
    (which deckcheck's own export writes for DBE) keep their meaning. The first item, or
    an `Exported from ...` item, names the deck; any other string is kept as a line (a
    card named in words, or a problem reported), never dropped.
    """
    budget = budget or Budget()
    if text.endswith("]") and not budget.affords(_items_at_most(text)):
        return _over_budget(text, position, "tts")  # not even parsed: 15 MB of `[]` cost 2 s
    data = _json(text)
    if not isinstance(data, list) or not all(isinstance(item, str) for item in data):
        return None
    if not budget.take_entries(len(data)):
        return _over_budget(text, position, "tts")
    # A pretty-printed array spans lines: each card is placed on the line it first
    # stands on, so its problems name that line.
    where = _item_lines(text, position) if "\n" in text or "\r" in text else {}
    read = _TtsRead()
    # An id comes once per copy: each distinct item is read once (within this array).
    numbers: dict[str, str | None] = {}
    for index, item in enumerate(data):
        at = where.get(item, position)
        if item not in numbers:
            token = item[: MAX_LINE + 1]
            token = (token if token.isascii() else unicodedata.normalize("NFKC", token)).strip()
            numbers[item] = token if is_number(token) else None
            if numbers[item] is None:
                read.line(parse_line(at, token, read.section), index, token)
        number = numbers[item]
        if number is not None:
            read.card(number, at)
    if not read.counts and not read.partners:
        return None  # no card in it (`[]`): read as text, where the line is reported
    return read.parsed()


@dataclass
class _TtsRead:
    """What a TTS array has said so far: cards counted per (id, section), and lines."""

    name: str | None = None
    section: str | None = None
    partners: list[Line] = field(default_factory=list)
    others: list[Line] = field(default_factory=list)
    counts: dict[tuple[str, str | None], int] = field(default_factory=dict)
    first_at: dict[tuple[str, str | None], int] = field(default_factory=dict)

    def card(self, number: str, at: int) -> None:
        key = (number, self.section)
        self.counts[key] = self.counts.get(key, 0) + 1
        self.first_at.setdefault(key, at)

    def line(self, line: Line | None, index: int, token: str) -> None:
        if line is None:
            return
        if line.kind == "header":
            self.section = line.section
        elif line.kind == "partner":
            self.partners.append(line)
        elif self.name is None and (index == 0 or token.startswith("Exported from")):
            self.name = token
        else:
            self.others.append(line)

    def parsed(self) -> Parsed:
        cards = [
            _card(self.first_at[key], key[0], min(count, MAX_COUNT), key[0], key[1])
            for key, count in self.counts.items()
        ]
        lines = tuple(sorted([*cards, *self.others], key=lambda line: line.number))
        headers = self.section is not None
        return Parsed(lines, "tts", self.name, tuple(self.partners), headers)


def _json(text: str) -> Any:
    """The JSON value `text` holds; None when it is not JSON (or nests past the recursion
    limit)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _items_at_most(text: str) -> int:
    """The most items a JSON text can hold: one more than its commas (a count of the
    text, far cheaper than parsing what may be megabytes of it)."""
    return text.count(",") + 1


def _over_budget(text: str, position: int, style: str) -> Parsed:
    """A deck code, TTS array or Limitless object holding more entries than the request
    has left to read (`rules.budget`): one problem, not one per entry, nothing read."""
    return Parsed((Line(position, text[:80], "unparsed", problem=OVER_ENTRIES),), style)


def _item_lines(text: str, first: int) -> dict[str, int]:
    """The line each string of a pretty-printed array first stands on (one or more
    strings a line, the array's brackets on their own lines or beside them); a string
    not found here keeps the array's first line."""
    found: dict[str, int] = {}
    for offset, raw in enumerate(text.splitlines()):
        piece = raw.strip().rstrip(",").rstrip()
        if piece.startswith("["):
            piece = piece[1:].lstrip()
        # A closing bracket after the last string (not one inside it: `"Antiramon [Moon]"`).
        if piece.endswith("]") and (piece == "]" or piece[:-1].rstrip().endswith(('"', ","))):
            piece = piece[:-1].rstrip().rstrip(",")
        for value in _json(f"[{piece}]") or ():
            if isinstance(value, str):
                found.setdefault(value, first + offset)
    return found


def _card(position: int, text: str, count: int, number: str, section: str | None) -> Line:
    """A line that names exactly one card by number: one reading."""
    readings = _one_reading(count, number, None)
    return Line(position, text, "card", count, (number,), None, section, None, readings)


def _one_reading(count: int, number: str | None, name: str | None) -> tuple[Reading, ...]:
    """The readings of an entry that says its count, number and name outright (TTS ids,
    deck codes, Limitless entries). Kept, as a text line's are: the resolver keeps its
    decision per readings object, so the same entry must give the same object."""
    key = (count, number, name)
    found = _ONE_READINGS.get(key)
    if found is None:
        found = _ONE_READINGS.keep(key, (Reading(count, number, name),))
    return found


_ONE_READINGS: Bounded[tuple[int, str | None, str | None], tuple[Reading, ...]] = Bounded()


LIMITLESS_SECTIONS = {"digimon": "main", "tamer": "main", "option": "main", "egg": "eggs"}


def _parse_limitless(text: str, budget: Budget | None = None) -> Parsed | None:
    """A Limitless TCG decklist object: {"digimon": [{"count", "name", ...}], "egg": [...]}.

    An entry names its card by a full number (`id`, `number`, `cardNumber`, `code`), by
    `set` + `number`, or by `name`; entries are numbered like lines, in order.
    """
    budget = budget or Budget()
    if text.endswith("}") and not budget.affords(_items_at_most(text)):
        return _over_budget(text, 1, "limitless")  # not parsed: the objects would cost more
    data = _json(text)
    if not isinstance(data, dict) or not set(data) & set(LIMITLESS_SECTIONS):
        return None
    held = sum(len(v) for v in data.values() if isinstance(v, list))
    if not budget.take_entries(held):
        return _over_budget(text, 1, "limitless")
    lines: list[Line] = []
    for key, section in LIMITLESS_SECTIONS.items():
        items = data.get(key) or []
        if not isinstance(items, list):
            problem = f"the {key} section is not a list of card entries"
            lines.append(Line(len(lines) + 1, str(items)[:80], "unparsed", problem=problem))
            continue
        for item in items:
            position = len(lines) + 1
            lines.append(_limitless_entry(position, item, section))
    for key, items in data.items():
        # Metadata (a name, an id) is not a card; a list under a key deckcheck does not
        # read would be cards left out without a word.
        if key not in LIMITLESS_SECTIONS and isinstance(items, list) and items:
            known = ", ".join(LIMITLESS_SECTIONS)
            problem = f"deckcheck does not read a {key[:40]!r} section (only {known})"
            lines.append(Line(len(lines) + 1, str(items)[:80], "unparsed", problem=problem))
    return Parsed(tuple(lines), "limitless", has_headers=True)


def _limitless_entry(position: int, item: object, section: str) -> Line:
    if not isinstance(item, dict):
        return Line(position, str(item)[:80], "unparsed", problem="not a card entry")
    raw = " ".join(str(item.get(k, "")) for k in ("count", "name", "set", "number", "id"))[
        :MAX_LINE
    ]
    number = next(
        (
            str(item[k]).strip()
            for k in ("id", "cardNumber", "code", "number")
            if is_number(str(item.get(k, "")).strip())
        ),
        None,
    )
    if number is None and item.get("set") and item.get("number"):
        number = f"{item['set']}-{item['number']}"[:MAX_LINE]
    count = item.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        return Line(
            position, raw, "unparsed", problem=f"the count {count!r} is not 1 to {MAX_COUNT}"
        )
    name = str(item.get("name") or "").strip()[:MAX_LINE] or None
    if number is None and name is None:
        return Line(position, raw, "unparsed", problem="no card number or name here")
    numbers = (number,) if number else ()
    readings = _one_reading(count, number, name)
    return Line(position, raw, "card", count, numbers, name, section, None, readings)


def _parse_deck_code(code: str, position: int, budget: Budget) -> Parsed:
    # A code's entries take a byte each at least: one too long for the budget is not
    # decoded (a 1 MB code once decoded 693,000 entries first: 3 s, +136 MB).
    if not budget.affords(len(code) * 3 // 4):
        return _over_budget(code, position, "deck-code")
    try:
        decoded = deckcode.decode(code)
    except deckcode.DeckCodeError as err:
        problem = f"this DCG deck code cannot be read: {err}"
        line = Line(position, code[:80], "unparsed", problem=problem)
        return Parsed((line,), "deck-code")
    if not budget.take_entries(len(decoded.digi_eggs) + len(decoded.deck) + len(decoded.sideboard)):
        return _over_budget(code, position, "deck-code")
    lines = []
    for section, entries in (
        ("eggs", decoded.digi_eggs),
        ("main", decoded.deck),
        ("side", decoded.sideboard),
    ):
        for entry in entries:
            lines.append(_card(position, code, entry.count, entry.number, section))
    return Parsed(tuple(lines), "deck-code", name=decoded.name or None, has_headers=True)
