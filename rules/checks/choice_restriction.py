from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rules.checks.limited_cards import LIST_SOURCE, list_citation
from rules.checks.words import labels, stacks_violation
from rules.model import Context, Deck, Violation


@dataclass(frozen=True)
class ChoiceRestrictionCheck:
    """No card of one side of a choice restriction together with a card of the other.

    What: for each pair in force on the day, collects the deck's cards of side a and
    side b; both non-empty is a violation.
    Why: DCG "banned pairs" let a deck play either side, never both.
    Example: EX2-007 with EX7-064 in a deck dated 2025-04-01 gets `choice-restriction`.
    """

    rule: str = LIST_SOURCE
    code: str = "choice-restriction"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        if ctx.lists is None:
            return
        present = deck.by_key
        for pair, keys_a, keys_b in ctx.lists.keyed_pairs_on(ctx.on):
            side_a = [present[k] for k in keys_a if k in present]
            if not side_a:
                continue
            side_b = [present[k] for k in keys_b if k in present]
            if not side_b:
                continue
            a_cards = [s.card for s in side_a]
            b_cards = [s.card for s in side_b]
            message = (
                f"{labels(a_cards)} may not be in the same deck as {labels(b_cards)} "
                f"(a choice restriction since {pair.change.effective}: a deck may use cards "
                f"of one side or the other, not both). "
                f"Keep one side and remove the other."
            )
            yield stacks_violation(self.code, message, list_citation(pair.change), side_a + side_b)
