"""Limitless TCG decklist objects: `{"digimon": [{"count", "name", ...}], "egg": [...]}`."""

from __future__ import annotations

from rules.budget import Budget
from rules.numbers import is_number
from rules.read.model import (
    MAX_COUNT,
    MAX_LINE,
    Line,
    Parsed,
    items_at_most,
    json_value,
    one_reading,
    over_budget,
)


def looks_like(stripped: str) -> bool:
    return stripped.startswith("{")


LIMITLESS_SECTIONS = {"digimon": "main", "tamer": "main", "option": "main", "egg": "eggs"}


def read(text: str, budget: Budget | None = None) -> Parsed | None:
    """A Limitless TCG decklist object: {"digimon": [{"count", "name", ...}], "egg": [...]}.

    An entry names its card by a full number (`id`, `number`, `cardNumber`, `code`), by
    `set` + `number`, or by `name`; entries are numbered like lines, in order.
    """
    budget = budget or Budget()
    if text.endswith("}") and not budget.affords(items_at_most(text)):
        return over_budget(text, 1, "limitless")  # not parsed: the objects would cost more
    data = json_value(text)
    if not isinstance(data, dict) or not set(data) & set(LIMITLESS_SECTIONS):
        return None
    held = sum(len(v) for v in data.values() if isinstance(v, list))
    if not budget.take_entries(held):
        return over_budget(text, 1, "limitless")
    lines: list[Line] = []
    for key, section in LIMITLESS_SECTIONS.items():
        items = data.get(key) or []
        if not isinstance(items, list):
            problem = f"the {key} section is not a list of card entries"
            lines.append(Line(len(lines) + 1, str(items)[:80], "unparsed", problem=problem))
            continue
        for item in items:
            position = len(lines) + 1
            lines.append(_limitless_entry(position, item, section))
    for key, items in data.items():
        # Metadata (a name, an id) is not a card; a list under a key deckcheck does not
        # read would be cards left out without a word.
        if key not in LIMITLESS_SECTIONS and isinstance(items, list) and items:
            known = ", ".join(LIMITLESS_SECTIONS)
            problem = f"deckcheck does not read a {key[:40]!r} section (only {known})"
            lines.append(Line(len(lines) + 1, str(items)[:80], "unparsed", problem=problem))
    return Parsed(tuple(lines), "limitless", has_headers=True)


def _limitless_entry(position: int, item: object, section: str) -> Line:
    if not isinstance(item, dict):
        return Line(position, str(item)[:80], "unparsed", problem="not a card entry")
    raw = " ".join(str(item.get(k, "")) for k in ("count", "name", "set", "number", "id"))[
        :MAX_LINE
    ]
    number = next(
        (
            str(item[k]).strip()
            for k in ("id", "cardNumber", "code", "number")
            if is_number(str(item.get(k, "")).strip())
        ),
        None,
    )
    if number is None and item.get("set") and item.get("number"):
        number = f"{item['set']}-{item['number']}"[:MAX_LINE]
    count = item.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        return Line(
            position, raw, "unparsed", problem=f"the count {count!r} is not 1 to {MAX_COUNT}"
        )
    name = str(item.get("name") or "").strip()[:MAX_LINE] or None
    if number is None and name is None:
        return Line(position, raw, "unparsed", problem="no card number or name here")
    numbers = (number,) if number else ()
    readings = one_reading(count, number, name)
    return Line(position, raw, "card", count, numbers, name, section, None, readings)
