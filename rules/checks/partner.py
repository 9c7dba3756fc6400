from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rules.checks.destiny_limit import PARTNER_C
from rules.checks.words import labels, stacks_violation
from rules.model import Card, Context, Deck, Violation
from rules.pool import name_key


def _is_level_r(card: Card) -> bool:
    return card.kind == "digimon" and (card.level or "").upper() == "R"


def _names(card: Card) -> set[str]:
    return {name_key(n) for n in card.names if n}


@dataclass(frozen=True)
class PartnerCheck:
    """A declared partner is a Level R Digimon in the main deck; each partner Level C
    in the Destiny Zone names that partner (or one of its aliases) in its evolution box.

    What: a deck with no partner and no partner Level C is fine; a partner Level C
    without a declared partner, or not naming it, is not.
    Why: DBE rules, "Deck Construction" (partner R and partner C lines).
    Example: ACC-002 Greymon in the Destiny Zone of a deck with no partner gets `partner`.
    """

    rule: str
    code: str = "partner"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        partner = deck.partner
        if deck.more_partners and partner is not None:
            named = [partner, *deck.more_partners]
            yield Violation(
                self.code,
                f"Your deck names {len(named)} partners ({labels(named)}), but a deck may "
                f"declare only one. Keep one 'Partner:' line with one card. (Its partner "
                f"Level C cards are checked once there is one partner.)",
                self.rule,
                "main",
                tuple(c.number for c in named),
                deck.partner_line,
            )
            return
        if partner is not None:
            problems = list(self._check_partner(deck, partner))
            yield from problems
            if problems and not _is_level_r(partner):
                # Checking Level Cs against a card that cannot be a partner only repeats it.
                return
        for stack in deck.stacks("destiny"):
            card = stack.card
            if not PARTNER_C.matches(card):
                continue
            if partner is None:
                message = (
                    f"{card.label} is a partner Level C, but your deck declares no partner. "
                    f"Add a 'Partner:' line naming your Level R partner, or remove {card.label}."
                )
            elif not _names(partner) & {name_key(n) for n in card.evo_names}:
                message = (
                    f"{card.label} is a partner Level C, but its evolution box (the names it "
                    f"can evolve from) does not name your partner {partner.label}. Remove it or "
                    f"choose a Level C that names {partner.name or partner.number}."
                )
            else:
                continue
            yield stacks_violation(self.code, message, self.rule, [stack], "destiny")

    def _check_partner(self, deck: Deck, partner: Card) -> Iterator[Violation]:
        problem = None
        if not _is_level_r(partner):
            problem = "is not a Level R Digimon, so it cannot be your partner"
        elif not any(s.card.number == partner.number for s in deck.stacks("main")):
            problem = "is your declared partner, but it is not in your main deck. Add it"
        if problem:
            yield Violation(
                self.code,
                f"{partner.label} {problem}.",
                self.rule,
                "main",
                (partner.number,),
                deck.partner_line,
            )
