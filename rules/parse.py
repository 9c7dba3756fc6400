"""Turn whatever a player pasted into lines: card entries, headers, comments.

Accepted: the text styles of the contract and of the deck builders players use
(digimoncard.io / .dev / .app, DigimonMeta, Untap, forum text), Egman and DigimonMeta
deck links, Tabletop Simulator JSON arrays, Limitless objects and `DCG...` deck codes.

Parsing never looks at the card pool. A card line can often be read more than one
way (`BT10-009 Shoutmon X4`: 4 copies, or 1 copy of "Shoutmon X4"?), so the parser
lists every *reading* and `rules.resolve` keeps the one the pool agrees with. The
parser never raises, and its cost is linear in the text: a line is cut into tokens
with `str.split` and each token is classified on its own (see `rules.numbers`).
"""

from __future__ import annotations

import json
import re
import unicodedata
from itertools import product
from typing import Final, NamedTuple

from rules import deckcode
from rules.links import deck_link
from rules.numbers import bare, is_number, remember

MAX_COUNT: Final = 1000
MAX_LINE: Final = 1000
MAX_NUMBERS: Final = 4  # more number-shaped tokens than this on one line is never one card

HEADERS: Final = {
    "main": "main",
    "main deck": "main",
    "deck": "main",
    "maindeck": "main",
    "digimon": "main",
    "tamer": "main",
    "tamers": "main",
    "option": "main",
    "options": "main",
    "digi-egg": "eggs",
    "digi-eggs": "eggs",
    "digi-egg deck": "eggs",
    "digi egg": "eggs",
    "digi egg deck": "eggs",
    "digiegg": "eggs",
    "eggs": "eggs",
    "egg": "eggs",
    "egg deck": "eggs",
    "destiny": "destiny",
    "destiny zone": "destiny",
    "side": "side",
    "side deck": "side",
    "sideboard": "side",
}
BULLETS: Final = frozenset({">", "-", "*", "•", "·", "–", ">>"})
TIMES: Final = frozenset({"x", "X", "×", "*"})
# Words deck builders add beside a name that are not part of it.
MARKERS: Final = frozenset({"(dcg)", "[dcg]", "dcg", "()", "[]"})
# `dcg`, the one letters-only marker, in every mix of case: a word is tested without lower().
_ALPHA_MARKERS: Final = frozenset("".join(letters) for letters in product("dD", "cC", "gG"))
# Linear: one character class, the first match ends the search.
_find_digit: Final = re.compile("[0-9]").search
# A named tuple's own __new__ is Python code; tuple.__new__ builds the same object in a
# fraction of the time, and a Final constant is a C static in the compiled build.
_new: Final = tuple.__new__
# str.isalpha has no compiled form: called as a method, each call first looks the method
# up; called through this constant, it does not.
_isalpha: Final = str.isalpha
_isascii: Final = str.isascii
# The counts players write, read without int()'s general number parser.
_COUNTS: Final = {str(count): count for count in range(1, 100)}
_PLAIN_TOKENS: Final[dict[str, bool]] = {}


class Reading(NamedTuple):
    """One way to read a card line: `count` copies of `number` (or of `name`).

    `strain` counts the count- or number-shaped tokens this reading leaves inside
    the name: the fewer, the more natural the reading. `spare` names them.
    A named tuple, not a dataclass: a request builds thousands, and it is immutable too.
    """

    count: int  # type: ignore[assignment]  # a field named count shadows tuple.count
    number: str | None
    name: str | None
    count_token: str | None = None
    strain: int = 0
    spare: tuple[str, ...] = ()
    spare_numbers: int = 0


