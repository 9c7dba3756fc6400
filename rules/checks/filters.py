"""Which cards a rule is about, as data: a kind, a level, a flag."""

from __future__ import annotations

from dataclasses import dataclass

from rules.model import Card


@dataclass(frozen=True)
class CardFilter:
    """Matches cards of any of `kinds`, any of `levels`, carrying any of `flags`.

    Empty parts match everything, so `CardFilter(flags=frozenset({"ace"}))` is every Ace.
    `label` names the group in messages ("Level M Digimon").
    """

    label: str
    kinds: frozenset[str] = frozenset()
    levels: frozenset[str] = frozenset()
    flags: frozenset[str] = frozenset()
    not_levels: frozenset[str] = frozenset()

    def matches(self, card: Card) -> bool:
        if self.kinds and card.kind not in self.kinds:
            return False
        if self.flags and not self.flags & card.flags:
            return False
        if self.levels or self.not_levels:
            level = (card.level or "").lower()
            if (self.levels and level not in self.levels) or level in self.not_levels:
                return False
        return True


def kinds(label: str, *names: str) -> CardFilter:
    return CardFilter(label, kinds=frozenset(names))


def flagged(label: str, *names: str) -> CardFilter:
    return CardFilter(label, flags=frozenset(names))


def levelled(label: str, kind: str, *levels: str) -> CardFilter:
    return CardFilter(label, kinds=frozenset({kind}), levels=frozenset(lv.lower() for lv in levels))
