"""What a list shows of the organizer's marks and the cut-off (table, API, receipt)."""

from __future__ import annotations

from deckcheck.events.verdicts import verdict_word
from rules.verdict import ILLEGAL, UNCONFIRMED


def marks_json(sub: dict, event: dict) -> dict:
    """`verdict` of today; `needs_look`: can't confirm and not accepted yet; `cut_off`:
    marked by the cut-off (locked with cutoff "mark", illegal, not accepted)."""
    word = verdict_word(sub)
    accepted = bool(sub.get("accepted"))
    return {
        "verdict": word,
        "needs_look": word == UNCONFIRMED and not accepted,
        "accepted": accepted,
        "published": bool(sub.get("published")),
        "checked_in": bool(sub.get("checked_in")),
        "cut_off": bool(event["locked"])
        and event.get("cutoff") == "mark"
        and word == ILLEGAL
        and not accepted,
    }
