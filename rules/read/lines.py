"""The text reader: a decklist as players write it, one card a line, with section
headers, a `Partner:` line, comments, and deck links (Egman, DigimonMeta) on a line of
their own. Each card line is read by its shape (`rules.read.shapes`), worked out once
per distinct text."""

from __future__ import annotations

import unicodedata

from rules.budget import Budget
from rules.cache import memo
from rules.games import HEADERS
from rules.links import deck_link
from rules.model import MAX_COUNT
from rules.numbers import bare, is_number, number_key
from rules.read.model import MAX_LINE, Line, Parsed, Reading, one_card
from rules.read.shapes import card_readings, count_of, strip_lead, too_many_parts


def read_text(text: str, budget: Budget) -> Parsed:
    """Every line of `text`, in order; `style` is "link" when a line was a deck link."""
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
        one_card(number, text, count, card, section)
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
        readings = tuple(Reading(1, n, None, key=number_key(n)) for n in numbers)
    else:
        readings = tuple(r for r in card_readings(tokens, counts=False) if r.strain == 0)
    if not readings:
        return Line(number, text, "unparsed", problem="the Partner line names no card")
    return Line(number, text, "partner", 1, tuple(numbers), readings[0].name, readings=readings)


def _card_line(number: int, text: str, section: str | None) -> Line:
    """A line that is no header, partner line or comment: a card entry or a problem.
    What it says depends on its text alone, so that is worked out once per text
    (`_card_entry`: lists are made of the same lines, `4 Gabumon BT15-020`)."""
    kind, count, numbers, name, problem, readings, unread = _card_entry(text)
    return Line(number, text, kind, count, numbers, name, section, problem, readings, unread)


# A few thousand lines: the lines of the lists in play, each a few hundred bytes.
@memo(4096)
def _card_entry(text: str) -> _Said:
    """What a card line says: ("card", count, numbers, name, None, readings, None), or
    ("unparsed", 1, (), None, the problem, (), None)."""
    tokens = strip_lead(text.split())
    if not tokens:
        return _problem("no card number or name here")
    if len(tokens) == 1 and count_of(tokens[0]) is not None:
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
