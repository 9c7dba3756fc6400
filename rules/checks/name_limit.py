from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rules.checks.words import cards, stacks_violation
from rules.model import Context, Deck, Stack, Violation


@dataclass(frozen=True)
class NameLimit:
    """At most `limit` cards of one name, whatever their numbers.

    What: groups the main deck by card name: the printed Japanese name when the pool
    has it (the English names of this Japanese-only game are translations, which may
    differ for one printed name), else the English name, case-insensitive. A card's
    own `max_copies` raises the limit for its name. A card with a second name ("Also
    named Agumon", its `aliases`) counts toward that name too, and the message names
    every card counted. Unnamed cards are left alone.
    Why: DMCG's Hyper Colosseum rule counts names, and several names were printed
    under more than one number (Greymon St-2 and St-91).
    Example: 2 St-2 Greymon + 2 St-91 Greymon get `name-limit`; so do 3 St-1 Agumon and
    1 card also named Agumon.
    """

    rule: str
    limit: int | None = 3
    code: str = "name-limit"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        if self.limit is None:
            return
        stacks = deck.stacks("main")
        # Each name's group key: the printed Japanese name of a card of that English name
        # in the deck, so a second name ("also named Agumon") joins the cards named Agumon.
        keys = {
            s.card.name.casefold(): (s.card.name_ja or s.card.name).casefold()
            for s in stacks
            if s.card.name
        }
        groups: dict[str, list[tuple[Stack, str | None]]] = {}
        names: dict[str, str] = {}
        for stack in stacks:
            card = stack.card
            own = card.name_ja or card.name
            if own:
                groups.setdefault(own.casefold(), []).append((stack, None))
                names.setdefault(own.casefold(), card.name or own)
            for alias in card.aliases:
                key = keys.get(alias.casefold(), alias.casefold())
                if own and key == own.casefold():
                    continue
                groups.setdefault(key, []).append((stack, alias))
                names.setdefault(key, alias)
        seen: set[frozenset[str]] = set()
        for key, members in groups.items():
            # A card alone over the limit breaks it under each of its names: say it once.
            numbers = frozenset(stack.card.number for stack, _ in members)
            if numbers not in seen:
                seen.add(numbers)
                yield from self._judge(names[key], members)

    def _judge(self, name: str, members: list[tuple[Stack, str | None]]) -> Iterator[Violation]:
        total = sum(stack.count for stack, _ in members)
        limit = max([self.limit or 0, *(stack.card.max_copies or 0 for stack, _ in members)])
        if total <= limit:
            return
        counted = ", ".join(
            f"{stack.count} {stack.card.label}" + (f", also named {alias}" if alias else "")
            for stack, alias in members
        )
        message = (
            f"You have {cards(total)} named {name} ({counted}), "
            f"but a deck may have at most {cards(limit)} of one name. "
            f"Remove {cards(total - limit)}."
        )
        stacks = [stack for stack, _ in members]
        yield stacks_violation(self.code, message, self.rule, stacks, "main")
