"""Deck statistics a player looks at rather than reads: bar data for inline SVG."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from math import ceil

from rules.games import GAMES
from rules.model import Deck


@dataclass(frozen=True)
class Bar:
    label: str
    count: int
    share: float  # 0..1 of the largest bar, for the SVG width / height
    css: str = ""


# Labels are drawn at 10 user units; 0.7 of that per character is wider than the
# average glyph of any common sans-serif, so the longest label of a chart plus a gap
# fits its slot. The SVG scales as a whole on a phone, so labels keep their room.
LABEL_EM = 10 * 0.7
LABEL_GAP = 12
MIN_SLOT = 48


@dataclass(frozen=True)
class Chart:
    title: str
    bars: list[Bar]
    slot: int = field(init=False)

    def __post_init__(self) -> None:
        longest = max((len(b.label) for b in self.bars), default=0)
        object.__setattr__(self, "slot", max(MIN_SLOT, ceil(longest * LABEL_EM) + LABEL_GAP))

    @property
    def width(self) -> int:
        return self.slot * len(self.bars)


def _bars(counts: Counter, order: list[str] | None = None, css_prefix: str = "") -> list[Bar]:
    keys = [k for k in (order or []) if counts.get(k)] + sorted(
        k for k in counts if k not in (order or [])
    )
    top = max(counts.values(), default=0) or 1
    return [Bar(k, counts[k], counts[k] / top, f"{css_prefix}{k.lower()}") for k in keys]


def deck_stats(deck: Deck) -> list[Chart]:
    stacks = [s for section in ("main", "destiny") for s in deck.stacks(section)]
    levels: Counter = Counter()
    kinds: Counter = Counter()
    colours: Counter = Counter()
    for stack in stacks:
        kinds[stack.card.kind] += stack.count
        if stack.card.kind == "digimon" and stack.card.level:
            levels[stack.card.level] += stack.count
        for colour in stack.card.colors:
            colours[colour] += stack.count
    charts = [
        Chart("Digimon by level", _bars(levels, list(GAMES[deck.game].levels), "level-")),
        Chart("Cards by kind", _bars(kinds, None, "kind-")),
    ]
    if colours:
        charts.append(Chart("Cards by colour", _bars(colours, None, "colour-")))
    return [c for c in charts if c.bars]