class Line:
    """What one input line says. `section` is the header in force above it (a hint).

    `count`, `numbers` and `name` are the most natural reading; `readings` holds
    every reading, most natural first. `tokens` is set instead of `readings` on the
    common plain `count name number` line: most such lines resolve on their first
    reading, so the others are built only when asked.

    A plain class with `Final` fields (rules.model.Entry says why): compiled, it is
    built and read without Python's generic paths. Compared and hashed by its fields.
    """

    def __init__(
        self,
        number: int,
        text: str,
        kind: str,  # "card", "header", "comment", "partner", "unparsed"
        count: int = 1,
        numbers: tuple[str, ...] = (),
        name: str | None = None,
        section: str | None = None,
        problem: str | None = None,
        readings: tuple[Reading, ...] = (),
        unread_count: int | None = None,
        tokens: tuple[str, ...] | None = None,
    ) -> None:
        self.number: Final = number
        self.text: Final = text
        self.kind: Final = kind
        self.count: Final = count
        self.numbers: Final = numbers
        self.name: Final = name
        self.section: Final = section
        self.problem: Final = problem
        self.readings: Final = readings
        self.unread_count: Final = unread_count
        self.tokens: Final = tokens

    def all_readings(self) -> tuple[Reading, ...]:
        """Every reading of the line, most natural first (built now for a common line)."""
        if self.tokens is None:
            return self.readings
        return card_readings(list(self.tokens))

    def _fields(self) -> tuple[object, ...]:
        return (
            self.number,
            self.text,
            self.kind,
            self.count,
            self.numbers,
            self.name,
            self.section,
            self.problem,
            self.readings,
            self.unread_count,
            self.tokens,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Line):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"Line({self.number}, {self.text!r}, {self.kind!r}, count={self.count})"


class Parsed(NamedTuple):
    """A whole decklist as lines; `style` says which input style was recognised.

    A named tuple for the reason `Resolved` (rules.resolve) gives."""

    lines: tuple[Line, ...]
    style: str = "text"
    name: str | None = None
    partners: tuple[Line, ...] = ()
    has_headers: bool = False
    notes: tuple[str, ...] = ()

    @property
    def partner(self) -> Line | None:
        return self.partners[0] if self.partners else None

    def cards(self) -> list[Line]:
        return [line for line in self.lines if line.kind == "card"]


def count_lines(text: str) -> int:
    """Non-empty lines, the unit of the contract's decklist length limit."""
    return sum(1 for line in text.splitlines() if line.strip())


def parse(text: str) -> Parsed:
    stripped = text.strip()
    if deckcode.looks_like_deck_code(stripped):
        return _parse_deck_code(stripped, _first_line(text))
    if stripped.startswith("["):
        tts = _parse_tts(stripped, _first_line(text))
        if tts is not None:
            return tts
    if stripped.startswith("{"):
        limitless = _parse_limitless(stripped)
        if limitless is not None:
            return limitless
    return _parse_lines(text)


def _first_line(text: str) -> int:
    """The line a whole-text input (a deck code, a TTS array) starts on: blank lines and
    a lone carriage return before it are lines too, so a problem names the right one."""
    leading = text[: len(text) - len(text.lstrip())]
    return len((leading + "x").splitlines())


def _parse_lines(text: str) -> Parsed:
    lines: list[Line] = []
    section: str | None = None
    partners: list[Line] = []
    has_headers = False
    style = "text"
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw[:1].isdigit() and _isascii(raw) and len(raw) <= MAX_LINE:
            # Most lines: `count name number`, read here before the general steps.
            quick = _quick_line(number, _plain(raw), section)
            if quick is not None:
                lines.append(quick)
                continue
        elif raw[:1].isalpha() and _isascii(raw) and len(raw) <= MAX_LINE:
            # `number name count` (older digimoncard.app exports), read directly too.
            quick = _number_first_line(number, _plain(raw), section)
            if quick is not None:
                lines.append(quick)
                continue
        found = parse_lines_of(number, raw, section)
        for line in found:
            if line.kind == "header":
                section = line.section
                has_headers = has_headers or section in ("main", "eggs", "destiny")
            elif line.kind == "partner":
                partners.append(line)
            lines.append(line)
        if len(found) > 1 or (found and found[0].text.startswith(("http", "dg="))):
            style = "link"
    return _new(Parsed, (tuple(lines), style, None, tuple(partners), has_headers, ()))


def _plain(raw: str) -> str:
    """An ASCII line without NUL characters and outer space (most lines hold no NUL)."""
    return (raw.replace("\x00", "") if "\x00" in raw else raw).strip()


