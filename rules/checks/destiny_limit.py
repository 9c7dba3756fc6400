from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rules.checks.filters import CardFilter, flagged, kinds, levelled
from rules.checks.words import cards, copies, labels, stacks_violation
from rules.model import Context, Deck, Stack, Violation

LEVEL_M = levelled("Level M Digimon", "digimon", "M")
PARTNER_C = levelled("partner Level C Digimon", "digimon", "C")
PROXY = flagged("Proxy cards", "proxy")
MASTERY = kinds("Mastery cards", "mastery")


@dataclass(frozen=True)
class DestinyLimit:
    """The DBE Destiny Zone holds at most 1 Level M, 2 different partner Level C,
    1 Proxy and 1 Mastery card, and nothing else.

    What: sorts the Destiny Zone's cards into those four groups and counts each;
    a card in none of them may not be there.
    Why: DBE rules, "Deck Construction".
    Example: two Level M Digimon in the Destiny Zone get `destiny-limit`.
    """

    rule: str
    code: str = "destiny-limit"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        stacks = deck.stacks("destiny")
        groups: dict[CardFilter, list[Stack]] = {
            g: [] for g in (LEVEL_M, PARTNER_C, PROXY, MASTERY)
        }
        for stack in stacks:
            group = next((g for g in groups if g.matches(stack.card)), None)
            if group is None:
                yield self._violation(
                    [stack],
                    f"{stack.card.label} cannot be in the Destiny Zone: only a Level M Digimon, "
                    f"partner Level C Digimon, a Proxy card and a Mastery card may be there. "
                    f"Move it to the main deck or remove it.",
                )
            else:
                groups[group].append(stack)
        for group, limit in ((LEVEL_M, 1), (PROXY, 1), (MASTERY, 1)):
            yield from self._at_most(groups[group], group, limit)
        yield from self._partner_cs(groups[PARTNER_C])

    def _at_most(self, stacks: list[Stack], group: CardFilter, limit: int) -> Iterator[Violation]:
        total = sum(s.count for s in stacks)
        if total > limit:
            yield self._violation(
                stacks,
                f"Your Destiny Zone has {cards(total)} that are {group.label} "
                f"({labels([s.card for s in stacks])}), but it may hold at most {limit}. "
                f"Remove {cards(total - limit)}.",
            )

    def _partner_cs(self, stacks: list[Stack]) -> Iterator[Violation]:
        for stack in stacks:
            if stack.count > 1:
                yield self._violation(
                    [stack],
                    f"You have {copies(stack.count)} of {stack.card.label} in the Destiny Zone, "
                    f"but each partner Level C may be there only once. "
                    f"Remove {copies(stack.count - 1)}.",
                )
        if len(stacks) > 2:
            yield self._violation(
                stacks,
                f"Your Destiny Zone has {len(stacks)} different partner Level C Digimon "
                f"({labels([s.card for s in stacks])}), but it may hold at most 2. "
                f"Remove {cards(len(stacks) - 2)}.",
            )

    def _violation(self, stacks: list[Stack], message: str) -> Violation:
        return stacks_violation(self.code, message, self.rule, stacks, "destiny")
