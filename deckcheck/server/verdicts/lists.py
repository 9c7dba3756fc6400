"""A stored list: what a player sent, read once, kept structured, judged from that.

The structured list holds the cards the list was read as (per section [number, count],
the partner, and the lines that named no card, kept as written). A list read from what
a player sent keeps its reading too (`read`: its lines, as the reader gave them), so
judging it again resolves and checks those lines with the day's pool and rules without
reading the text again, and its verdict names the lines the player wrote, as the one
they were given did. A saved deck's versions stored before readings were kept have no
`read`: they are judged from their cards (`payload_of`), as they always were.
"""

from __future__ import annotations

import hashlib
from datetime import date

from deckcheck import service
from deckcheck.report_json import deck_json, violation_json
from rules.format import Format
from rules.model import Report
from rules.pool import CardIndex
from rules.read import Line, Parsed, Reading
from rules.verdict import verdict_of

# A line that named no card is kept as written, up to the length a structured deck's
# entry may have (DeckEntrySchema); its count as read, or 1 when it could not be read.
UNREAD_TEXT = 200

# The shape a reading is kept in: the reader's own values, field by field. A reading
# kept in another shape (the reader's values gained or lost a field) is read again from
# what the player sent (`stale_reading`), never misread.
READ_SHAPE = hashlib.sha256(
    "|".join(",".join(t._fields) for t in (Line, Reading)).encode()
).hexdigest()[:12]


def structured_of(report: Report, parsed: Parsed | None = None) -> dict:
    """The cards a report's deck was read as, in the shape stored per list; with
    `parsed`, the reading it was judged from as well."""
    deck = report.deck
    sections = {
        section: [[stack.card.number, stack.count] for stack in deck.stacks(section)]
        for section in deck.sections()
    }
    unread = [[u.text[:UNREAD_TEXT], u.count or 1] for u in deck.unresolved if u.text.strip()]
    data = {
        "sections": sections,
        "partner": deck.partner.number if deck.partner else None,
        "unread": unread,
    }
    if parsed is not None:
        data["read"] = reading_json(parsed)
    return data


def reading_json(parsed: Parsed) -> dict:
    """The reader's lines as JSON (named tuples are lists)."""
    return {
        "shape": READ_SHAPE,
        "style": parsed.style,
        "name": parsed.name,
        "has_headers": parsed.has_headers,
        "lines": [_line_json(line) for line in parsed.lines],
        "partners": [_line_json(line) for line in parsed.partners],
    }


def _line_json(line: Line) -> list:
    return [*line[:8], [list(r) for r in line.readings], line.unread_count]


def _line(values: list) -> Line:
    """A line as `_line_json` kept it (field by field: READ_SHAPE says which). Built
    field by field, not with `_replace`: this is most of a stored list's judging cost."""
    n, text, kind, count, numbers, name, section, problem, readings, unread = values
    kept = tuple([Reading(a, b, c, d, e, tuple(f), g, h) for a, b, c, d, e, f, g, h in readings])
    return Line(n, text, kind, count, tuple(numbers), name, section, problem, kept, unread)


def parsed_of(read: dict) -> Parsed:
    """The reading kept by `reading_json`, as the reader's values again."""
    return Parsed(
        tuple(_line(values) for values in read["lines"]),
        read["style"],
        read["name"],
        tuple(_line(values) for values in read["partners"]),
        read["has_headers"],
    )


def stale_reading(structured: dict | None) -> bool:
    """Is there no reading to judge from (a row stored before readings were kept, or one
    kept in another shape)? Then the list is read again from what the player sent."""
    if structured is None:
        return True
    read = structured.get("read")
    return read is not None and read.get("shape") != READ_SHAPE


def numbers_of(structured: dict) -> frozenset[str]:
    found = {number for items in structured["sections"].values() for number, _ in items}
    if structured.get("partner"):
        found.add(structured["partner"])
    return frozenset(found)


def payload_of(structured: dict) -> service.CheckPayload:
    """The cards of a structured list as a structured deck request (unread lines in the
    main deck, where they are reported as cards that could not be found)."""
    deck: dict = {
        section: [{"card": number, "count": count} for number, count in items]
        for section, items in structured["sections"].items()
    }
    if structured["unread"]:
        deck["main"] = [
            *deck.get("main", []),
            *({"card": text, "count": count} for text, count in structured["unread"]),
        ]
    deck["partner"] = structured.get("partner")
    return {"deck": deck}


def read(fmt: Format, entry: dict, on: date, index: CardIndex | None = None) -> tuple[Report, dict]:
    """What a player sent (`decklist` text or a structured `deck`) read once and judged:
    (its report, its structured list with the reading, to store)."""
    parsed, report = service.read_and_check(fmt, service.as_payload(entry), on, index)
    return report, structured_of(report, parsed)


def judge(fmt: Format, structured: dict, on: date, index: CardIndex | None = None) -> Report:
    """A stored list judged on `on`: from its reading when it keeps one, else from its
    cards (a saved deck's structured list)."""
    if structured.get("read") is not None:
        return service.check_read(fmt, parsed_of(structured["read"]), on, index)
    return service.check(fmt, payload_of(structured), on, index)


def verdict_json(report: Report) -> dict:
    data = {
        "verdict": verdict_of(report.violations),
        "violations": [violation_json(v) for v in report.violations],
        "warnings": [violation_json(v) for v in report.warnings],
    }
    unread = unresolved_lines(report)
    if unread:
        data["unresolved"] = unread
    return data


def unresolved_lines(report: Report) -> list[dict]:
    """Lines that named no card, with their counts (once the rules model carries them)."""
    found = getattr(report.deck, "unresolved", None) or ()
    out = []
    for item in found:
        if isinstance(item, dict):
            out.append({"text": str(item.get("text", "")), "count": item.get("count")})
        else:
            text = getattr(item, "text", None) or str(item)
            out.append(
                {
                    "text": str(text),
                    "count": getattr(item, "count", None),
                    "line": getattr(item, "line", None),
                }
            )
    return out


def view_of(report: Report) -> dict:
    """A verdict with the list as it is shown (sections as in a validate answer)."""
    return {"legal": report.legal, **verdict_json(report), "deck": deck_json(report)}
