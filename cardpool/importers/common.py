"""What the importers share: folding alternate arts, reporting bad rows."""

from __future__ import annotations

from cardpool.errors import BadRowError
from rules.numbers import number_key

MAX_REPORTED = 5


def fold_printings(rows: list[tuple[str, dict]], source: str) -> list[dict]:
    """One row per card number: alternate-art rows (`BT1-010_P1`) fold into their base.

    `rows` pairs each row with where it came from ("line 12"). Two rows for the
    same number that are not alternate arts are an error: which one is right?
    """
    kept: dict[str, tuple[str, dict]] = {}
    for where, row in rows:
        first = kept.get(row["key"])
        if first is None:
            kept[row["key"]] = (where, row)
            continue
        if "_" in row["number"]:
            continue
        if "_" in first[1]["number"]:
            kept[row["key"]] = (where, row)
            continue
        raise BadRowError(
            f"{source}, {where}: card number {row['number']} is listed twice (first at {first[0]})"
        )
    result = []
    for _, row in kept.values():
        base = row["number"].split("_", 1)[0]
        result.append({**row, "number": base, "key": number_key(base)})
    return result


def raise_row_errors(errors: list[str], source: str) -> None:
    if not errors:
        return
    shown = "; ".join(errors[:MAX_REPORTED])
    more = f" (and {len(errors) - MAX_REPORTED} more)" if len(errors) > MAX_REPORTED else ""
    raise BadRowError(f"{source}: {len(errors)} invalid card(s), nothing imported: {shown}{more}")


def describe(messages: dict | list) -> str:
    """marshmallow's nested error dict as `field: message` text."""
    if not isinstance(messages, dict):
        return "; ".join(str(message) for message in messages)
    parts = []
    for field, problem in messages.items():
        text = problem[0] if isinstance(problem, list) and problem else problem
        parts.append(f"{field}: {text}")
    return ", ".join(parts)


# Fields a person reads or matches by; the card's effect text may hold line breaks.
PLAIN_FIELDS = ("number", "name", "name_ja", "aliases", "evo_names", "types", "set_name", "traits")


def check_text(rows: list[dict], source: str) -> None:
    """Refuse control characters in names and numbers and lone surrogates anywhere.

    A NUL or an escape code in a card name matches nothing a player types and can
    break whatever shows it; a lone surrogate (JSON `"\\ud800"`) cannot even be
    stored as UTF-8. Each problem names the card by position and number.
    """
    errors = []
    for position, row in enumerate(rows, start=1):
        for field, value in row.items():
            if not isinstance(value, str) or value.isprintable():
                continue
            problem = _bad_character(value, plain=field in PLAIN_FIELDS)
            if problem:
                label = ascii(row.get("number", ""))[1:-1] or "no number"
                errors.append(f"card #{position} ({label}): {field} holds {problem}")
    raise_row_errors(errors, source)


def _bad_character(value: str, plain: bool) -> str | None:
    for char in value:
        code = ord(char)
        if 0xD800 <= code <= 0xDFFF:
            return f"a lone surrogate (U+{code:04X}), which is not text"
        if plain and (code < 0x20 or 0x7F <= code < 0xA0):
            return f"a control character (U+{code:04X}); names and numbers must be plain text"
    return None
