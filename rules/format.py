"""A format: a game plus the checks that judge its decks (XMage-style, data over checks)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace

from rules.lists import ListHistory
from rules.model import Check, Context, Deck, Violation


@dataclass(frozen=True)
class Format:
    """`checks` run in order, so violations come grouped by kind of rule.

    `summary` is the rules in plain words and `sources` the documents they come from
    (both shown on the format pages). `date` freezes the lists at one day, whatever
    day a request asks for (organizer formats).
    """

    id: str
    game: str
    name: str
    checks: tuple[Check, ...]
    sections: tuple[str, ...] = ("main",)
    summary: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    lists: ListHistory | None = None
    date: dt.date | None = None
    extends: str | None = None
    origin: str = "built-in"
    notes: tuple[str, ...] = field(default=())
    # Products legal early (a pre-release event): their cards count as released from
    # `early_from` (None: from any day), whatever their English day.
    early: tuple[str, ...] = ()
    early_from: dt.date | None = None

    def day(self, requested: dt.date) -> dt.date:
        return self.date or requested

    def early_on(self, day: dt.date) -> frozenset[str]:
        """The product codes legal early on `day`."""
        if not self.early or (self.early_from is not None and day < self.early_from):
            return frozenset()
        return frozenset(self.early)

    def judge(self, deck: Deck, on: dt.date) -> tuple[list[Violation], list[Violation]]:
        """(violations, warnings) of a resolved deck on a day."""
        ctx = Context(self.day(on), self.lists, self.early_on(self.day(on)))
        violations: list[Violation] = []
        warnings: list[Violation] = []
        for check in self.checks:
            for found in check.check(deck, ctx):
                (warnings if found.warning else violations).append(found)
        return violations, warnings

    def check_of(self, code: str) -> Check | None:
        return next((c for c in self.checks if c.code == code), None)

    def with_check(self, code: str, new: Check | None) -> Format:
        """Replace (or drop, with None) the check with `code`; append it if absent."""
        checks = [c for c in self.checks if c.code != code]
        if new is not None:
            found = [i for i, c in enumerate(self.checks) if c.code == code]
            checks.insert(found[0] if found else len(checks), new)
        return replace(self, checks=tuple(checks))
