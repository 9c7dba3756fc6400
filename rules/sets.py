"""The set a DCG card number belongs to: its series letters and the set's number.

DCG numbers are `<series><set>-<card>`: `BT1-010` is card 10 of BT1 (booster series
BT, set 1), `ST1-01` of starter ST1, `EX13-001` of EX13; promos have no set number
(`P-001`, `LM-001`). Release dates are kept per set (`rules.releases`) and a pool's
freshness is told by the newest set it holds of each series, so both need this split.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from rules.cache import memo

# A set number beyond any real one is noise, not a newer set ("BT99999-1").
_MAX_SET = 999


class SetId(NamedTuple):
    """`series` upper-case letters; `number` the set's number, None for promo-style sets."""

    series: str
    number: int | None

    @property
    def code(self) -> str:
        """As players and the card lists write it: `BT13`, `EX5`, `P`."""
        return self.series if self.number is None else f"{self.series}{self.number}"


@memo()
def set_of(card_number: str) -> SetId | None:
    """The set of a card number in any spelling (`bt01-010_P1` -> BT1), None when it has none.

    One pass over the part before the dash: letters, then digits; anything else is not
    a DCG set prefix. Cached: every check of a deck asks for each of its cards.
    """
    prefix, dash, _ = card_number.partition("-")
    return parse_set_code(prefix) if dash else None


def parse_set_code(code: str) -> SetId | None:
    """`BT13`, `bt13`, `EX05`, `P` -> their SetId; None when not letters then digits."""
    letters = 0
    while letters < len(code) and code[letters].isascii() and code[letters].isalpha():
        letters += 1
    digits = code[letters:]
    if letters == 0 or letters > 5 or len(digits) > 3:
        return None
    if not digits:
        return SetId(code.upper(), None)
    if not (digits.isascii() and digits.isdigit()) or int(digits) > _MAX_SET:
        return None
    return SetId(code[:letters].upper(), int(digits))


def newest_sets(card_numbers: Iterable[str]) -> dict[str, SetId]:
    """The newest numbered set of each series among `card_numbers` (BT -> BT26, ...).

    Series without numbered sets (promos) map to their SetId with number None.
    """
    newest: dict[str, SetId] = {}
    for number in card_numbers:
        found = set_of(number)
        if found is None:
            continue
        known = newest.get(found.series)
        if known is None or (found.number or 0) > (known.number or 0):
            newest[found.series] = found
    return newest


def is_newer_than_pool(card_number: str, newest: dict[str, SetId]) -> SetId | None:
    """The set of `card_number` when it is newer than anything the pool holds, else None.

    Newer means: a numbered set past the pool's newest of that series (EX13 when the
    pool ends at EX12), or a series the pool has never held. Used to tell a player that
    the card list may be behind, instead of calling a new card a typo.
    """
    found = set_of(card_number)
    if found is None:
        return None
    known = newest.get(found.series)
    if known is None:
        return found
    if found.number is not None and known.number is not None and found.number > known.number:
        return found
    return None
