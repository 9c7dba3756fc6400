"""The world a stored list is judged in, and which cards differ between two worlds.

A list's verdict depends on its list (fixed once read), the format's rules, the card
data of the cards it holds and what the day makes of those cards: their banned /
restricted status, the choice restrictions they are in, the announced changes still to
come (`upcoming-change`), whether their product is out (`not-released`). Those are the
only checks that read the day (rules/checks: limited_cards, choice_restriction,
upcoming_change, not_released).

So a world is: the judge (deckcheck's version and the rules' source), the format's rules
without its lists, and per card number of the pool one short digest of everything the
day and the card list make of that card (`facts`). Its id is a digest of all that: a
list judged in the world of now is current, whatever the date, until a list change, an
import or a new release date changes a card's facts. Two worlds' facts name the card
numbers that changed: only lists holding one of those can have another verdict, and
lists with unknown lines when cards were added.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, fields, replace
from datetime import date

from deckcheck.db import pools
from deckcheck.server.verdicts.keys import format_digest, judge_version
from rules.cache import Bounded
from rules.format import Format
from rules.games import has_products
from rules.lists import ListHistory
from rules.model import Card
from rules.numbers import number_key
from rules.pool import CardIndex
from rules.products import dcg_products


@dataclass(frozen=True)
class World:
    id: str
    format_id: str
    day: date
    rules: str  # the judge and the format's rules without its lists
    facts: dict[str, str]  # card number -> digest of what the world makes of it


# (format id, digest of its rules and lists, pool generation, day) -> its world: worked
# out once per worker and day (a few ms on a 4,000-card pool), never per request. Keyed
# by what the format says, not by which object says it: a format loaded again with the
# same rules finds its world, a changed one does not.
_worlds: Bounded[tuple[str, str, int, date], World] = Bounded(64)

# A day's list states: (the day, number key -> (status, the change that set it)).
States = list[tuple[date, dict]]


def _short(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=6).hexdigest()


def card_text(card: Card) -> str:
    """The card's data as the same text in every process (a set's repr follows the
    process's string hashing, so sets are sorted)."""
    values = []
    for item in fields(card):
        value = getattr(card, item.name)
        if isinstance(value, (set, frozenset)):
            value = sorted(value)
        values.append(f"{item.name}={value!r}")
    return ",".join(values)


def _pairs(lists: ListHistory, on: date) -> dict[str, tuple[str, ...]]:
    """The choice restrictions in force on a day: an id of each, and its cards' keys."""
    return {
        f"{'+'.join(a)}/{'+'.join(b)}@{pair.change.effective}": (*a, *b)
        for pair, a, b in lists.keyed_pairs_on(on)
    }


def _states(lists: ListHistory | None, day: date) -> States:
    """The list states of the day and of each announced day to come."""
    if lists is None:
        return []
    return [(d, lists.state_on(d)) for d in (day, *lists.upcoming(day))]


def _paired(lists: ListHistory | None, states: States, day: date) -> dict[str, list[str]]:
    """Per number key, the choice restrictions it is in today, then only what a day to
    come adds ("+") or ends ("-")."""
    paired: dict[str, list[str]] = {}
    if lists is None:
        return paired
    pairs = [(d, _pairs(lists, d)) for d, _ in states]
    today = pairs[0][1]
    for d, in_force in pairs:
        marks = in_force if d == day else {p: k for p, k in in_force.items() if p not in today}
        ended = {} if d == day else {p: k for p, k in today.items() if p not in in_force}
        for sign, chosen in (("+", marks), ("-", ended)):
            for pair, keys in chosen.items():
                for key in keys:
                    paired.setdefault(key, []).append(f"{'now' if d == day else d}{sign}{pair}")
    return paired


def _reported(lists: ListHistory | None, day: date) -> dict[str, list[str]]:
    """Per number key, the list changes known from one source that name it on the day
    (`list-change-reported` warnings, issue 43)."""
    found: dict[str, list[str]] = {}
    for change in lists.reported_on(day) if lists is not None else ():
        for ref, status in change.limits:
            found.setdefault(number_key(ref.number), []).append(
                f"reported:{status}@{change.effective}"
            )
    return found


def _key_facts(key: str, states: States) -> list[str]:
    """A number key's list status now, and only what a day to come changes: a card no
    list names has the same facts whatever the day (and so does every deck that holds
    only such cards)."""
    now = states[0][1].get(key) if states else None
    parts = [f"now:{key}={now[0]}@{now[1].effective}"] if now else []
    for d, state in states[1:]:
        found = state.get(key)
        if found != now:
            parts.append(f"{d}:{key}={found[0] if found else '-'}")
    return parts


class _Day:
    """What a day makes of every card of a format: worked out once, asked per card."""

    def __init__(self, fmt: Format, day: date) -> None:
        self.day = day
        self.states = _states(fmt.lists, day)
        self.paired = _paired(fmt.lists, self.states, day)
        self.reported = _reported(fmt.lists, day)
        self.releases = getattr(fmt.check_of("not-released"), "releases", None)

    def fact(self, number: str, card: Card) -> str:
        parts = [card_text(card)]
        for key in sorted({card.key, card.limit_key}):
            parts.extend(_key_facts(key, self.states))
            parts.extend(self.paired.get(key, ()))
            parts.extend(self.reported.get(key, ()))
        if self.releases is not None:
            product = self.releases.of_card(number)
            parts.append("out" if product is None or product.released <= self.day else "not-out")
        return _short("\x1f".join(parts))


def card_facts(fmt: Format, index: CardIndex, day: date) -> dict[str, str]:
    """Per card number of the pool: a digest of the card's data, its list status on the
    day and on each announced day to come, the choice restrictions it is in, and
    whether its product is out on the day."""
    seen = _Day(fmt, day)
    return {number: seen.fact(number, card) for number, card in index.cards.items()}


def products_out(fmt: Format, day: date) -> str:
    """Which known DCG products are out on the day: a deck's unconfirmed cards (numbers
    the list lacks, so no card facts) turn from `not-released` to unconfirmed when their
    product comes out, and a deck read after that day is judged again."""
    if not has_products(fmt.game):
        return ""
    out = [p.code for p in dcg_products().items if p.out_on(day) or p.code in fmt.early_on(day)]
    return ",".join(out)


def make_world(fmt: Format, index: CardIndex, day: date) -> World:
    facts = card_facts(fmt, index, day)
    rules = f"{judge_version()}/{format_digest(replace(fmt, lists=None))}/{fmt.game}"
    rules += f"/{products_out(fmt, day)}"
    digest = hashlib.sha256(rules.encode())
    for number in sorted(facts):
        digest.update(f"{number}={facts[number]};".encode("utf-8", "surrogatepass"))
    return World(digest.hexdigest()[:32], fmt.id, day, rules, facts)


def world_now(fmt: Format, day: date) -> tuple[World, CardIndex]:
    """The world of `fmt` today (`day`) and the card index it is of."""
    generation, index = pools().indexed(fmt.game)
    day = fmt.day(day)
    key = (fmt.id, format_digest(fmt), generation, day)
    found = _worlds.get(key)
    if found is not None and generation >= 0:
        return found, index
    world = make_world(fmt, index, day)
    if generation >= 0:
        _worlds.keep(key, world)
    return world, index


def changed_numbers(before: dict[str, str], after: dict[str, str]) -> tuple[set[str], bool]:
    """(card numbers whose facts differ, gone or came, whether any card came)."""
    changed = {n for n, fact in after.items() if before.get(n) != fact}
    gone = before.keys() - after.keys()
    added = bool(after.keys() - before.keys())
    return changed | gone, added
