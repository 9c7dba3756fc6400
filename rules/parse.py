"""Turn whatever a player pasted into lines: card entries, headers, comments.

Accepted: the text styles of the contract and of the deck builders players use
(digimoncard.io / .dev / .app, DigimonMeta, Untap, forum text), Tabletop Simulator
JSON arrays, and `DCG...` deck codes. Parsing never looks at the card pool: it
only says what each line *claims*; `rules.resolve` decides which card that is.
The parser never raises: a line it cannot read becomes an `unparsed` line.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from rules import deckcode
from rules.numbers import NUMBER_TOKEN, find_numbers

MAX_COUNT = 1000

HEADERS = {
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

_HEADER = re.compile(
    r"^(?:/{2,}|#+)?\s*([A-Za-z][A-Za-z -]*?)\s*(?:\(\s*\d+\s*\)|:?\s*\d+)?\s*:?\s*$"
)
_COMMENT = re.compile(r"^(?:/{2,}|#)")
_PARTNER = re.compile(r"^(?:/{2,}\s*)?partner\s*[:=-]\s*(.*)$", re.IGNORECASE)
_BULLET = re.compile(r"^[-*•·]\s+")
_LEADING_COUNT = re.compile(r"^(\d+)[xX×]?(?=[\s(\[]|$)\s*(.*)$")
_LEADING_X_COUNT = re.compile(r"^[xX×]\s*(\d+)\s+(.*)$")
_TRAILING_COUNT = re.compile(r"^(.*?)(?:\s*[xX×]\s*(\d+)|\s+(\d+))$")
_GAME_MARKER = re.compile(r"[(\[]\s*DCG\s*[)\]]", re.IGNORECASE)
_EMPTY_BRACKETS = re.compile(r"[(\[]\s*[)\]]")
_EDGE_PUNCT = re.compile(r"^[\s|:,;=>-]+|[\s|:,;=<-]+$")
_HAS_LETTER = re.compile(r"[^\W\d_]")


@dataclass(frozen=True, slots=True)
class Line:
    """What one input line says. `section` is the header in force above it (a hint)."""

    number: int
    text: str
    kind: str  # "card", "header", "comment", "partner", "unparsed"
    count: int = 1
    numbers: tuple[str, ...] = ()
    name: str | None = None
    section: str | None = None
    problem: str | None = None
    parallel: int = 0


@dataclass(frozen=True)
class Parsed:
    """A whole decklist as lines; `style` says which input style was recognised."""

    lines: tuple[Line, ...]
    style: str = "text"
    name: str | None = None
    partner: Line | None = None
    has_headers: bool = False
    notes: tuple[str, ...] = field(default=())

    def cards(self) -> list[Line]:
        return [line for line in self.lines if line.kind == "card"]


def count_lines(text: str) -> int:
    """Non-empty lines, the unit of the contract's decklist length limit."""
    return sum(1 for line in text.splitlines() if line.strip())


def parse(text: str) -> Parsed:
    stripped = text.strip()
    if deckcode.looks_like_deck_code(stripped):
        return _parse_deck_code(stripped)
    if stripped.startswith("["):
        tts = _parse_tts(stripped)
        if tts is not None:
            return tts
    if stripped.startswith("{"):
        limitless = _parse_limitless(stripped)
        if limitless is not None:
            return limitless
    return _parse_lines(text)


def _parse_lines(text: str) -> Parsed:
    lines: list[Line] = []
    section: str | None = None
    partner: Line | None = None
    has_headers = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = parse_line(number, raw, section)
        if line is None:
            continue
        if line.kind == "header":
            section = line.section
            has_headers = has_headers or section in ("main", "eggs", "destiny")
        elif line.kind == "partner":
            partner = line
        lines.append(line)
    return Parsed(tuple(lines), "text", partner=partner, has_headers=has_headers)


def parse_line(number: int, raw: str, section: str | None = None) -> Line | None:
    """One line of text; None for a blank line."""
    text = raw.replace("\x00", "").strip()
    if not text:
        return None
    # Most lines start with a count: skip the header / partner / comment patterns then.
    if not text[0].isdigit():
        header = _header(text)
        if header:
            return Line(number, text, "header", section=header)
        partner = _PARTNER.match(text)
        if partner:
            return _partner_line(number, text, partner.group(1))
        if _COMMENT.match(text):
            return Line(number, text, "comment", section=section)
    return _card_line(number, text, section)


def _header(text: str) -> str | None:
    match = _HEADER.match(text)
    if not match:
        return None
    return HEADERS.get(" ".join(match.group(1).lower().split()))


def _partner_line(number: int, text: str, rest: str) -> Line:
    rest = rest.strip()
    numbers = tuple(find_numbers(rest))
    name = _clean_name(NUMBER_TOKEN.sub(" ", rest)) if rest else ""
    if not numbers and not name:
        return Line(number, text, "unparsed", problem="the Partner line names no card")
    return Line(number, text, "partner", numbers=numbers, name=name or None)


