"""Banned, restricted and choice-restricted lists that change over time (DCG).

A history is a list of dated changes. The limit on a card on a day is the last
change for it that took effect on or before that day. A change whose effective
date is unknown is kept (and shown, with its doubt) but never enforced.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from dataclasses import dataclass
from datetime import date
from importlib import resources

from rules.numbers import number_key

BANNED, RESTRICTED, UNRESTRICTED = "banned", "restricted", "unrestricted"
# A change known from one source only (contract): shown and warned of, never enforced.
REPORTED = "reported"
OFFICIAL_PAGE = "https://world.digimoncard.com/rule/restriction_card/"


def reported_words(status: str) -> str:
    """A reported limit in words that never say "banned" (contract: feeds and saved
    decks say "reported"): `reported: no copies`, `reported: 1 copy`."""
    return {BANNED: "reported: no copies", RESTRICTED: "reported: 1 copy"}.get(
        status, f"reported: {status}"
    )


@dataclass(frozen=True)
class CardRef:
    number: str
    name: str = ""

    @property
    def label(self) -> str:
        return f"{self.number} {self.name}".strip()


@dataclass(frozen=True)
class Change:
    """One announcement's limits, as they took (or will take) effect."""

    effective: date | None
    announced: date | None = None
    limits: tuple[tuple[CardRef, str], ...] = ()
    choices: tuple[tuple[tuple[CardRef, ...], tuple[CardRef, ...]], ...] = ()
    confidence: str | None = None
    doubt: str | None = None
    sources: tuple[str, ...] = ()
    # Per choice restriction (same order as `choices`): the day it stops, if it ends
    # (the file's "ends" key); in force up to the day before.
    choice_ends: tuple[date | None, ...] = ()

    def ends(self, at: int) -> date | None:
        return self.choice_ends[at] if at < len(self.choice_ends) else None

    @property
    def reported(self) -> bool:
        """Known from one source only: a warning (`list-change-reported`), not a rule."""
        return self.confidence == REPORTED

    @property
    def enforced(self) -> bool:
        return self.effective is not None and not self.reported


@dataclass(frozen=True)
class ChoiceRestriction:
    """Two sides that may not share a deck (a "banned pair")."""

    a: tuple[CardRef, ...]
    b: tuple[CardRef, ...]
    change: Change


# A choice restriction with the number keys of its two sides.
KeyedPair = tuple[ChoiceRestriction, tuple[str, ...], tuple[str, ...]]


