"""Judge a decklist: parse, resolve against the pool, run the format's checks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date
from typing import Final

from rules.fingerprint import fingerprint
from rules.format import Format
from rules.model import Report, Violation
from rules.parse import parse
from rules.pool import CardIndex
from rules.resolve import Resolved, resolve_structured, resolve_text


def check_text(fmt: Format, index: CardIndex, text: str, on: date) -> Report:
    parsed = parse(text)
    return _judge(fmt, resolve_text(parsed, index), on, parsed.style)


def check_structured(
    fmt: Format,
    index: CardIndex,
    sections: Mapping[str, Iterable[tuple[str, int]]],
    partner: str | None,
    on: date,
) -> Report:
    return _judge(fmt, resolve_structured(sections, partner, index), on)


# Report(...) with keywords runs the named tuple's Python __new__; this builds it in C.
_new: Final = tuple.__new__


def _judge(fmt: Format, resolved: Resolved, on: date, style: str | None = None) -> Report:
    violations, warnings = fmt.judge(resolved.deck, on)
    return _new(
        Report,
        (
            fmt.id,  # format_id
            fmt.game,
            fmt.day(on),  # on
            resolved.deck,
            (*sorted(resolved.problems, key=_line), *violations),  # violations
            _once((*resolved.notes, *warnings)),  # warnings
            fingerprint(resolved.deck),
            style,
        ),
    )


def _line(violation: Violation) -> int:
    return violation.line or 0


def _once(warnings: tuple[Violation, ...]) -> tuple[Violation, ...]:
    """The same warning is never given twice (same code, cards and message)."""
    return tuple(dict.fromkeys(warnings))
