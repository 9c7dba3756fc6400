"""Stored verdicts of today: each player's list is judged again only when something it
depends on changed since its verdict was stored, not on every view of the table.

A verdict is stored with its key: the judge (deckcheck's version and the source of
`rules/`), the format (its rules and its list history, as a digest of the format's
content) and the generation of the game's card pool. The table compares each stored key
with the key of now; only lists with another key are judged again, a page at a time,
and their new verdicts stored. A verdict equal to the one the player was given is
stored as NULL (the usual case: nothing to repeat). Each list is judged from its
structured list (deckcheck.server.verdicts), read once when it was sent.
"""

from __future__ import annotations

from datetime import date

from deckcheck.events.judge import rejudged
from deckcheck.report_json import report_json
from deckcheck.server.packing import pack, unpack
from deckcheck.server.verdicts import unresolved_lines
from rules.format import Format
from rules.model import Report
from rules.verdict import ILLEGAL, verdict_of

# A table row or a sheet lists at most this many problems of each kind, then says how
# many more there are: 1,000 problems of one list help no organizer, and 120 such lists
# must not make the table 60 MB.
SHOWN = 30
CAPPED = ("violations", "warnings", "new_violations", "unresolved")


def _cap(items: list) -> tuple[list, int]:
    return items[:SHOWN], max(0, len(items) - SHOWN)


def sheet_json(report: Report, fmt: Format) -> dict:
    """What a registration sheet prints of a judged list, with the longest lists capped."""
    problems, more_problems = _cap([v.message for v in report.violations])
    warnings, more_warnings = _cap([w.message for w in report.warnings])
    unresolved, more_unresolved = _cap(unresolved_lines(report))
    return {
        "legal": report.legal,
        "problems": problems,
        "warnings": warnings,
        "unresolved": unresolved,
        "more": {
            "problems": more_problems,
            "warnings": more_warnings,
            "unresolved": more_unresolved,
        },
        "deck": report_json(report, fmt)["deck"],
    }


def sheet_now(sub: dict, fmt: Format | None, on: date, key: str, index) -> tuple[dict, dict | None]:
    """(the sheet of a list, its row to store when it was judged again just now)."""
    if sub.get("sheet") and sub["judged_key"] == key:
        return unpack(sub["sheet"]), None
    if fmt is None:
        return {"legal": False, "problems": ["This event's format is gone."], "deck": None}, None
    stored = judged_row(sub, fmt, on, key, index)
    if stored["sheet"] is None:  # the list could not be judged: say why
        problem = unpack(stored["judged"]).get("error", "This list could not be checked.")
        return {"legal": False, "problems": [problem], "deck": None}, stored
    return unpack(stored["sheet"]), stored


def judged_row(sub: dict, fmt: Format | None, on: date, key: str, index) -> dict:
    """A stored list judged again now, in the columns it is stored in."""
    now, report, structured = rejudged(sub, fmt, on, index)
    given = unpack(sub["verdict"])
    same = (
        not now["changed"]
        and not now.get("error")
        and now["legal"] == bool(sub["legal"])
        and now["violations"] == given["violations"]
        and now["warnings"] == given["warnings"]
        and now.get("unresolved", []) == given.get("unresolved", [])
    )
    return {
        "id": sub["id"],
        "judged_key": key,
        "judged": table_verdict(now, same),
        "judged_legal": now["legal"],
        "judged_changed": now["changed"],
        "sheet": pack(sheet_json(report, fmt)) if report is not None and fmt else None,
        # From the report's violations (each knows its product), not the capped JSON.
        "judged_verdict": verdict_of(report.violations) if report is not None else ILLEGAL,
        # A row stored without a structured list gets the one read just now, once.
        "structured": structured,
    }


def table_verdict(now: dict, same: bool) -> str | None:
    """What the table stores of a verdict of today: nothing when it is the one the player
    was given and short; else the verdict with its lists capped (a table never reads a
    480 KB verdict to show 30 lines of it)."""
    if same and not any(len(now.get(n) or ()) > SHOWN for n in CAPPED):
        return None
    return pack(shown(now))


def verdict_now(sub: dict) -> dict:
    """The stored verdict of today of a table row (legal, changed, violations...)."""
    if sub["judged"] is not None:
        return unpack(sub["judged"])
    given = unpack(sub["verdict"])
    return {"legal": bool(sub["legal"]), **given, "changed": False, "new_violations": []}


def verdict_word(sub: dict) -> str:
    """legal / illegal / unconfirmed of a list now: stored, or (rows stored before it
    was) read from its stored verdict's violations."""
    if sub.get("judged_verdict"):
        return sub["judged_verdict"]
    return verdict_of(verdict_now(sub)["violations"])


def shown(now: dict) -> dict:
    """A verdict with each of its lists capped at SHOWN items, and `more` saying how
    many were left out (only when any were)."""
    out = dict(now)
    more = {}
    for name in CAPPED:
        if name in out:
            out[name], left = _cap(out[name])
            if left:
                more[name] = left
    if more:
        out["more"] = more
    return out
