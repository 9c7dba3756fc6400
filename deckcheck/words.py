"""Words for people on the pages: counts with their plural, days and times as a person
writes them, format names instead of ids, and a problem named by its cards.

Times a page can only know in the reader's own zone are written here with the offset
they were given (`5 December at 09:00 (UTC+1)`); the events script rewrites them in the
reader's zone where it runs.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from flask import Flask

from deckcheck.format_registry import registry
from rules.lists import reported_words
from rules.model import Report, Violation
from rules.unconfirmed import summary
from rules.verdict import verdict_of

MONTHS = (
    "January February March April May June July August September October November December"
).split()
# A problem's kind in a few words, for a table cell that names its cards after it.
TITLES = {
    "unknown-card": "Unknown card",
    "ambiguous-card": "Unclear name",
    "unparsed-line": "Unread line",
    "copy-limit": "Too many copies",
    "name-limit": "Too many of one name",
    "banned": "Banned",
    "restricted": "Restricted to 1",
    "choice-restriction": "Choice restriction",
    "wrong-section": "Wrong section",
    "not-released": "Not released yet",
    "release-unverified": "Maybe not out yet",
    "set-not-allowed": "Set not allowed",
}


def plural(count: int, one: str, many: str | None = None) -> str:
    """`1 player`, `2 players`; `plural(n, "player has", "players have")`."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def day_words(day: date | str | None) -> str:
    """`2026-12-05` -> `5 December 2026`."""
    if not day:
        return ""
    if isinstance(day, str):
        try:
            return day_words(date.fromisoformat(day[:10]))
        except ValueError:
            return day
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def moment_words(when: datetime | str | None, year: bool = False) -> str:
    """`2026-12-05T09:00:00+01:00` -> `5 December at 09:00 (UTC+1)`, in the zone it was
    written in (the organizer's); `year=True` adds the year after the day."""
    if not when:
        return ""
    if isinstance(when, str):
        try:
            return moment_words(datetime.fromisoformat(when), year)
        except ValueError:
            return when
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    offset = when.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    zone = "UTC" if minutes == 0 else f"UTC{'+' if minutes > 0 else '-'}{_hours(abs(minutes))}"
    on = f"{when.day} {MONTHS[when.month - 1]}" + (f" {when.year}" if year else "")
    return f"{on} at {when:%H:%M} ({zone})"


def _hours(minutes: int) -> str:
    hours, rest = divmod(minutes, 60)
    return f"{hours}" if not rest else f"{hours}:{rest:02d}"


def format_name(format_id: str) -> str:
    fmt = registry().formats.get(format_id)
    return fmt.name if fmt else format_id


def problem_words(violation: Violation, report: Report) -> str:
    """A problem named by its cards (`Too many copies: ST1-03 Agumon`), or its own
    sentence when no card stands behind it (a deck size)."""
    if not violation.cards:
        return violation.message
    names = {e.card.number: e.card.name for e in report.deck.entries}
    cards = ", ".join(f"{n} {names[n]}" if names.get(n) else n for n in violation.cards)
    title = TITLES.get(violation.code, violation.code.replace("-", " ").capitalize())
    return f"{title}: {cards}"


def init_app(app: Flask) -> None:
    # Contract, "Verdicts deckcheck cannot confirm": pages say "Can't confirm", not
    # "Not legal", when the only problems are cards the list lacks yet.
    app.add_template_filter(verdict_of, "verdict")
    app.add_template_filter(summary, "cant_confirm")
    app.add_template_filter(reported_words, "reported")
    app.add_template_filter(plural, "plural")
    app.add_template_filter(day_words, "day")
    app.add_template_filter(moment_words, "moment")
    app.add_template_filter(format_name, "format_name")
