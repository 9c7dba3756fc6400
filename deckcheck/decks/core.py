"""What the decks API (and the deck pages) share: the store of this app, saving a list,
a deck as JSON with its verdict of today, versions and their diff."""

from __future__ import annotations

from datetime import date
from typing import NamedTuple

from flask import current_app

from deckcheck import service
from deckcheck.decks.judging import differs, feed_entries, judge_saved
from deckcheck.decks.store import BadToken, DeckStore, SavedList
from deckcheck.errors import ApiError
from deckcheck.format_registry import get_format
from deckcheck.server import http, limits, names, owners
from deckcheck.server.opened import product_store
from deckcheck.server.packing import unpack
from deckcheck.server.verdicts import (
    World,
    numbers_of,
    structured_of,
    verdict_json,
    view_of,
    world_now,
)
from rules.format import Format
from rules.pool import CardIndex
from rules.verdict import verdict_of

NOTES_MAX_BYTES = 4096
DEFAULT_NAME = "Untitled deck"


def store() -> DeckStore:
    """The app's deck store, on the app's database (opened and migrated on first use)."""
    return product_store("deckcheck.decks", DeckStore)


def not_found() -> ApiError:
    return ApiError(404, "deck-not-found", "There is no saved deck at this address.")


def bad_token() -> ApiError:
    return ApiError(
        403,
        "bad-token",
        "This needs the deck's edit token: send Authorization: Bearer <token> (it is in "
        "the edit link you got when you saved the deck).",
    )


def find_deck(deck_id: str) -> dict:
    row = store().deck(deck_id) if names.is_id(deck_id) else None
    if row is None:
        raise not_found()
    return row


def world(fmt: Format, on: date | None = None) -> tuple[World, CardIndex]:
    """The world of now, stored once per process so the pass can compare against it."""
    found, index = world_now(fmt, on or service.today())
    decks = store()
    if found.id not in decks.kept:
        decks.keep_world(found.id, fmt.id, found.rules, found.facts)
        decks.kept.add(found.id)
    return found, index


# -- saving ---------------------------------------------------------------------


def saved_list(fmt: Format, entry: dict) -> SavedList:
    """Read what the player sent, keep it structured, judge the structured list."""
    names.check_list_size(entry, "a saved deck holds")
    on = service.today()
    now, index = world(fmt, on)
    read = service.check(fmt, service.as_payload(entry), on, index)
    structured = structured_of(read)
    report = judge_saved(fmt, structured, on, index)
    view = view_of(report)
    return SavedList(
        entry=entry,
        structured=structured,
        numbers=numbers_of(structured),
        has_unknown=bool(structured["unread"]),
        fingerprint=report.fingerprint,
        legal=report.legal,
        verdict=verdict_json(report),
        judged=view,
        world=now.id,
    )


def deck_fields(data: dict, default_name: str | None) -> dict:
    """The name and notes a request gives (normalised; name as event names are)."""
    fields = {}
    if "name" in data or default_name is not None:
        name = names.clean("name", data.get("name"), names.EVENT_MAX, required=False)
        fields["name"] = name or default_name or DEFAULT_NAME
    if "notes" in data:
        notes = names.text_field("notes", data.get("notes"), NOTES_MAX_BYTES)
        if len(notes.encode("utf-8", "surrogatepass")) > NOTES_MAX_BYTES:
            raise names.FieldError("notes", "At most 4 KB.")
        fields["notes"] = notes
    return fields


def entry_of(data: dict) -> dict:
    """What the player sent, as it is kept: the text, or the structured deck without the
    empty sections and null partner its schema fills in."""
    if "decklist" in data:
        return {"decklist": data["decklist"]}
    return {"deck": {k: v for k, v in data["deck"].items() if v not in ([], None)}}


def create(data: dict) -> tuple[dict, str]:
    """A new deck from a loaded request; (its row, its edit token)."""
    fmt = service.find_format(data["format"])
    fields = deck_fields(data, "")
    entry = entry_of(data)
    names.check_list_size(entry, "a saved deck holds")
    limits.check(
        "decks",
        "create",
        "DECKS_CREATE_LIMIT",
        "At most {count} new decks per {seconds} seconds from one address; wait a while "
        "and save it again.",
    )
    saved = saved_list(fmt, entry)
    name = fields["name"]
    if name == DEFAULT_NAME and saved.judged["deck"].get("name"):
        # No name given: the list's own name line ("// Blue Flare"), if it has one.
        listed = names.normalise(saved.judged["deck"]["name"])[: names.EVENT_MAX]
        name = listed if listed and not names.FORBIDDEN.search(listed) else name
    # Saved while signed in: the deck belongs to the account too (its token still works).
    owner = owners.account()
    return store().create(
        name, fmt.id, fields.get("notes", ""), saved, limits.client_address(), owner
    )


def replace(deck_id: str, token: str | None, data: dict) -> dict:
    row = find_deck(deck_id)
    proof = owners.right(token)
    if not owners.may_change(row["edit_hash"], row["owner"], proof):
        raise bad_token()  # before any judging: a stranger's PUT costs nothing
    limits.check(
        "saves",
        deck_id,
        "DECKS_SAVE_LIMIT",
        "At most {count} new versions of one deck per {seconds} seconds from one address; "
        "wait a little and save it again.",
    )
    fmt = service.find_format(row["format"])
    saved = saved_list(fmt, entry_of(data))
    kept = current_app.config["DECKS_VERSIONS_KEPT"]
    try:
        stored = store().replace(deck_id, proof, saved, kept, **deck_fields(data, None))
    except BadToken as err:
        raise bad_token() from err
    if stored is None:
        raise not_found()
    return stored


