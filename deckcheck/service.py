"""Requests to verdicts: the glue between the API / pages and `rules`.

Shared by the JSON API and the HTML pages, so both always agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any, NotRequired, TypedDict

from flask import has_request_context, request

from deckcheck.db import get_db, pools
from deckcheck.errors import ApiError
from deckcheck.format_registry import get_format, registry
from deckcheck.schemas import DECK_SECTIONS
from rules.budget import Budget
from rules.format import Format
from rules.lists import ListHistory
from rules.model import Report
from rules.pool import CardIndex
from rules.read import Parsed, count_lines, parse, parse_structured
from rules.releases import Releases
from rules.validate import check_parsed, check_structured, check_text

MAX_LINES = 1000


def today() -> date:
    return datetime.now(UTC).date()


def find_format(format_id: str) -> Format:
    fmt = get_format(format_id)
    if fmt is None:
        raise ApiError(
            422,
            "unknown-format",
            f"There is no format {format_id!r}. GET /api/v1/formats lists them.",
            {"format": format_id},
        )
    return fmt


class CheckPayload(TypedDict):
    """A request body as its schema loaded it: exactly one of the two is present.

    `deck`: section id (a section of any game, `DECK_SECTIONS`) -> its entries
    (`{"card", "count"}`), and `partner`.
    """

    decklist: NotRequired[str]
    deck: NotRequired[dict[str, Any]]


def request_budget() -> Budget:
    """What the request being answered may still spend (one budget for a whole batch)."""
    if not has_request_context():
        return Budget()
    budget = request.environ.get("deckcheck.budget")
    if budget is None:
        budget = request.environ["deckcheck.budget"] = Budget()
    return budget


def as_payload(loaded: Mapping[str, Any]) -> CheckPayload:
    """What a request schema loaded (it checked the shapes), as the typed payload."""
    if "decklist" in loaded:
        return {"decklist": loaded["decklist"]}
    return {"deck": loaded["deck"]}


def pool_index(fmt: Format) -> CardIndex:
    """The card pool a format's decks are judged against, as it stands now."""
    return pools().index(fmt.game)


def check(
    fmt: Format, payload: CheckPayload, on: date | None, index: CardIndex | None = None
) -> Report:
    """Judge a loaded request payload (`decklist` text or structured `deck`), on the
    request's budget (`request_budget`).

    `index`: the pool to judge against (a batch looks it up once); default, the current one.
    """
    budget = request_budget()
    budget.add_deck()  # each deck a request judges brings its own share of entries
    if index is None:
        index = pools().index(fmt.game)
    day = on or today()
    if "decklist" in payload:
        text = payload["decklist"]
        check_length(text)
        return check_text(fmt, index, text, day, budget)
    deck = payload["deck"]
    sections = {name: deck[name] for name in DECK_SECTIONS if deck.get(name)}
    return check_structured(fmt, index, sections, deck.get("partner"), day, budget)


def check_length(text: str) -> None:
    """A 422 for a text over MAX_LINES non-empty lines."""
    # k non-empty lines take at least 2k - 1 characters: a short text needs no count.
    lines = count_lines(text) if len(text) >= 2 * MAX_LINES else 0
    if lines > MAX_LINES:
        raise ApiError(
            422,
            "decklist-too-long",
            f"The decklist has {lines} lines; at most {MAX_LINES} are accepted.",
            {"lines": lines, "limit": MAX_LINES},
        )


def read_and_check(
    fmt: Format, payload: CheckPayload, on: date | None, index: CardIndex | None = None
) -> tuple[Parsed, Report]:
    """`check`, keeping what the payload was read as (the lines a stored list keeps:
    deckcheck.server.verdicts), to judge again with `check_read`."""
    budget = request_budget()
    budget.add_deck()  # before reading, as `check`: the reader spends the deck's share
    if "decklist" in payload:
        check_length(payload["decklist"])
        parsed = parse(payload["decklist"], budget)
    else:
        deck = payload["deck"]
        sections = {name: deck[name] for name in DECK_SECTIONS if deck.get(name)}
        parsed = parse_structured(sections, deck.get("partner"))
    return parsed, _judged(fmt, parsed, on, index, budget)


def check_read(
    fmt: Format, parsed: Parsed, on: date | None, index: CardIndex | None = None
) -> Report:
    """Judge a list already read into lines (`read_and_check`), on the request's budget."""
    budget = request_budget()
    budget.add_deck()
    return _judged(fmt, parsed, on, index, budget)


def _judged(
    fmt: Format, parsed: Parsed, on: date | None, index: CardIndex | None, budget: Budget
) -> Report:
    if index is None:
        index = pools().index(fmt.game)
    return check_parsed(fmt, index, parsed, on or today(), budget)


