from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from rules.checks.words import copies, section_name
from rules.model import Card, Context, Deck, Violation


@dataclass(frozen=True)
class CopyLimit:
    """No card number more than its limit in each of `sections` (all printings together).

    What: the limit is `by_flag` for flagged cards (DBE Ace 1, Firewall 3), else
    `by_kind` (DBE Option 3, Evolution 2, DATA 1), else `default`; `None` means no
    limit. With `card_rule`, a card's own `max_copies` (a `[Rule]` on the card, such
    as the DCG 50-copy cards) replaces it.
    Why: the copy limit is per card number; alternate arts share their number.
    Example: 5 copies of ST1-03 in a DCG main deck get `copy-limit`.
    """

    rule: str
    default: int | None = 4
    by_kind: Mapping[str, int] = field(default_factory=dict)
    by_flag: Mapping[str, int] = field(default_factory=dict)
    sections: tuple[str, ...] = ("main",)
    card_rule: bool = True
    code: str = "copy-limit"

    def limit_for(self, card: Card) -> int | None:
        if self.card_rule and card.max_copies:
            return card.max_copies
        for flag, limit in self.by_flag.items():
            if flag in card.flags:
                return limit
        return self.by_kind.get(card.kind, self.default)

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        for section in self.sections:
            for stack in deck.stacks(section):
                limit = self.limit_for(stack.card)
                if limit is None or stack.count <= limit:
                    continue
                message = (
                    f"You have {copies(stack.count)} of {stack.card.label} in your "
                    f"{section_name(section)}, but the limit for this card is {limit}. "
                    f"Remove {copies(stack.count - limit)}."
                )
                yield Violation(
                    self.code,
                    message,
                    self.rule,
                    section=section,
                    cards=(stack.card.number,),
                    line=stack.line,
                )
