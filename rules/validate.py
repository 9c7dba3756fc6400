"""Judge a decklist: parse, resolve against the pool, run the format's checks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date

from rules.budget import Budget
from rules.fingerprint import fingerprint
from rules.format import Format
from rules.model import Report, Violation
from rules.pool import CardIndex
from rules.read import Entry, Parsed, parse, parse_structured
from rules.resolve import resolve


def check_text(
    fmt: Format, index: CardIndex, text: str, on: date, budget: Budget | None = None
) -> Report:
    return check_parsed(fmt, index, parse(text, budget), on, budget)


def check_structured(
    fmt: Format,
    index: CardIndex,
    sections: Mapping[str, Iterable[Entry]],
    partner: str | None,
    on: date,
    budget: Budget | None = None,
) -> Report:
    return check_parsed(fmt, index, parse_structured(sections, partner), on, budget)


def check_parsed(
    fmt: Format, index: CardIndex, parsed: Parsed, on: date, budget: Budget | None = None
) -> Report:
    """The one path every input takes once parsed: resolve, then the format's checks."""
    day = fmt.day(on)
    resolved = resolve(parsed, index, budget, day, fmt.early_on(day))
    violations, warnings = fmt.judge(resolved.deck, on)
    return Report(
        format_id=fmt.id,
        game=fmt.game,
        on=fmt.day(on),
        deck=resolved.deck,
        violations=(*sorted(resolved.problems, key=_line), *violations),
        warnings=_once((*resolved.notes, *warnings)),
        fingerprint=fingerprint(resolved.deck),
        style=None if parsed.style == "structured" else parsed.style,
    )


def _line(violation: Violation) -> int:
    return violation.line or 0


def _once(warnings: tuple[Violation, ...]) -> tuple[Violation, ...]:
    """The same warning is never given twice (same code, cards and message)."""
    return tuple(dict.fromkeys(warnings))
