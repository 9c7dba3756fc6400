"""Judge a decklist: parse, resolve against the pool, run the format's checks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date

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


def _judge(fmt: Format, resolved: Resolved, on: date, style: str | None = None) -> Report:
    violations, warnings = fmt.judge(resolved.deck, on)
    return Report(
        format_id=fmt.id,
        game=fmt.game,
        on=fmt.day(on),
        deck=resolved.deck,
        violations=(*sorted(resolved.problems, key=lambda v: v.line or 0), *violations),
        warnings=_once((*resolved.notes, *warnings)),
        fingerprint=fingerprint(resolved.deck),
        style=style,
    )


def _once(warnings: tuple[Violation, ...]) -> tuple[Violation, ...]:
    """The same warning is never given twice (same code, cards and message)."""
    return tuple(dict.fromkeys(warnings))
