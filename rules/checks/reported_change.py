"""`list-change-reported`: a list change known from one source only, as a warning."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rules.checks.words import copies
from rules.lists import BANNED, OFFICIAL_PAGE, RESTRICTED, Change, reported_words
from rules.model import Context, Deck, Violation
from rules.numbers import number_key

RULE = "DCG restricted and banned list, as reported (one source; not confirmed)"


@dataclass(frozen=True)
class ReportedChange:
    """Warns of a reported list change a deck would break; never makes it illegal.

    What: for each change of the history marked `"confidence": "reported"` in force on
    the check date (or announced by then), the deck's cards it bans (any copy) or
    restricts (more than 1 copy) make one warning naming the cards, the date, the
    source and the official page to check.
    Why: a change known from a single source (a companion app quoting the official
    page) may be real, or a misreading; a player and an organizer should know of it,
    but a verdict rests on confirmed facts. It becomes a rule when a second source or
    an organizer confirms it (`cardpool lists import` with the change not `reported`).
    Example: BT15-003 x2 on 2026-12-04 warns "Reported, not confirmed: from 2026-09-01,
    BT15-003 Nyaromon reported: no copies (this deck has 2 copies) ...".
    """

    rule: str = RULE
    code: str = "list-change-reported"

    def check(self, deck: Deck, ctx: Context) -> Iterator[Violation]:
        changes = ctx.lists.reported_on(ctx.on) if ctx.lists is not None else ()
        if not changes:
            return
        present = deck.by_key  # kept on the deck: most decks hold none of these cards
        for change in changes:
            # A printing "also treated as" a listed number is not under its own key.
            if not deck.has_reprints and not any(
                number_key(ref.number) in present for ref, _ in change.limits
            ):
                continue
            held = {stack.card.limit_key: stack for stack in deck.totals}
            touched = [
                (ref, status, held[key])
                for ref, status in change.limits
                if (key := number_key(ref.number)) in held
                and (status == BANNED or (status == RESTRICTED and held[key].count > 1))
            ]
            if touched:
                yield self._warning(change, touched)

    def _warning(self, change: Change, touched: list) -> Violation:
        said = "; ".join(
            f"{ref.label} {reported_words(status)} (this deck has {copies(stack.count)})"
            for ref, status, stack in touched
        )
        day = change.effective.isoformat() if change.effective else "a day not known"
        source = "; ".join(change.sources) or "one source"
        message = (
            f"Reported, not confirmed: from {day}, {said}. deckcheck knows this list change "
            f"from one source only ({source}), so it does not apply it. Check the official "
            f"page, {OFFICIAL_PAGE}, before an event."
        )
        cards = tuple(stack.card.number for _, _, stack in touched)
        return Violation(self.code, message, self.rule, cards=cards, warning=True)
