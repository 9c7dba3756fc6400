"""Verdicts for stored lists: the one given at submission, and the one of today.

A list is judged on the event's date with today's card pool and banned / restricted
lists, so a restriction announced after a player submitted shows up on the
organizer's table as "changed", with the problems that are new.
"""

from __future__ import annotations

import json
from datetime import date

from deckcheck import service
from deckcheck.errors import ApiError
from deckcheck.report_json import violation_json
from deckcheck.server.packing import unpack
from rules.format import Format
from rules.model import Report
from rules.verdict import verdict_of


def verdict_json(report: Report) -> dict:
    data = {
        "verdict": verdict_of(report.violations),
        "violations": [violation_json(v) for v in report.violations],
        "warnings": [violation_json(v) for v in report.warnings],
    }
    unread = unresolved_lines(report)
    if unread:
        data["unresolved"] = unread
    return data


def unresolved_lines(report: Report) -> list[dict]:
    """Lines that named no card, with their counts (once the rules model carries them)."""
    found = getattr(report.deck, "unresolved", None) or ()
    out = []
    for item in found:
        if isinstance(item, dict):
            out.append({"text": str(item.get("text", "")), "count": item.get("count")})
        else:
            text = getattr(item, "text", None) or str(item)
            out.append(
                {
                    "text": str(text),
                    "count": getattr(item, "count", None),
                    "line": getattr(item, "line", None),
                }
            )
    return out


def judge(fmt: Format, entry: dict, on: date, index=None) -> Report:
    return service.check(fmt, service.as_payload(entry), on, index)


def _key(violation: dict) -> tuple:
    return (violation["code"], violation.get("section"), tuple(violation.get("cards") or ()))


def rejudged(row: dict, fmt: Format | None, on: date, index=None) -> tuple[dict, Report | None]:
    """A stored submission judged again now, compared with what its player was told;
    and the report it was judged into (None when it could not be)."""
    given = unpack(row["verdict"])
    if fmt is None:
        now = {"legal": False, "violations": given["violations"], "warnings": given["warnings"]}
        return {**now, "changed": False, "new_violations": [], "error": "format-gone"}, None
    try:
        report = judge(fmt, json.loads(row["entry"]), on, index)
    except ApiError as err:
        failed = {
            "legal": False,
            "violations": [],
            "warnings": [],
            "changed": True,
            "new_violations": [],
            "error": err.message,
        }
        return failed, None
    now = verdict_json(report)
    before = {_key(v) for v in given["violations"]}
    new = [v for v in now["violations"] if _key(v) not in before]
    changed = report.legal != bool(row["legal"]) or bool(new)
    return {"legal": report.legal, **now, "changed": changed, "new_violations": new}, report
