from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from rules.checks.words import copies, stacks_violation
from rules.games import section_words
from rules.model import Card, Context, Deck, Stack, Violation, merged


def shared_numbers(stacks: tuple[Stack, ...]) -> dict[str, list[Stack]]:
    """The stacks that share a card number with another printing, by that number's key.

    A DCG printing with "(Rule) Card number: Also treated as [XX]" counts as XX for deck
    building (Comprehensive Rules 2-3-4-5; 2-3-5-2 in the Japanese text): it and XX's
    own printings share one copy limit and XX's list entries. Most decks hold none:
    then this is one pass that finds nothing.
    """
    if not any(stack.card.treated_as for stack in stacks):
        return {}
    groups: dict[str, list[Stack]] = {}
    for stack in stacks:
        card = stack.card
        groups.setdefault(card.limit_key, []).append(stack)
    return {
        key: group for key, group in groups.items() if any(stack.card.treated_as for stack in group)
    }


def shared_number(group: list[Stack]) -> str:
    """The number a group of `shared_numbers` counts as (the one "treated as")."""
    return next(s.card.treated_as for s in group if s.card.treated_as) or group[0].card.number


def printing_words(stack: Stack) -> str:
    """`2 RB1-004 Agumon (treated as P-009)`: a printing's copies, and the number it counts as."""
    treated = f" (treated as {stack.card.treated_as})" if stack.card.treated_as else ""
    return f"{stack.count} {stack.card.label}{treated}"


@dataclass(frozen=True)
class CopyLimit:
    """No card number more than its limit in each of `sections` (all printings together).

    What: the limit is `by_flag` for flagged cards (DBE Ace 1, Firewall 3), else
    `by_kind` (DBE Option 3, Evolution 2, DATA 1), else `default`; `None` means no
    limit. A card's own `max_copies` (a `[Rule]` on the card, such as the DCG 50-copy
    cards) replaces it, in every game. Cards with a flag in `per_deck_flags` or a kind
    in `per_deck_kinds` are counted over all `sections` together (DBE: the Ace,
    Firewall and DATA limits say "per deck"); the rest in each section on its own.
    Why: the copy limit is per card number; alternate arts share their number, and so
    does a printing "also treated as" another number (RB1-004 and P-009 share 4 copies).
    Example: 5 copies of ST1-03 in a DCG main deck get `copy-limit`.
    """

    rule: str
    default: int | None = 4
    by_kind: Mapping[str, int] = field(default_factory=dict)
    by_flag: Mapping[str, int] = field(default_factory=dict)
    sections: tuple[str, ...] = ("main",)
    per_deck_flags: frozenset[str] = frozenset()
    per_deck_kinds: frozenset[str] = frozenset()
    per_deck_sections: tuple[str, ...] = ()
    words: str = ""
    code: str = "copy-limit"
    # The lowest limit any card without its own can have: a stack of no more copies is
    # within its limit whatever its kind and flags (most are), so it is not looked into.
    _floor: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        limits = [self.default, *self.by_kind.values(), *self.by_flag.values()]
        floor = min((n for n in limits if n is not None), default=float("inf"))
        object.__setattr__(self, "_floor", floor)

    def limit_for(self, card: Card) -> int | None:
        if card.max_copies:
            return card.max_copies
        for flag, limit in self.by_flag.items():
            if flag in card.flags:
                return limit
        return self.by_kind.get(card.kind, self.default)

    def per_deck(self, card: Card) -> bool:
        return card.kind in self.per_deck_kinds or bool(card.flags & self.per_deck_flags)

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        for section in self.sections:
            stacks = deck.stacks(section)
            over: list[Stack] | None = None
            reprinted = False
            for stack in stacks:
                card = stack.card
                if card.treated_as is not None:
                    reprinted = True
                if stack.count <= (card.max_copies or self._floor):
                    continue  # within the lowest limit it can have
                limit = self.limit_for(card)
                if self.per_deck(card) or limit is None or stack.count <= limit:
                    continue
                if over is None:
                    over = []
                over.append(stack)
            # Most sections hold no printing treated as another number: one flag, no scan.
            shared = shared_numbers(stacks) if reprinted else {}
            for stack in over or ():
                card = stack.card
                if shared and card.limit_key in shared:
                    continue  # judged with the printings it shares a number with, below
                yield from self._judge(stack, section_words(section), section)
            for group in shared.values():
                yield from self._judge_shared(group, section)
        if self.per_deck_flags or self.per_deck_kinds:
            yield from self._judge_per_deck(deck)

    def _judge_per_deck(self, deck: Deck) -> Iterator[Violation]:
        """Cards limited per deck (DBE's per-kind limits) count over `per_deck_sections`."""
        counted = tuple(
            stack
            for section in self.per_deck_sections
            for stack in deck.stacks(section)
            if self.per_deck(stack.card)
        )
        where = " and ".join(section_words(s) for s in self.per_deck_sections)
        for stack in merged(counted):
            yield from self._judge(stack, where, None)

    def _judge_shared(self, group: list[Stack], section: str) -> Iterator[Violation]:
        """Printings that share one card number (RB1-004 treated as P-009) count together,
        against the limit of the number they share."""
        total = sum(stack.count for stack in group)
        limits = [limit for s in group if (limit := self.limit_for(s.card)) is not None]
        if not limits or total <= min(limits):
            return
        limit = min(limits)
        number = shared_number(group)
        parts = ", ".join(printing_words(s) for s in group)
        message = (
            f"You have {copies(total)} of card number {number} in your "
            f"{section_words(section)} ({parts}): a printing treated as {number} counts as "
            f"{number}, and the limit for this card number is {limit}{self.words}. "
            f"Remove {copies(total - limit)}."
        )
        yield stacks_violation(self.code, message, self.rule, group, section)

    def _judge(self, stack: Stack, where: str, section: str | None) -> Iterator[Violation]:
        limit = self.limit_for(stack.card)
        if limit is None or stack.count <= limit:
            return
        message = (
            f"You have {copies(stack.count)} of {stack.card.label} in your {where}, but the "
            f"limit for this card is {limit}{self.words}. Remove {copies(stack.count - limit)}."
        )
        yield stacks_violation(self.code, message, self.rule, [stack], section)