def _card_line(number: int, text: str, section: str | None) -> Line:
    body = _BULLET.sub("", text) if text[0] in "-*•·" else text
    count, rest = _split_count(body)
    if count is not None and not rest.strip():
        return Line(
            number, text, "unparsed", section=section, problem="a count with no card after it"
        )
    numbers = tuple(find_numbers(rest))
    name = NUMBER_TOKEN.sub(" ", rest) if numbers else rest
    if "DCG" in name.upper():
        name = _GAME_MARKER.sub(" ", name)
    name = _clean_name(name)
    if not numbers and not _HAS_LETTER.search(name):
        return Line(
            number, text, "unparsed", section=section, problem="no card number or name here"
        )
    if count is not None and not 1 <= count <= MAX_COUNT:
        problem = f"the count {count} is not a whole number from 1 to {MAX_COUNT}"
        return Line(number, text, "unparsed", section=section, problem=problem)
    return Line(
        number, text, "card", count if count is not None else 1, numbers, name or None, section
    )


def _split_count(body: str) -> tuple[int | None, str]:
    for pattern in (_LEADING_COUNT, _LEADING_X_COUNT):
        match = pattern.match(body)
        if match:
            return _as_count(match.group(1)), match.group(2)
    match = _TRAILING_COUNT.match(body)
    if match and match.group(1).strip():
        return _as_count(match.group(2) or match.group(3)), match.group(1)
    return None, body


def _as_count(digits: str) -> int:
    # Cap before int(): a 10,000-digit "count" must not cost a big-int conversion.
    return int(digits) if len(digits) <= 7 else MAX_COUNT + 1


def _clean_name(text: str) -> str:
    if "(" in text or "[" in text:
        text = _EMPTY_BRACKETS.sub(" ", text)
    return _EDGE_PUNCT.sub("", " ".join(text.split()))


def _parse_tts(text: str) -> Parsed | None:
    """A Tabletop Simulator array: an `Exported from ...` header, then one id per copy.

    Non-id strings are read like text lines, so headers and a `Partner:` entry
    (which deckcheck's own export writes for DBE) keep their meaning.
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, list) or not all(isinstance(item, str) for item in data):
        return None
    name = None
    section: str | None = None
    partner: Line | None = None
    counts: dict[tuple[str, str | None], int] = {}
    for item in data:
        token = item.strip()
        if find_numbers(token) == [token]:
            counts[(token, section)] = counts.get((token, section), 0) + 1
            continue
        line = parse_line(1, token, section)
        if line is not None and line.kind == "header":
            section = line.section
        elif line is not None and line.kind == "partner":
            partner = line
        elif name is None:
            name = token
    lines = tuple(
        Line(1, number, "card", min(count, MAX_COUNT), (number,), section=where)
        for (number, where), count in counts.items()
    )
    return Parsed(lines, "tts", name=name, partner=partner, has_headers=section is not None)


LIMITLESS_SECTIONS = {"digimon": "main", "tamer": "main", "option": "main", "egg": "eggs"}


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
        for item in items if isinstance(items, list) else []:
            position = len(lines) + 1
            lines.append(_limitless_entry(position, item, section))
    return Parsed(tuple(lines), "limitless", has_headers=True)


def _limitless_entry(position: int, item: object, section: str) -> Line:
    if not isinstance(item, dict):
        return Line(position, str(item)[:80], "unparsed", problem="not a card entry")
    raw = " ".join(str(item.get(k, "")) for k in ("count", "name", "set", "number", "id"))
    number = next(
        (
            str(item[k])
            for k in ("id", "cardNumber", "code", "number")
            if find_numbers(str(item.get(k, "")))
        ),
        None,
    )
    if number is None and item.get("set") and item.get("number"):
        number = f"{item['set']}-{item['number']}"
    count = item.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        return Line(
            position, raw, "unparsed", problem=f"the count {count!r} is not 1 to {MAX_COUNT}"
        )
    name = str(item.get("name") or "").strip() or None
    if number is None and name is None:
        return Line(position, raw, "unparsed", problem="no card number or name here")
    return Line(position, raw, "card", count, (number,) if number else (), name, section)


def _parse_deck_code(code: str) -> Parsed:
    try:
        decoded = deckcode.decode(code)
    except deckcode.DeckCodeError as err:
        line = Line(1, code, "unparsed", problem=f"this DCG deck code cannot be read: {err}")
        return Parsed((line,), "deck-code")
    lines = []
    for section, entries in (
        ("eggs", decoded.digi_eggs),
        ("main", decoded.deck),
        ("side", decoded.sideboard),
    ):
        for entry in entries:
            lines.append(
                Line(
                    1,
                    code,
                    "card",
                    entry.count,
                    (entry.number,),
                    None,
                    section,
                    None,
                    entry.parallel,
                )
            )
    return Parsed(tuple(lines), "deck-code", name=decoded.name or None, has_headers=True)
