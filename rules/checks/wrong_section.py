from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

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
    # Per section, the kinds that may be there whatever their level and flags (`_ANY`:
    # every kind), and the flags that bar a card from every section: worked out from the
    # fields when the check is built, so most cards are passed by one lookup, none kept.
    _quiet: Mapping[str, frozenset[str]] = field(init=False, repr=False, compare=False)
    _barred: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        barred = frozenset().union(*(f.flags for f in self.forbidden))
        flags_only = all(
            f.flags and f == CardFilter(f.label, flags=f.flags) for f in self.forbidden
        )
        quiet = {} if not flags_only else _quiet_kinds(self.allowed, self.unchecked)
        object.__setattr__(self, "_quiet", quiet)
        object.__setattr__(self, "_barred", barred)

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        for section in deck.sections():
            quiet = self._quiet.get(section)
            for stack in deck.stacks(section):
                card = stack.card
                if quiet is not None and (quiet is _ANY or card.kind in quiet):
                    if not card.flags or self._barred.isdisjoint(card.flags):
                        continue  # a kind the section holds, with no barred flag
                reason = self._reason(section, card)
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


_ANY: frozenset[str] = frozenset({"*"})


def _quiet_kinds(
    allowed: Mapping[str, CardFilter | None], unchecked: tuple[str, ...]
) -> dict[str, frozenset[str]]:
    """The sections whose cards are judged by kind alone, each with the kinds it holds
    (`_ANY`: every kind, for a section with no filter or judged by another check)."""
    quiet = {section: _ANY for section in unchecked}
    for section, held in allowed.items():
        if held is None:
            quiet[section] = _ANY
        elif held == CardFilter(held.label, kinds=held.kinds):
            quiet[section] = held.kinds
    return quiet
