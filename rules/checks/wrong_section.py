from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from rules.cache import Bounded
from rules.checks.filters import CardFilter
from rules.checks.words import stacks_violation
from rules.games import section_words
from rules.model import Card, Context, Deck, Violation


@dataclass(frozen=True)
class WrongSection:
    """Each card must be in a section its kind may be in.

    What: `allowed` maps each section of the format to the cards it may hold (None:
    any card); `forbidden` cards may be in no section (DCG tokens); a section the
    format does not have may hold nothing. `unchecked` sections are judged by
    another check (the DBE Destiny Zone by `destiny-limit`).
    Why: DCG keeps Digi-Eggs in their own deck; DBE keeps Level M and Mastery cards
    in the Destiny Zone.
    Example: a Digi-Egg in the DCG main deck gets `wrong-section`.
    """

    rule: str
    allowed: Mapping[str, CardFilter | None]
    forbidden: tuple[CardFilter, ...] = ()
    unchecked: tuple[str, ...] = ()
    hints: Mapping[str, str] = field(default_factory=dict)
    missing_rule: str | None = None
    code: str = "wrong-section"
    # (section, card number) -> (card, the reason it may not be there, or None): the
    # same card object always gives the same answer.
    _known: Bounded[tuple[str, str], tuple[Card, str | None]] = field(
        default_factory=Bounded, init=False, repr=False, compare=False
    )

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        known = self._known
        for section in deck.sections():
            for stack in deck.stacks(section):
                card = stack.card
                seen = known.get((section, card.number))
                if seen is None or seen[0] is not card:
                    seen = known.keep((section, card.number), (card, self._reason(section, card)))
                reason = seen[1]
                if reason:
                    missing = section not in self.allowed and section not in self.unchecked
                    rule = (self.missing_rule or self.rule) if missing else self.rule
                    message = f"{stack.card.label} {reason}"
                    yield stacks_violation(self.code, message, rule, [stack], section)

    def _reason(self, section: str, card: Card) -> str | None:
        if not card.confirmed:
            return None  # its kind is not known: it stays where it was written
        for banned in self.forbidden:
            if banned.matches(card):
                return f"is a {banned.label}: it can never be part of a deck. Remove it."
        if section in self.unchecked:
            return None
        if section not in self.allowed:
            return (
                f"is listed in a {section_words(section)}, but this format has no "
                f"{section_words(section)}. Move it to the main deck or remove it."
            )
        allowed = self.allowed[section]
        if allowed is None or allowed.matches(card):
            return None
        hint = self.hints.get(card.kind) or self.hints.get(str(card.level)) or "Remove it."
        return (
            f"cannot go in the {section_words(section)}: only {allowed.label} may be there. {hint}"
        )