def parse_lines_of(number: int, raw: str, section: str | None = None) -> list[Line]:
    """One input line as parsed lines: none (blank), one, or one per card of a deck link."""
    if len(raw) > MAX_LINE:
        # Checked before any other work: a long line costs one length check.
        text = raw[:80]
        return [Line(number, text, "unparsed", section=section, problem="too long")]
    # NFKC leaves ASCII as it is; most lines are ASCII, so skip the call for them.
    text = raw if raw.isascii() else unicodedata.normalize("NFKC", raw)
    text = text.replace("\x00", "").strip()
    if not text:
        return []
    if len(text) > MAX_LINE:
        return [Line(number, text[:80], "unparsed", section=section, problem="too long")]
    if " " not in text and ("n" in text or "=" in text):
        link = deck_link(text)
        if link is not None:
            return [
                Line(
                    number,
                    text,
                    "card",
                    count,
                    (card,),
                    None,
                    section,
                    None,
                    (Reading(count, card, None),),
                )
                if card and count
                else Line(number, text, "unparsed", section=section, problem=problem)
                for card, count, problem in link
            ]
    return [_line(number, text, section)]


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
    if text.isascii():
        quick = _quick_line(number, text, section)
        if quick is not None:
            return quick
    tokens = _strip_lead(text.split())
    if not tokens:
        return _unparsed(number, text, section, "no card number or name here")
    if len(tokens) == 1 and _count_of(tokens[0]) is not None:
        return _unparsed(number, text, section, "a count with no card after it")
    first = tokens[0]
    if first.startswith("-") and first[1:].isdigit():
        return _unparsed(number, text, section, f"the count {first} is below 1")
    readings = card_readings(tokens)
    if not readings or not any(r.number or _has_letter(r.name) for r in readings):
        return _unparsed(number, text, section, "no card number or name here")
    best = readings[0]
    if not 1 <= best.count <= MAX_COUNT:
        problem = f"the count {best.count_token} is not a whole number from 1 to {MAX_COUNT}"
        return _unparsed(number, text, section, problem)
    numbers = (best.number,) if best.number else ()
    return Line(number, text, "card", best.count, numbers, best.name, section, None, readings)


def _quick_line(number: int, text: str, section: str | None) -> Line | None:
    """`<count> <name words> <number>` in ASCII, read without building its readings.

    The same Line the general path gives (a property test holds them equal), with
    `tokens` in place of `readings`; None for any other shape. The number is bare
    or in one pair of brackets, no token is a `x` / `*` a count could join, and the
    name may hold deck-builder markers (`(DCG)`), which no reading counts as name.
    """
    tokens = text.split()
    first, last = tokens[0], tokens[-1]
    if len(tokens) < 2 or not first.isdigit() or len(first) > 7:
        return None
    count = _COUNTS.get(first)
    if count is None:
        count = int(first)
    if not 1 <= count <= MAX_COUNT:
        return None
    card = last
    if not is_number(card):
        card = last[1:-1]
        if last[0] + last[-1] not in ("()", "[]") or not is_number(card):
            return None
    joined = _quick_name(tokens[1:-1])
    if joined is None:
        return None
    # Most names have no edge character or bracket at either end: nothing to clean.
    unclean = joined[:1] in _UNCLEAN or joined[-1:] in _UNCLEAN
    name = (_clean_name(joined) if unclean else joined) or None
    return Line(number, text, "card", count, (card,), name, section, None, (), None, tuple(tokens))


def _quick_name(middle: list[str]) -> str | None:
    """The words between a line's count and number (either order), markers left out;
    None when a token is one a count could join (`x`, `*`) or is count- or number-shaped."""
    for token in middle:
        # Most names are plain words: one pass, no list, no `_kind`.
        if not _plain_token(token):
            break
    else:
        return " ".join(middle)
    words = []
    for token in middle:
        if token in TIMES:
            return None
        kind = _kind(token)
        if kind == "word":
            words.append(token)
        elif kind != "marker":  # markers (`(DCG)`) are in no reading's name: skip them
            return None
    return " ".join(words)


