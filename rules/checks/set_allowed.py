from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rules.checks.words import stacks_violation
from rules.model import Context, Deck, Violation


@dataclass(frozen=True)
class SetAllowed:
    """Only cards whose number starts with one of `prefixes` (case-insensitive).

    What: compares the letters before the dash of each card number.
    Why: DMCG official tournaments allowed starter (St, Sx) and booster (Bo, Bx)
    cards only, no promos.
    Example: a promo card in a `dmcg-tournament` deck gets `set-not-allowed`.
    """

    rule: str
    prefixes: tuple[str, ...]
    code: str = "set-not-allowed"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        allowed = {p.upper() for p in self.prefixes}
        shown = ", ".join(f"{p}-" for p in self.prefixes)
        for section in deck.sections():
            for stack in deck.stacks(section):
                prefix = stack.card.number.split("-", 1)[0].upper()
                if prefix in allowed:
                    continue
                message = (
                    f"{stack.card.label} cannot be used here: only cards numbered {shown} "
                    f"are allowed. Remove it."
                )
                yield stacks_violation(self.code, message, self.rule, [stack], section)
