"""The organizer's table: every player's latest list with its verdict of today, read a
page at a time (judged again first where the stored verdict is out of date), as rows,
as CSV, and as the lists' text; merging two rows of one player."""

from __future__ import annotations

import json
from collections.abc import Iterator

from deckcheck.errors import ApiError
from deckcheck.events import alike, verdicts
from deckcheck.events.core import find_submission, receipt_url, store
from deckcheck.events.event_fields import event_day, event_format
from deckcheck.events.marks import marks_json
from deckcheck.format_registry import get_format
from deckcheck.server import names
from deckcheck.server.verdicts.keys import current_key
from rules.games import SECTIONS
from rules.verdict import verdict_of

JUDGE_PAGE = 100  # lists judged again per database round trip (each up to 64 KB)


SECTION_HEADINGS = {s.id: s.heading for s in SECTIONS.values()}  # the registry's


def list_text(entry: dict) -> str:
    """A stored list as text: the text the player sent, or their structured deck as
    one `<count> <card>` line per entry under its section's heading."""
    if "decklist" in entry:
        return str(entry["decklist"])
    deck = entry.get("deck") or {}
    lines = [f"Partner: {deck['partner']}"] if deck.get("partner") else []
    for section, items in deck.items():
        if section == "partner" or not items:
            continue
        lines.append(f"// {SECTION_HEADINGS.get(section, section)}")
        lines.extend(f"{item['count']} {item['card']}" for item in items)
    return "\n".join(lines)


def refresh(row: dict) -> None:
    """Judge again, and store, only the lists whose stored verdict is out of date."""
    fmt = get_format(row["format"])
    fmt = event_format(row, fmt) if fmt is not None else None
    key, index = current_key(fmt)
    ids = store().stale(row["id"], key)
    on = event_day(row)
    for start in range(0, len(ids), JUDGE_PAGE):
        subs = store().by_ids(row["id"], ids[start : start + JUDGE_PAGE])
        store().save_judged([verdicts.judged_row(s, fmt, on, key, index) for s in subs])


def table_row(sub: dict) -> dict:
    """One player's row of the table: lists of problems capped (`more` says by how much)."""
    now = verdicts.shown(verdicts.verdict_now(sub))
    data = {
        "id": sub["id"],
        "player": sub["player"],
        "player_id": sub["player_id"],
        "submitted_at": sub["submitted_at"],
        "fingerprint": sub["fingerprint"],
        "receipt_url": receipt_url(sub),
    }
    data.update(
        {
            "submitted_legal": bool(sub["legal"]),
            "legal": now["legal"],
            "verdict": verdict_of(now["violations"]),
            "changed": now["changed"],
            "violations": now["violations"],
            "warnings": now["warnings"],
            "new_violations": now["new_violations"],
            "version": sub["seq"],
        }
    )
    if now.get("unresolved"):
        data["unresolved"] = now["unresolved"]
    if now.get("error"):
        data["error"] = now["error"]
    if now.get("more"):
        data["more"] = now["more"]
    return data


def table(row: dict, with_lists: bool = False) -> Iterator[dict]:
    """Every player's latest list with its verdict of today, oldest first, read a page
    at a time (call `refresh` first); `with_lists` adds each list as text (`decklist`).
    A row that looks like another player's (alike.py) names it in `alike`."""
    flagged = alike.near_duplicates(store().current_ids(row["id"]))
    for page in store().current_pages(row["id"], with_entry=with_lists):
        for sub in page:
            item = _table_item(sub, row, flagged)
            if with_lists:
                item["decklist"] = list_text(json.loads(sub["entry"]))
            yield item


def rows(row: dict, ids: list[str]) -> Iterator[dict]:
    """Table rows of these current lists (the live table's update), in `ids`' order."""
    found = store().by_ids(row["id"], ids, with_entry=False)
    current = [sub for sub in found if sub["status"] == "current"]
    if not current:
        return
    flagged = alike.near_duplicates(store().current_ids(row["id"]))
    for sub in current:
        yield _table_item(sub, row, flagged)


def _table_item(sub: dict, row: dict, flagged: dict) -> dict:
    """A table row with the organizer's marks and the rows it looks like."""
    item = table_row(sub)
    item.update(marks_json(sub, row))
    item["alike"] = flagged.get(sub["id"], [])
    return item


def organizer_submission(row: dict, submission_id: str) -> dict:
    """A current list of the event, for the organizer: 404 for any other id."""
    sub = find_submission(row["id"], submission_id)
    if sub is None or sub["status"] != "current":
        raise ApiError(404, "submission-not-found", "This event has no such current submission.")
    return sub


def merge(row: dict, keep_id: str, other_id: object) -> dict:
    """Two rows of one player made one: `keep_id`'s list stays, `other_id`'s lists
    become its history (store.merge)."""
    if not isinstance(other_id, str) or not names.is_id(other_id):
        raise names.FieldError("from", "Not a submission id of this event.")
    if other_id == keep_id:
        raise names.FieldError("from", "A row cannot be merged with itself: choose the other row.")
    merged = store().merge(row["id"], keep_id, other_id) if names.is_id(keep_id) else None
    if merged is None:
        raise ApiError(
            404,
            "submission-not-found",
            "Both rows must be current lists of this event (one may have been dropped, "
            "replaced or merged meanwhile: reload the table).",
        )
    return merged


CSV_HEADER = (
    "player",
    "player_id",
    "submitted_at",
    "legal",
    "changed",
    "problems",
    "new_problems",
    "warnings",
    "fingerprint",
    "version",
    "decklist",
)


def table_csv_rows(rows) -> Iterator[list]:
    def words(r: dict, name: str) -> str:
        text = " | ".join(item["message"] for item in r[name])
        left = r.get("more", {}).get(name)
        return f"{text} | ... and {left} more" if left else text

    for r in rows:
        yield [
            r["player"],
            r["player_id"],
            r["submitted_at"],
            "legal" if r["legal"] else "not legal",
            "changed" if r["changed"] else "",
            words(r, "violations"),
            words(r, "new_violations"),
            words(r, "warnings"),
            r["fingerprint"],
            r["version"],
            r.get("decklist", ""),
        ]