def _plain_token(token: str) -> bool:
    """Is a token of an ASCII name a plain word: no marker (`DCG`), nothing a count could
    join (`x`, `*`), no digit? Cached (`remember`): names are made of the same words."""
    known = _PLAIN_TOKENS.get(token)
    if known is None:
        if _isalpha(token):
            # The only words the sets hold have 1 letter (`x`) or 3 (`dcg`).
            size = len(token)
            known = not ((size == 3 and token in _ALPHA_MARKERS) or (size == 1 and token in TIMES))
        else:
            known = not (
                token in TIMES or _find_digit(token) is not None or token.lower() in MARKERS
            )
        remember(_PLAIN_TOKENS, token, known)
    return known


def _number_first_line(number: int, text: str, section: str | None) -> Line | None:
    """`<number> <name words> <count>` in ASCII, with its readings built directly.

    The same Line the general path gives (a property test holds them equal); None for
    any other shape. The number is bare, the count plain digits, every token between
    them a word or a deck-builder marker. A number-shaped first token is never a
    header, a partner line or a comment, and a line with a space is never a deck link,
    so the general steps before `_card_line` would give nothing else.
    """
    if " " not in text:
        return None
    tokens = text.split()
    first, last = tokens[0], tokens[-1]
    if not last.isdigit() or len(last) > 7 or not is_number(first):
        return None
    count = int(last)
    if not 1 <= count <= MAX_COUNT:
        return None
    joined = _quick_name(tokens[1:-1])
    if joined is None:
        return None  # `x 4`: the general reader joins it to a count
    name = _clean_name(joined) or None
    # The general reader's readings, in its order (strain, then number, then count):
    # count and number used; the count left in the name; the number left in the name;
    # both left in it. Their names need only one end cleaned (`_clean_name` would do no
    # more): the number starts with a letter and the count ends with a digit, neither
    # an edge character nor a bracket.
    with_count = f"{joined} {last}".lstrip(_EDGE) if joined else last
    with_number = f"{first} {joined}".rstrip(_EDGE) if joined else first
    with_both = f"{first} {joined} {last}" if joined else f"{first} {last}"
    readings = (
        _new(Reading, (count, first, name, last, 0, (), 0)),
        _new(Reading, (1, first, with_count, None, 1, (last,), 0)),
        _new(Reading, (count, None, with_number, last, 1, (first,), 1)),
        _new(Reading, (1, None, with_both, None, 2, (first, last), 1)),
    )
    return Line(number, text, "card", count, (first,), name, section, None, readings)


def _has_letter(text: str | None) -> bool:
    return text is not None and any(ch.isalpha() for ch in text)


def _unparsed(
    number: int, text: str, section: str | None, problem: str, count: int | None = None
) -> Line:
    return Line(number, text, "unparsed", section=section, problem=problem, unread_count=count)


def _strip_lead(tokens: list[str]) -> list[str]:
    """Drop quote marks and bullets (`>`, `-`, `*`, `•`) before an entry."""
    start = 0
    while start < len(tokens) - 1 and tokens[start] in BULLETS:
        start += 1
    tokens = tokens[start:]
    if tokens and tokens[0][0] in ">•·" and len(tokens[0]) > 1:
        tokens = [tokens[0].lstrip(">•·"), *tokens[1:]]
    return _join_times(tokens)


def _join_times(tokens: list[str]) -> list[str]:
    """`x 4` is one count token, and so is `4 x` before a card number (`4 x BT1-010`).

    `4 X Antibody` stays as it is: there the X starts the name.
    """
    if not any(t in TIMES for t in tokens):
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


