"""Verdicts for stored lists: the one given at submission, and the one of today.

A list is judged on the event's date with today's card pool and banned / restricted
lists, so a restriction announced after a player submitted shows up on the
organizer's table as "changed", with the problems that are new. It is judged from the
structured list stored with it (deckcheck.server.verdicts): read once, when it was sent.
"""

from __future__ import annotations

import json
from datetime import date

from deckcheck.errors import ApiError
from deckcheck.server import verdicts
from deckcheck.server.packing import pack, unpack
from rules.format import Format
from rules.model import Report


def judge(fmt: Format, entry: dict, on: date, index=None) -> Report:
    """A list as a player sends it (not stored yet), read and judged."""
    return verdicts.read(fmt, entry, on, index)[0]


def stored_report(fmt: Format, row: dict, on: date, index=None) -> tuple[Report, str | None]:
    """A stored submission judged from its structured list: (its report, the structured
    list packed when it was read just now, for a row stored without one, else None)."""
    structured = unpack(row["structured"]) if row.get("structured") else None
    if structured is None or verdicts.stale_reading(structured):
        report, structured = verdicts.read(fmt, json.loads(row["entry"]), on, index)
        return report, pack(structured)
    return verdicts.judge(fmt, structured, on, index), None


def _key(violation: dict) -> tuple:
    return (violation["code"], violation.get("section"), tuple(violation.get("cards") or ()))


def rejudged(
    row: dict, fmt: Format | None, on: date, index=None
) -> tuple[dict, Report | None, str | None]:
    """A stored submission judged again now, compared with what its player was told; the
    report it was judged into (None when it could not be); and its structured list when
    it was read just now (to store: `stored_report`)."""
    given = unpack(row["verdict"])
    if fmt is None:
        now = {"legal": False, "violations": given["violations"], "warnings": given["warnings"]}
        return {**now, "changed": False, "new_violations": [], "error": "format-gone"}, None, None
    try:
        report, structured = stored_report(fmt, row, on, index)
    except ApiError as err:
        failed = {
            "legal": False,
            "violations": [],
            "warnings": [],
            "changed": True,
            "new_violations": [],
            "error": err.message,
        }
        return failed, None, None
    now = verdicts.verdict_json(report)
    before = {_key(v) for v in given["violations"]}
    new = [v for v in now["violations"] if _key(v) not in before]
    changed = report.legal != bool(row["legal"]) or bool(new)
    result = {"legal": report.legal, **now, "changed": changed, "new_violations": new}
    return result, report, structured
