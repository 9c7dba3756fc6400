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


def describe(messages: dict) -> str:
    """marshmallow's nested error dict as `field: message` text."""
    parts = []
    for field, problem in messages.items():
        text = problem[0] if isinstance(problem, list) and problem else problem
        parts.append(f"{field}: {text}")
    return ", ".join(parts)
