"""An event at a venue (issue 44, contract "Events at a venue"): the cut-off at lock,
the organizer's marks on a list, and what a list shows of them.

At lock with `"cutoff": "drop"` every player whose list of today is `illegal` (and not
accepted by the organizer) is dropped; `"mark"` only marks them. An `unconfirmed` list
(rules.verdict: only cards deckcheck can't confirm yet) "needs a look" and is never
dropped by the cut-off; the organizer may accept it. Unlock restores the cut-off's
drops, not the players the organizer dropped by hand.
"""

from __future__ import annotations

from deckcheck.errors import ApiError
from deckcheck.events import core, organizer, verdicts
from deckcheck.events.marks import marks_json
from deckcheck.server import names
from rules.verdict import ILLEGAL

MARKS = ("published", "accepted", "checked_in")


def lock(row: dict) -> dict:
    """Lock the event, then apply its cut-off: the lock first, so no list arrives
    between judging and dropping."""
    locked, _ = core.store().set_locked(row["id"], True)
    if locked is None:
        raise ApiError(404, "event-not-found", "There is no event at this address.")
    if locked["cutoff"] == "drop":
        organizer.refresh(locked)
        core.store().cut_off(row["id"], cut_off_ids(row["id"]))
    return locked


def unlock(row: dict) -> dict:
    unlocked, _ = core.store().set_locked(row["id"], False)
    if unlocked is None:
        raise ApiError(404, "event-not-found", "There is no event at this address.")
    return unlocked


def cut_off_ids(event_id: str) -> list[str]:
    """The current lists the cut-off drops: illegal today and not accepted."""
    return [
        sub["id"]
        for page in core.store().current_pages(event_id)
        for sub in page
        if verdicts.verdict_word(sub) == ILLEGAL and not sub["accepted"]
    ]


def mark(row: dict, submission_id: str, values: dict) -> dict:
    """Set marks on a current list of the event: 404 for any other id."""
    marked = (
        core.store().mark(row["id"], submission_id, values) if names.is_id(submission_id) else None
    )
    if marked is None:
        raise ApiError(404, "submission-not-found", "This event has no such current submission.")
    return marked


def receipt_note(event: dict, sub: dict) -> str | None:
    """What a player's receipt says of the cut-off and the organizer's look, if anything."""
    if sub["status"] == "dropped" and core.store().cut_off_drop(event["id"], sub["id"]):
        return (
            "You were dropped at the cut-off: your list was not legal when the organizer "
            "locked lists. Talk to the organizer before the first round."
        )
    marks = marks_json(sub, event)
    if sub["status"] == "current" and marks["cut_off"]:
        return (
            "Your list was not legal when the organizer locked lists: talk to the "
            "organizer before the first round."
        )
    if sub["status"] == "current" and marks["needs_look"]:
        return (
            "deckcheck can't confirm some cards of your list yet (their set is newer than "
            "its card list): the organizer will look at it."
        )
    return None