class ListHistory:
    """Every change, with questions answered for a given day.

    `source` and `updated` say where the history came from and when (the shipped file,
    or an imported one: `cardpool lists import`).
    """

    def __init__(
        self, changes: list[Change], source: str | None = None, updated: str | None = None
    ) -> None:
        self.source = source
        self.updated = updated
        self.changes = sorted(changes, key=lambda c: (c.effective is None, c.effective or date.min))
        self._enforced = [c for c in self.changes if c.enforced]
        self._reported = tuple(c for c in self.changes if c.reported)
        self._announced = [c for c in self._enforced if c.announced]
        # Per card (by number key, so any spelling matches), its changes in date order.
        self._by_key: dict[str, list[tuple[str, Change]]] = {}
        for change in self._enforced:
            for ref, status in change.limits:
                self._by_key.setdefault(number_key(ref.number), []).append((status, change))
        # Every answer for a day changes only on a day some change names (in force,
        # announced, a choice ending): between two such days it is one answer, worked out
        # here for each stretch, and a day's answer is its stretch's (one bisect).
        self._days = sorted(
            {d for c in self.changes for d in (c.effective, c.announced, *c.choice_ends) if d}
        )
        firsts = [date.min, *self._days]  # the first day of each stretch
        self._states = [self._state_on(d) for d in firsts]
        self._pairs = [self._keyed_pairs_on(d) for d in firsts]
        self._upcoming = [self._upcoming_on(d) for d in firsts]
        self._reported_on = [self._reported_by(d) for d in firsts]

    def _stretch(self, on: date) -> int:
        """The stretch of days `on` falls in: how many named days are on or before it."""
        return bisect_right(self._days, on)

    def status_on(self, number: str, on: date) -> tuple[str, Change] | None:
        """`("banned"|"restricted", change)` for a card limited on that day, else None."""
        return self.state_on(on).get(number_key(number))

    def state_on(self, on: date) -> dict[str, tuple[str, Change]]:
        """Every card limited on a day, by number key: (status, the change that set it)."""
        return self._states[self._stretch(on)]

    def _state_on(self, on: date) -> dict[str, tuple[str, Change]]:
        state: dict[str, tuple[str, Change]] = {}
        for key, changes in self._by_key.items():
            found: tuple[str, Change] | None = None
            for status, change in changes:
                if change.effective and change.effective > on:
                    break
                found = None if status == UNRESTRICTED else (status, change)
            if found:
                state[key] = found
        return state

    def pairs_on(self, on: date) -> list[ChoiceRestriction]:
        return [
            ChoiceRestriction(a, b, change)
            for change in self._enforced
            if change.effective and change.effective <= on
            for at, (a, b) in enumerate(change.choices)
            if not ((end := change.ends(at)) and end <= on)
        ]

    def keyed_pairs_on(self, on: date) -> tuple[KeyedPair, ...]:
        """`pairs_on`, each with the number keys of its two sides."""
        return self._pairs[self._stretch(on)]

    def _keyed_pairs_on(self, on: date) -> tuple[KeyedPair, ...]:
        return tuple(
            (
                pair,
                tuple(number_key(r.number) for r in pair.a),
                tuple(number_key(r.number) for r in pair.b),
            )
            for pair in self.pairs_on(on)
        )

    def upcoming(self, on: date) -> tuple[date, ...]:
        """Effective dates after `on` of changes already announced by `on`."""
        return self._upcoming[self._stretch(on)]

    def _upcoming_on(self, on: date) -> tuple[date, ...]:
        return tuple(
            sorted(
                {
                    c.effective
                    for c in self._announced
                    if c.announced and c.effective and c.announced <= on < c.effective
                }
            )
        )

    def reported_on(self, on: date) -> tuple[Change, ...]:
        """The reported changes that would be in force on `on` (or are announced by then)."""
        return self._reported_on[self._stretch(on)]

    def _reported_by(self, on: date) -> tuple[Change, ...]:
        return tuple(
            c
            for c in self._reported
            if (c.effective and c.effective <= on) or (c.announced and c.announced <= on)
        )

    def with_extra(self, extra: list[Change]) -> ListHistory:
        return ListHistory([*self.changes, *extra], self.source, self.updated)


def _refs(items: list[dict]) -> tuple[CardRef, ...]:
    return tuple(CardRef(i["card"], i.get("name", "")) for i in items)


def _parse_day(text: str | None) -> date | None:
    return date.fromisoformat(text) if text else None


def change_from_dict(data: dict) -> Change:
    return Change(
        effective=_parse_day(data.get("effective")),
        announced=_parse_day(data.get("announced")),
        limits=tuple((CardRef(i["card"], i.get("name", "")), i["status"]) for i in data["limits"]),
        choices=tuple((_refs(p["a"]), _refs(p["b"])) for p in data.get("choice_restrictions", [])),
        confidence=data.get("confidence"),
        doubt=data.get("doubt"),
        sources=tuple(data.get("sources", ())),
        choice_ends=tuple(_parse_day(p.get("ends")) for p in data.get("choice_restrictions", [])),
    )


SHIPPED_SOURCE = "shipped with deckcheck (rules/data/{name})"


def load_history(name: str = "dcg_lists.json") -> ListHistory:
    """A history shipped in `rules/data`."""
    raw = shipped_raw(name)
    return ListHistory(
        [change_from_dict(item) for item in raw["changes"]],
        SHIPPED_SOURCE.format(name=name),
        raw.get("updated"),
    )


def shipped_raw(name: str = "dcg_lists.json") -> dict:
    """The shipped history file as it is (the shape `cardpool lists import` reads)."""
    raw: dict = json.loads(resources.files("rules.data").joinpath(name).read_text("utf-8"))
    return raw
