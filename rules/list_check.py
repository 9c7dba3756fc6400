"""Checking a list history file whole before it replaces the one in use.

The shape is the shipped file's (`rules/data/dcg_lists.json`, the contract's "Card lists
shipped and kept current"): an object with `changes`, each with `effective`,
`announced`, `limits`, `choice_restrictions`, `sources`, ... Keys this code does not
know are kept and ignored (the shape grows by adding keys). A problem that makes the
history wrong is an error naming the entry (`changes[3] (effective 2024-03-01):
limits[2]: ...`); a card number the pool does not hold is a warning, since a list may
name a card before the card list has it.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date
from typing import Any

from rules.lists import (
    BANNED,
    REPORTED,
    RESTRICTED,
    UNRESTRICTED,
    ListHistory,
    change_from_dict,
)
from rules.numbers import looks_like_number, number_key

STATUSES = (BANNED, RESTRICTED, UNRESTRICTED)
MAX_CHANGES = 1000
MAX_ENTRIES = 1000


class ListFileError(ValueError):
    """The history is wrong; the message names the entry. Nothing was changed."""


def check_history(
    raw: Any, known: Collection[str] | None = None, source: str = "", updated: str | None = None
) -> tuple[ListHistory, list[str]]:
    """The history `raw` describes, and its warnings; ListFileError if it is wrong.

    `known`: the number keys of the pool's cards (None: not checked).
    """
    changes = _changes(raw)
    warnings: list[str] = []
    last: tuple[int, date] | None = None
    state: dict[str, str] = {}
    for at, change in enumerate(changes):
        if not isinstance(change, dict):
            raise ListFileError(f"changes[{at}]: not an object")
        effective, where = _dates(change, f"changes[{at}]")
        # A reported change (one source) is no rule: it stands outside the order, so a
        # file may list changes after it that take effect earlier.
        if effective and change.get("confidence") != REPORTED:
            if last and effective < last[1]:
                raise ListFileError(
                    f"{where}: out of order: it takes effect before changes[{last[0]}] "
                    f"({last[1]}); list the changes in date order"
                )
            last = (at, effective)
        _strings(change, "sources", where)
        cards = _limits(change, where, warnings, known, state if effective else None)
        _choices(change, where, effective, warnings, known, cards)
    history = ListHistory([change_from_dict(c) for c in changes], source, updated)
    return history, warnings


def _changes(raw: Any) -> list:
    """The file's list of changes: an object's non-empty `changes`, at most MAX_CHANGES."""
    if not isinstance(raw, dict) or not isinstance(raw.get("changes"), list):
        raise ListFileError('not a list history: expected a JSON object with a "changes" list')
    changes = raw["changes"]
    if not changes:
        raise ListFileError('"changes" is empty: a history has at least one change')
    if len(changes) > MAX_CHANGES:
        raise ListFileError(f'"changes" has {len(changes)} entries; at most {MAX_CHANGES}')
    return changes


def _dates(change: dict, where: str) -> tuple[date | None, str]:
    """A change's effective day, and `where` with it said (for every later message); its
    announced day, if any, must not come after it."""
    effective = _day(change, "effective", where)
    where += f" (effective {effective})" if effective else " (no effective date)"
    announced = _day(change, "announced", where)
    if effective and announced and announced > effective:
        raise ListFileError(f"{where}: announced {announced}, after it took effect: dates swapped?")
    return effective, where


def _day(change: dict, key: str, where: str) -> date | None:
    value = change.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ListFileError(f"{where}: {key} {value!r} is not a date (YYYY-MM-DD) or null")
    try:
        return date.fromisoformat(value) if len(value) == 10 else _bad_day(where, key, value)
    except ValueError:
        return _bad_day(where, key, value)


def _bad_day(where: str, key: str, value: str) -> date:
    raise ListFileError(f"{where}: {key} {value[:40]!r} is not a date (YYYY-MM-DD)")


def _strings(change: dict, key: str, where: str) -> None:
    value = change.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ListFileError(f"{where}: {key} must be a list of texts")


def _card(item: Any, where: str, warnings: list[str], known: Collection[str] | None) -> str:
    """The number key of a `{"card": ..., "name": ...}` entry, checked."""
    if not isinstance(item, dict):
        raise ListFileError(f'{where}: not an object with "card" and "name"')
    number = item.get("card")
    if not isinstance(number, str) or not looks_like_number(number):
        raise ListFileError(f"{where}: {str(number)[:40]!r} is not a card number")
    name = item.get("name", "")
    if not isinstance(name, str):
        raise ListFileError(f"{where}: the name of {number} is not a text")
    key = number_key(number)
    if known is not None and key not in known:
        warnings.append(f"{where}: {number} {name} is not in the card list (yet)".rstrip())
    return key


def _limits(
    change: dict,
    where: str,
    warnings: list[str],
    known: Collection[str] | None,
    state: dict[str, str] | None,
) -> dict[str, str]:
    limits = change.get("limits", [])
    if not isinstance(limits, list) or len(limits) > MAX_ENTRIES:
        raise ListFileError(f"{where}: limits must be a list (of at most {MAX_ENTRIES})")
    seen: dict[str, str] = {}
    for at, item in enumerate(limits):
        here = f"{where}: limits[{at}]"
        key = _card(item, here, warnings, known)
        status = item.get("status")
        if status not in STATUSES:
            raise ListFileError(
                f"{here}: status {str(status)[:40]!r} is not one of {', '.join(STATUSES)}"
            )
        if key in seen:
            raise ListFileError(
                f"{here}: {item['card']} is listed twice in one change "
                f"({seen[key]} and {status}): which one holds?"
            )
        seen[key] = status
        if state is not None:
            if status == UNRESTRICTED and key not in state:
                warnings.append(
                    f"{here}: {item['card']} is lifted, but no earlier change limits it"
                )
            if status == UNRESTRICTED:
                state.pop(key, None)
            else:
                state[key] = status
    return seen


def _choices(
    change: dict,
    where: str,
    effective: date | None,
    warnings: list[str],
    known: Collection[str] | None,
    limited: dict[str, str],
) -> None:
    pairs = change.get("choice_restrictions", [])
    if not isinstance(pairs, list) or len(pairs) > MAX_ENTRIES:
        raise ListFileError(f"{where}: choice_restrictions must be a list")
    for at, pair in enumerate(pairs):
        here = f"{where}: choice_restrictions[{at}]"
        if not isinstance(pair, dict):
            raise ListFileError(f'{here}: not an object with "a" and "b"')
        sides = []
        for side in ("a", "b"):
            items = pair.get(side)
            if not isinstance(items, list) or not items or len(items) > MAX_ENTRIES:
                raise ListFileError(f"{here}: side {side} must be a list of at least one card")
            at_side = f"{here}.{side}"
            sides.append(
                {_card(item, f"{at_side}[{i}]", warnings, known) for i, item in enumerate(items)}
            )
        both = sides[0] & sides[1]
        if both:
            raise ListFileError(f"{here}: {sorted(both)[0]} is on both sides")
        banned = sorted(k for k in sides[0] | sides[1] if limited.get(k) == BANNED)
        if banned:
            raise ListFileError(
                f"{here}: {banned[0]} is banned by the same change and in a choice restriction"
            )
        ends = _day(pair, "ends", here)
        if ends and effective and ends <= effective:
            raise ListFileError(f"{here}: ends {ends}, before it takes effect ({effective})")