def card_readings(tokens: list[str], counts: bool = True) -> tuple[Reading, ...]:
    """Every reading of a card entry's tokens, most natural first.

    A count is a count-shaped token first, last, or next to a card number (or none:
    1 copy); a number is one of the number-shaped tokens (or none: the card is
    named). Tokens a reading does not use are the name.
    """
    fast = _common_readings(tokens) if counts else None
    if fast is not None:
        return fast
    position = None
    if counts and len(tokens) > 1 and _list_number(tokens[0]) is not None:
        position = tokens[0]
        tokens = tokens[1:]
    kinds = [_kind(token) for token in tokens]
    number_at = [i for i, kind in enumerate(kinds) if kind == "number"]
    if len(number_at) > MAX_NUMBERS:
        return ()
    count_at: list[int | None] = [None]
    if counts:
        last = len(tokens) - 1
        near = {i + step for i in number_at for step in (-1, 1)}
        count_at += [
            i for i, kind in enumerate(kinds) if kind == "count" and (i in (0, last) or i in near)
        ]
    readings = []
    for c in count_at:
        for n in [*number_at, None]:
            reading = _reading(tokens, kinds, c, n)
            if reading is not None:
                readings.append(reading)
            if position is not None and c is None:
                as_count = _reading(tokens, kinds, None, n, position)
                if as_count is not None:
                    readings.append(as_count)
    readings.sort(key=lambda r: (r.strain, r.number is None, r.count_token is None))
    return tuple(dict.fromkeys(readings))


def _common_readings(tokens: list[str]) -> tuple[Reading, ...] | None:
    """`<count> <name words> <number>`, the line most lists are made of, read directly.

    Gives exactly what the general path gives (a property test holds them equal), in
    a quarter of the time; None for any other shape.
    """
    first, last = tokens[0], tokens[-1]
    if len(tokens) < 2 or not first.isdigit() or not first.isascii() or len(first) > 7:
        return None
    number = bare(last)
    if not is_number(number) or (number != last and last[0] not in "(["):
        return None
    middle = tokens[1:-1]
    if not all(_kind(t) == "word" for t in middle):
        return None
    count = int(first)
    name = _clean_name(" ".join(middle)) or None
    alone = _clean_name(" ".join(tokens[:-1])) or None
    tail = _clean_name(" ".join(tokens[1:])) or None
    whole = _clean_name(" ".join(tokens)) or None
    readings = [Reading(count, number, name, first)]
    readings.append(Reading(1, number, alone, None, 1, (first,), 0))
    if tail is not None:
        readings.append(Reading(count, None, tail, first, 1, (last,), 1))
    if whole is not None:
        readings.append(Reading(1, None, whole, None, 2, (first, last), 1))
    return tuple(readings)  # distinct by construction: each strain appears once per kind


def _kind(token: str) -> str:
    if token.isalpha() or _find_digit(token) is None:
        # Most tokens of a name are words (`Alter-S`, `Boost!`): a token without an ASCII
        # digit is neither a count nor a card number, so skip those tests.
        return "marker" if token.lower() in MARKERS else "word"
    if _count_of(token) is not None:
        return "count"
    if is_number(bare(token)):
        return "number"
    if token.lower() in MARKERS:
        return "marker"
    return "word"


def _reading(
    tokens: list[str], kinds: list[str], c: int | None, n: int | None, position: str | None = None
) -> Reading | None:
    spare: list[str] = []
    words: list[str] = []
    spare_numbers = 0
    for i, token in enumerate(tokens):
        if i == c or i == n or kinds[i] == "marker":
            continue
        if kinds[i] != "word":
            spare.append(token)
            spare_numbers += kinds[i] == "number"
        words.append(token)
    name = _clean_name(" ".join(words)) or None
    if n is None and name is None:
        return None
    count_token = tokens[c] if c is not None else position
    if c is not None:
        count = _count_of(tokens[c]) or 0
    elif position is not None:
        count = _list_number(position) or 0
    else:
        count = 1
    number = bare(tokens[n]) if n is not None else None
    return Reading(count, number, name, count_token, len(spare), tuple(spare), spare_numbers)


_EDGE: Final = " |:,;=<>-–"
# First or last characters of a name that `_clean_name` may take off (the empty string:
# an empty name, which it leaves empty).
_UNCLEAN: Final = frozenset(_EDGE) | {"(", "[", ")", "]", ""}


def _clean_name(text: str) -> str:
    text = text.strip(_EDGE)
    if (
        text.startswith(("(", "["))
        and text.endswith((")", "]"))
        and text.count("(") + text.count("[") == 1
    ):
        text = text[1:-1].strip(_EDGE)
    return text


