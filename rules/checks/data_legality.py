from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from rules.checks.words import stacks_violation
from rules.model import Context, Deck, Violation
from rules.pool import name_key

_DATA_SUFFIX = re.compile(r"\s*DATA\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class DataLegality:
    """A DATA card's name, without its trailing "DATA", must be a name in the Destiny Zone.

    What: a Destiny Zone card counts by its name, its aliases ("Also named") and the
    names in its evolution box.
    Why: DBE rules, "DATA card Legality" (Mugendramon DATA needs Mugendramon, or a
    Level M that names it, in the Destiny Zone).
    Example: Machinedramon DATA with only Wargreymon in the Destiny Zone gets `data-legality`.
    """

    rule: str
    code: str = "data-legality"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        names = {
            name_key(name)
            for stack in deck.stacks("destiny")
            for name in (*stack.card.names, *stack.card.evo_names)
            if name
        }
        for stack in deck.stacks("main"):
            card = stack.card
            if card.kind != "data":
                continue
            wanted = _DATA_SUFFIX.sub("", card.name)
            if name_key(wanted) in names:
                continue
            message = (
                f"{card.label} needs a card named {wanted} in your Destiny Zone (by its name, "
                f"an alias (a name the card also counts as) or a name in its evolution box "
                f"(the box of names it can evolve from)), and there is none. Add one or remove "
                f"{card.label}."
            )
            yield stacks_violation(self.code, message, self.rule, [stack], "main")