def delete(deck_id: str, token: str | None) -> None:
    if not names.is_id(deck_id):
        raise not_found()
    try:
        found = store().delete(deck_id, owners.right(token))
    except BadToken as err:
        raise bad_token() from err
    if not found:
        raise not_found()


# -- reading --------------------------------------------------------------------


class View(NamedTuple):
    """A deck as of today: its verdict and list (`view`), changed since the verdict last
    shown, the day it holds for, and the world it was judged in."""

    view: dict
    changed: bool
    day: str
    world: str


def view_now(row: dict) -> View:
    """Today's view of the deck's latest version, judged again (and stored, with its feed
    entries) only when the world it was judged in is not the world of now."""
    fmt = get_format(row["format"])
    on = service.today()
    stored = unpack(row["judged"])
    changed, was_world = bool(row["judged_changed"]), row["judged_world"]
    if fmt is None:
        # The format is gone (an organizer's file removed): the last verdict, marked.
        return View({**stored, "error": "format-gone"}, changed, on.isoformat(), was_world)
    now, index = world(fmt, on)
    if was_world == now.id:
        return View(stored, changed, fmt.day(on).isoformat(), now.id)
    version = store().version(row["id"], row["version"])
    if version is None:  # deleted meanwhile
        raise not_found()
    report = judge_saved(fmt, unpack(version["structured"]), on, index)
    view = view_of(report)
    given = unpack(row["verdict"])
    changed = differs(view, given, bool(row["legal"]))
    entries = feed_entries(row["id"], row["version"], stored, view, report, fmt, on)
    store().save_judged(row["id"], row["version"], now.id, view, changed, entries, was_world)
    return View(view, changed, fmt.day(on).isoformat(), now.id)


def shown(row: dict, seen: View) -> None:
    """A reader saw `seen`, a changed verdict: the next read measures "changed" against
    it (a deck is marked changed once, on the read after the change; the feed keeps every
    change). Stored only while the deck is still in the world it was seen in."""
    store().mark_shown(row["id"], row["version"], seen.world, seen.view)


def base_url() -> str:
    return http.base_url()


def deck_json(row: dict, view: dict, changed: bool, checked_on: str) -> dict:
    data = {
        "id": row["id"],
        "name": row["name"],
        "format": row["format"],
        "version": row["version"],
        "versions": row["version"],
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
        "notes": row["notes"],
        "url": f"{base_url()}/d/{row['id']}",
        "feed_url": f"{base_url()}/d/{row['id']}/changes.atom",
        "fingerprint": row["fingerprint"],
        "legal": view["legal"],
        "verdict": verdict_of(view["violations"]),
        "violations": view["violations"],
        "warnings": view["warnings"],
        "checked_on": checked_on,
        "changed": changed,
        "sections": view["deck"]["sections"],
        "partner": view["deck"]["partner"],
    }
    if view.get("unresolved"):
        data["unresolved"] = view["unresolved"]
    if view.get("error"):
        data["error"] = view["error"]
    if changed:
        given = unpack(row["verdict"])
        data["was"] = {
            "legal": bool(row["legal"]),
            "verdict": verdict_of(given["violations"]),
            **given,
        }
    return data


# A lookup judges again at most this many decks whose verdict is of another world (each
# a read and a judging, about 1-3 ms); the rest are answered with their stored verdict,
# marked "current": false (the background pass brings them up to date). A count, not
# seconds (issue 40): the same lookup gives the same answer on a quiet and a busy machine.
LOOKUP_JUDGED = 100


def summaries(rows: list[dict], most_judged: int) -> list[dict]:
    """The lookup lines of these decks, judging again at most `most_judged` of them (a
    count, not a clock: the same request gives the same answer on a busy machine); the
    others keep their stored verdict and say `"current": false`."""
    lines, judged = [], 0
    for row in rows:
        line, did = summary(row, judged < most_judged)
        judged += did
        lines.append(line)
    return lines


def summary(row: dict, may_judge: bool) -> tuple[dict, bool]:
    """A lookup's line for a deck, and whether it was judged for it: judged again when
    its world is not today's and the request may still judge one more (`may_judge`);
    else its stored verdict."""
    fmt = get_format(row["format"])
    current = fmt is not None and row["judged_world"] == world(fmt)[0].id
    legal, changed = bool(row["judged_legal"]), bool(row["judged_changed"])
    verdict = stored_verdict(row)
    judged = False
    if not current and fmt is not None and may_judge:
        full = store().deck(row["id"])
        if full is not None:
            seen = view_now(full)
            legal, changed, current, judged = seen.view["legal"], seen.changed, True, True
            verdict = verdict_of(seen.view["violations"])
    line = {
        "id": row["id"],
        "name": row["name"],
        "format": row["format"],
        "legal": legal,
        "verdict": verdict,
        "changed": changed,
        "updated_at": row["updated_at"],
        "version": row["version"],
        "current": current,
    }
    return line, judged


def stored_verdict(row: dict) -> str:
    """legal / illegal / unconfirmed of the verdict a deck's row stores (`judged`, or the
    verdict last shown when that is NULL); a legal deck's is not unpacked."""
    if row["judged_legal"]:
        return verdict_of(())
    stored = row["judged"] if row["judged"] is not None else row["verdict"]
    return verdict_of(unpack(stored)["violations"])
