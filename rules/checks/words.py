"""Small phrases the checks share, so every message reads the same way, and the one
shape of a violation about some of a deck's cards."""

from __future__ import annotations

from collections.abc import Sequence

from rules.model import Card, Stack, Violation, plural


def copies(count: int) -> str:
    return plural(count, "copy", "copies")


def cards(count: int) -> str:
    return plural(count, "card")


def labels(items: list[Card] | tuple[Card, ...]) -> str:
    """`A`, `A and B`, `A, B and C`."""
    return and_list([card.label for card in items])


def and_list(parts: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`; empty for none."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def first_line(stacks: Sequence[Stack]) -> int | None:
    """The first line any of `stacks` was listed on (None for a structured deck)."""
    return min((s.line for s in stacks if s.line), default=None)


def stacks_violation(
    code: str, message: str, rule: str, stacks: Sequence[Stack], section: str | None = None
) -> Violation:
    """A violation about `stacks`: it names their card numbers and their first line."""
    numbers = tuple(s.card.number for s in stacks)
    return Violation(code, message, rule, section, numbers, first_line(stacks))
