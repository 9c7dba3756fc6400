"""A deck's versions: one version's list, and the diff of two (per card number)."""

from __future__ import annotations

import json

from deckcheck.errors import ApiError
from deckcheck.server.packing import unpack
from rules.pool import CardIndex


def version_json(row: dict) -> dict:
    """A version: what was sent (`decklist` or `deck`) and what it was read as."""
    structured = unpack(row["structured"])
    data = {
        "version": row["version"],
        "saved_at": row["saved_at"],
        "fingerprint": row["fingerprint"],
        "legal": bool(row["legal"]),
        "verdict": verdict_as_saved(row),
        **json.loads(row["entry"]),
        "cards": {
            section: [{"number": n, "count": c} for n, c in items]
            for section, items in structured["sections"].items()
        },
        "partner": structured.get("partner"),
        "unread": [{"text": t, "count": c} for t, c in structured["unread"]],
    }
    return data


def verdict_as_saved(row: dict) -> str:
    """A version's legal / illegal / unconfirmed as it was saved (a row the migration did
    not reach, NULL, says what its `legal` says)."""
    return row["verdict"] or ("legal" if row["legal"] else "illegal")


def version_number(text: str | None, field: str, default: int) -> int:
    """`?from=` / `?to=`: a version number, or a 422 that says what is wrong."""
    if text is None or text == "":
        return default
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        raise ApiError(
            422,
            "invalid-request",
            "Some fields are missing or wrong.",
            {"fields": {field: ["Not a version number (1, 2, 3...)."]}},
        )
    return int(text)


PAGE_MAX = 100  # versions per page of GET .../versions


def page_size(text: str | None) -> int:
    """`?limit=`: 1 to PAGE_MAX (default PAGE_MAX), or a 422 that says what is wrong."""
    if text is None or text == "":
        return PAGE_MAX
    if not text.isascii() or not text.isdigit() or len(text) > 4 or not 1 <= int(text) <= PAGE_MAX:
        raise ApiError(
            422,
            "invalid-request",
            "Some fields are missing or wrong.",
            {"fields": {"limit": [f"A number from 1 to {PAGE_MAX}."]}},
        )
    return int(text)


def counts(structured: dict) -> dict[str, int]:
    """Copies per card number over every section (and the partner)."""
    found: dict[str, int] = {}
    for items in structured["sections"].values():
        for number, count in items:
            found[number] = found.get(number, 0) + count
    if structured.get("partner"):
        found[structured["partner"]] = found.get(structured["partner"], 0) + 1
    return found


def diff(before: dict, after: dict, index: CardIndex | None) -> dict:
    """Added, removed and changed card numbers between two structured lists, sorted by
    number; names from today's card list ("" for a number it no longer has)."""
    old, new = counts(before), counts(after)

    def name(number: str) -> str:
        card = index.cards.get(number) if index is not None else None
        return card.name if card is not None else ""

    return {
        "added": [
            {"number": n, "name": name(n), "count": new[n]} for n in sorted(new.keys() - old.keys())
        ],
        "removed": [
            {"number": n, "name": name(n), "count": old[n]} for n in sorted(old.keys() - new.keys())
        ],
        "changed": [
            {"number": n, "name": name(n), "from": old[n], "to": new[n]}
            for n in sorted(old.keys() & new.keys())
            if old[n] != new[n]
        ],
    }
