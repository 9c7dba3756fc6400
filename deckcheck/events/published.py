"""Open decklists and the exports for pairing software (issue 44): each stored list as
its registration sheet holds it (judged again only when something it rests on changed,
verdicts.py), written as a plain deck, Limitless's {digimon, tamer, option, egg}, a
`DCG…` deck code, or one CSV line per card.

Published lists carry names only: never a player id, an edit token or a receipt.
"""

from __future__ import annotations

from collections.abc import Iterator

import orjson
from flask import Response, stream_with_context

from deckcheck.errors import ApiError
from deckcheck.events import core, event_fields, organizer, verdicts
from deckcheck.format_registry import get_format
from deckcheck.server.verdicts.keys import current_key
from rules import deckcode
from rules.games import has_deck_codes

LIMITLESS = ("digimon", "tamer", "option", "egg")


def is_published(row: dict) -> bool:
    """Lists show once the deadline has passed or the event is locked, if the organizer
    publishes any."""
    return (row.get("publish") or "none") != "none" and not core.is_open(row)


def check_published(row: dict) -> None:
    if not is_published(row):
        raise ApiError(
            404,
            "not-published",
            "This event's lists are not published"
            + (" (yet: they show once lists close)." if row.get("publish") != "none" else "."),
        )


def stored_lists(row: dict, marked_only: bool = False) -> Iterator[tuple[dict, dict]]:
    """(list row, its sheet) of every current list by player name; the sheets of lists
    judged again now are stored a page at a time."""
    organizer.refresh(row)
    fmt = get_format(row["format"])
    key, index = current_key(fmt)
    on = event_fields.event_day(row)
    for page in core.store().lists_pages(row["id"], marked_only):
        fresh = []
        for sub in page:
            sheet, stored = verdicts.sheet_now(sub, fmt, on, key, index)
            if stored is not None:
                fresh.append(stored)
            yield sub, sheet
        core.store().save_judged(fresh)


def deck_cards(sheet: dict) -> dict[str, list[dict]]:
    """A sheet's deck as {section: [{"number", "name", "count", "kind"}]}."""
    sections = (sheet.get("deck") or {}).get("sections") or {}
    return {
        section: [
            {"number": c["number"], "name": c.get("name") or "", "count": c["count"],
             "kind": c.get("kind") or ""}
            for c in held["cards"]
        ]
        for section, held in sections.items()
    }  # fmt: skip


def deck_code(cards: dict[str, list[dict]], name: str) -> str | None:
    """The list as a `DCG…` code (DCG lists only); None when a card cannot be written in
    one (a number no code can hold, more than 256 copies)."""
    try:
        eggs = tuple(deckcode.CodeEntry(c["number"], c["count"]) for c in cards.get("eggs", ()))
        main = tuple(deckcode.CodeEntry(c["number"], c["count"]) for c in cards.get("main", ()))
        if not eggs and not main or any(e.count > 256 for e in (*eggs, *main)):
            return None
        return deckcode.encode(deckcode.DeckCode.new(main, eggs, name=name[:63]))
    except (deckcode.DeckCodeError, ValueError, KeyError):
        return None


def limitless(cards: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """Limitless's shape: eggs under "egg", the rest by kind (a card whose kind is not
    known goes under "digimon": Limitless readers put all three in the main deck)."""
    out: dict[str, list[dict]] = {name: [] for name in LIMITLESS}
    for section, items in cards.items():
        for c in items:
            kind = "egg" if section == "eggs" or c["kind"] == "digi-egg" else c["kind"]
            set_code, _, number = c["number"].partition("-")
            entry = {"count": c["count"], "name": c["name"], "set": set_code, "number": number}
            out[kind if kind in out else "digimon"].append(entry)
    return out


def has_codes(row: dict) -> bool:
    """Does the event's game have deck codes (rules.games)?"""
    fmt = get_format(row["format"])
    return fmt is not None and has_deck_codes(fmt.game)


def open_lists(row: dict) -> Iterator[dict]:
    """The published lists: {"player", "legal", "verdict", "deck", "deck_code"}."""
    codes = has_codes(row)
    for sub, sheet in stored_lists(row, marked_only=row.get("publish") == "marked"):
        cards = deck_cards(sheet)
        yield {
            "player": sub["player"],
            "legal": bool(sub["judged_legal"]),
            "verdict": verdicts.verdict_word(sub),
            "deck": {s: [_plain(c) for c in items] for s, items in cards.items()},
            "deck_code": deck_code(cards, sub["player"]) if codes else None,
        }


def _plain(card: dict) -> dict:
    return {"number": card["number"], "name": card["name"], "count": card["count"]}


def lists_json(row: dict) -> Iterator[dict]:
    """Every current list for pairing software: Limitless's shape and a deck code."""
    codes = has_codes(row)
    for sub, sheet in stored_lists(row):
        cards = deck_cards(sheet)
        yield {
            "player": sub["player"],
            "limitless": limitless(cards),
            "deck_code": deck_code(cards, sub["player"]) if codes else None,
        }


def json_download(items, filename: str | None = None) -> Response:
    """{"data": [...]} written an item at a time (300 lists never sit in memory at once)."""

    def parts():
        yield b'{"data":['
        for n, item in enumerate(items):
            yield (b"," if n else b"") + orjson.dumps(item)
        yield b"]}"

    response = Response(stream_with_context(parts()), mimetype="application/json")
    if filename:
        response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


PLAYERS_HEADER = ("name", "player_id", "legal", "verdict", "fingerprint", "submitted_at")
CARDS_HEADER = ("player", "section", "number", "name", "count")


def players_rows(row: dict) -> Iterator[list]:
    organizer.refresh(row)
    for page in core.store().current_pages(row["id"]):
        for sub in page:
            yield [
                sub["player"],
                sub["player_id"],
                "legal" if sub["judged_legal"] else "not legal",
                verdicts.verdict_word(sub),
                sub["fingerprint"],
                sub["submitted_at"],
            ]


def cards_rows(row: dict) -> Iterator[list]:
    for sub, sheet in stored_lists(row):
        for section, items in deck_cards(sheet).items():
            for c in items:
                yield [sub["player"], section, c["number"], c["name"], c["count"]]
