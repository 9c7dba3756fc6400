from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rules.checks.words import cards
from rules.model import Context, Deck, Violation


@dataclass(frozen=True)
class NameLimit:
    """At most `limit` cards of one name, whatever their numbers.

    What: groups the main deck by card name: the printed Japanese name when the pool
    has it (the English names of this Japanese-only game are translations, which may
    differ for one printed name), else the English name, case-insensitive. A card's
    own `max_copies` raises the limit for its name. Unnamed cards are left alone.
    Why: DMCG's Hyper Colosseum rule counts names, and several names were printed
    under more than one number (Greymon St-2 and St-91).
    Example: 2 St-2 Greymon + 2 St-91 Greymon get `name-limit`.
    """

    rule: str
    limit: int | None = 3
    code: str = "name-limit"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        if self.limit is None:
            return
        groups: dict[str, list] = {}
        for stack in deck.stacks("main"):
            name = stack.card.name_ja or stack.card.name
            if name:
                groups.setdefault(name.casefold(), []).append(stack)
        for stacks in groups.values():
            total = sum(s.count for s in stacks)
            limit = max([self.limit, *(s.card.max_copies or 0 for s in stacks)])
            if total <= limit:
                continue
            name = stacks[0].card.name
            message = (
                f"You have {cards(total)} named {name} "
                f"({', '.join(f'{s.count} {s.card.label}' for s in stacks)}), "
                f"but a deck may have at most {limit} cards of one name. "
                f"Remove {cards(total - limit)}."
            )
            yield Violation(
                self.code,
                message,
                self.rule,
                section="main",
                cards=tuple(s.card.number for s in stacks),
                line=min((s.line for s in stacks if s.line), default=None),
            )