def _parse_tts(text: str, position: int = 1) -> Parsed | None:
    """A Tabletop Simulator array: an `Exported from ...` header, then one id per copy.

    Non-id strings are read like text lines, so headers and a `Partner:` entry
    (which deckcheck's own export writes for DBE) keep their meaning. The first item, or
    an `Exported from ...` item, names the deck; any other string is kept as a line (a
    card named in words, or a problem reported), never dropped.
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, list) or not all(isinstance(item, str) for item in data):
        return None
    name = None
    section: str | None = None
    partners: list[Line] = []
    others: list[Line] = []
    counts: dict[tuple[str, str | None], int] = {}
    # A pretty-printed array spans lines: each card is placed on the line it first
    # stands on, so its problems name that line.
    where = _item_lines(text, position) if "\n" in text or "\r" in text else {}
    first_at: dict[tuple[str, str | None], int] = {}
    # An id comes once per copy: each distinct item is read once (within this array).
    numbers: dict[str, str | None] = {}
    for index, item in enumerate(data):
        if item in numbers:
            token = numbers[item]
            if token is not None:
                counts[(token, section)] = counts.get((token, section), 0) + 1
                first_at.setdefault((token, section), where.get(item, position))
                continue
        token = item[: MAX_LINE + 1]
        token = (token if token.isascii() else unicodedata.normalize("NFKC", token)).strip()
        if is_number(token):
            numbers[item] = token
            counts[(token, section)] = counts.get((token, section), 0) + 1
            first_at.setdefault((token, section), where.get(item, position))
            continue
        numbers[item] = None
        line = parse_line(where.get(item, position), token, section)
        if line is None:
            continue
        if line.kind == "header":
            section = line.section
        elif line.kind == "partner":
            partners.append(line)
        elif name is None and (index == 0 or token.startswith("Exported from")):
            name = token
        else:
            others.append(line)
    if not counts and not partners:
        return None  # no card in it (`[]`): read as text, where the line is reported
    cards = [
        _card(first_at[key], key[0], min(count, MAX_COUNT), key[0], key[1])
        for key, count in counts.items()
    ]
    lines = tuple(sorted([*cards, *others], key=lambda line: line.number))
    return Parsed(
        lines, "tts", name=name, partners=tuple(partners), has_headers=section is not None
    )


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
        try:
            values = json.loads(f"[{piece}]")
        except (ValueError, RecursionError):
            continue
        for value in values:
            if isinstance(value, str):
                found.setdefault(value, first + offset)
    return found


def _card(position: int, text: str, count: int, number: str, section: str | None) -> Line:
    """A line that names exactly one card by number: one reading.

    Its reading is built with `_new` (what Reading(...) gives): a deck code or TTS array
    makes one per card.
    """
    reading = _new(Reading, (count, number, None, None, 0, (), 0))
    return Line(position, text, "card", count, (number,), None, section, None, (reading,))


LIMITLESS_SECTIONS: Final = {"digimon": "main", "tamer": "main", "option": "main", "egg": "eggs"}


def _parse_limitless(text: str) -> Parsed | None:
    """A Limitless TCG decklist object: {"digimon": [{"count", "name", ...}], "egg": [...]}.

    An entry names its card by a full number (`id`, `number`, `cardNumber`, `code`), by
    `set` + `number`, or by `name`; entries are numbered like lines, in order.
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not set(data) & set(LIMITLESS_SECTIONS):
        return None
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
    reading = Reading(count, number, name)
    numbers = (number,) if number else ()
    return Line(position, raw, "card", count, numbers, name, section, None, (reading,))


def _parse_deck_code(code: str, position: int = 1) -> Parsed:
    try:
        decoded = deckcode.decode(code)
    except deckcode.DeckCodeError as err:
        problem = f"this DCG deck code cannot be read: {err}"
        line = Line(position, code[:80], "unparsed", problem=problem)
        return Parsed((line,), "deck-code")
    lines = []
    for section, entries in (
        ("eggs", decoded.digi_eggs),
        ("main", decoded.deck),
        ("side", decoded.sideboard),
    ):
        for entry in entries:
            lines.append(_card(position, code, entry.count, entry.number, section))
    return Parsed(tuple(lines), "deck-code", name=decoded.name or None, has_headers=True)