def _iso_day(value: date | None) -> str | None:
    """A list date as JSON; an organizer list's "always" (date.min) has no date."""
    return value.isoformat() if value and value != date.min else None


def lists_json(lists: ListHistory | None) -> list[dict]:
    """The history in date order, with an organizer format's own entries last."""
    if lists is None:
        return []
    return [
        {
            "effective": _iso_day(change.effective),
            "announced": _iso_day(change.announced),
            "enforced": change.enforced,
            "confidence": change.confidence,
            "doubt": change.doubt,
            "limits": [
                {"card": ref.number, "name": ref.name, "status": status}
                for ref, status in change.limits
            ],
            "choice_restrictions": [
                {"a": [r.number for r in a], "b": [r.number for r in b]}
                | ({"ends": end.isoformat()} if (end := change.ends(at)) else {})
                for at, (a, b) in enumerate(change.choices)
            ],
            "sources": list(change.sources),
        }
        for change in sorted(lists.changes, key=lambda c: c.effective == date.min)
    ]


def format_json(fmt: Format, full: bool = True) -> dict:
    data: dict[str, Any] = {
        "id": fmt.id,
        "game": fmt.game,
        "name": fmt.name,
        "extends": fmt.extends,
        "origin": fmt.origin,
        "date": fmt.date.isoformat() if fmt.date else None,
        "sections": list(fmt.sections),
        "rules": list(fmt.summary),
        "sources": list(fmt.sources),
        "checks": [{"code": c.code, "rule": c.rule} for c in fmt.checks],
        "notes": list(fmt.notes),
    }
    if full:
        data["lists"] = lists_json(fmt.lists)
        if fmt.lists is not None and fmt.lists.source:
            # Where the history came from: shipped, or `cardpool lists import` (and when).
            data["lists_source"] = {"source": fmt.lists.source, "updated": fmt.lists.updated}
    return data


def format_detail_json(fmt: Format) -> dict:
    """A format with its lists and, where it judges releases, its release days."""
    data = format_json(fmt)
    if fmt.check_of("not-released") is not None:
        rows = get_db().execute("select number from cards where game = ?", [fmt.game])
        data["releases"] = releases_json(fmt, [number for (number,) in rows.fetchall()])
    return data


def releases_json(fmt: Format, numbers: list[str]) -> dict | None:
    """The release days a format judges `not-released` by, and the sets it cannot judge.

    `numbers` are the pool's card numbers: a set in the pool with no known day is listed
    under `undated` (its cards are never judged on release), beside the shipped notes.
    """
    check = fmt.check_of("not-released")
    releases = getattr(check, "releases", None)
    if releases is None:
        return None
    return {
        "sources": list(releases.sources),
        "sets": [
            {
                "set": p.code,
                "name": p.name,
                "in_stores": p.in_stores.isoformat(),
                "earliest": p.released.isoformat(),
                "rests_on": p.rests_on,
            }
            for p in sorted(releases.sets.values(), key=lambda p: (p.in_stores, p.code))
        ],
        "cards": [
            {
                "product": p.name,
                "earliest": p.released.isoformat(),
                "rests_on": p.rests_on,
                "verified": p.verified,
                "note": p.note,
                "cards": list(numbers),
            }
            for p, numbers in sorted(releases.listed, key=lambda g: (g[0].released, g[0].name))
        ],
        "undated": _undated(releases, numbers),
    }


def _undated(releases: Releases, numbers: list[str]) -> list[dict]:
    """The sets a format cannot judge by release: those of the pool with no known day,
    then the shipped notes of any other."""
    undated = [
        {"set": code, "why": releases.undated.get(code, "deckcheck has no release date for it.")}
        for code in releases.undated_sets(numbers)
    ]
    known = {u["set"] for u in undated}
    return undated + [
        {"set": code, "why": why} for code, why in releases.undated.items() if code not in known
    ]


def card_limits(game: str, number: str) -> list[dict]:
    """Where a card is limited (banned / restricted / choice) in the formats of its game."""
    found = []
    for fmt in service_formats(game):
        if fmt.lists is None:
            continue
        for change in fmt.lists.changes:
            for ref, status in change.limits:
                if ref.number == number:
                    found.append(_limit(fmt.id, status, change))
            for a, b in change.choices:
                if any(r.number == number for r in (*a, *b)):
                    found.append(_limit(fmt.id, "choice-restriction", change))
    return found


def _limit(format_id: str, status: str, change) -> dict:
    return {
        "format": format_id,
        # A change known from one source is "reported", never "banned" (contract).
        "status": "reported" if change.reported else status,
        "effective": _iso_day(change.effective),
        "announced": _iso_day(change.announced),
        "doubt": change.doubt,
    }


def service_formats(game: str) -> list[Format]:
    return [f for f in registry().formats.values() if f.game == game]
