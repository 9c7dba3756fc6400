"""A report as the contract's JSON: the validate response, and what pages and events keep.

Plain dicts and lists, ready for any JSON encoder (orjson on the API).
"""

from __future__ import annotations

from typing import Any

from deckcheck.images import Images
from rules.cache import Bounded
from rules.format import Format
from rules.model import Card, Report, Violation
from rules.verdict import verdict_of

# Per card number and image template: (card, its JSON without the count). Bounded by
# the pools' sizes; a reloaded pool's new card object replaces the old entry.
_CARD_JSON: Bounded[tuple[str, str, str | None], tuple[Card, dict[str, Any]]] = Bounded()


def violation_json(violation: Violation) -> dict[str, Any]:
    data: dict[str, Any] = {
        "code": violation.code,
        "message": violation.message,
        "rule": violation.rule,
        "section": violation.section,
        "cards": list(violation.cards),
        "line": violation.line,
    }
    if violation.code == "ambiguous-card":
        data["candidates"] = list(violation.suggestions)
    elif violation.code == "unknown-card":
        data["suggestions"] = list(violation.suggestions)
        if violation.hint:
            data["hint"] = violation.hint
        if violation.product:  # an unconfirmed card (contract)
            data["product"] = violation.product
            data["released"] = violation.released
    return data


def _unconfirmed_json(card: Card) -> dict[str, Any]:
    """A card the list lacks yet: its number and product only, `confirmed` false."""
    return {
        "number": card.number,
        "name": None,
        "count": 0,
        "kind": None,
        "level": None,
        "colors": [],
        "types": [],
        "confirmed": False,
        "product": card.set,
    }


def _card_json(card: Card, images: Images | None) -> dict[str, Any]:
    """A card of the answer, with its `image_url` where `images` has its game's template
    (contract "Card images": the same field as the card API's card objects)."""
    if not card.confirmed:
        return _unconfirmed_json(card)
    template = images.templates.get(card.game) if images else None
    key = (card.game, card.number, template)
    known = _CARD_JSON.get(key)
    if known is None or known[0] is not card:
        data: dict[str, Any] = {
            "number": card.number,
            "name": card.name,
            "count": 0,  # the stack's; here so the keys keep their order
            "kind": card.kind,
            "level": card.level,
            "colors": list(card.colors),
            # Digi-Battle and DMCG cards have types where DCG has colours.
            "types": list(card.types),
        }
        url = images.url(card.game, card.number) if images else None
        if url:
            data["image_url"] = url
        known = (card, data)
        _CARD_JSON.keep(key, known)
    return known[1]


def deck_json(report: Report, images: Images | None = None) -> dict[str, Any]:
    deck = report.deck
    sections = {}
    for section in deck.sections():
        stacks = deck.stacks(section)
        cards = []
        for stack in stacks:
            # A copy of the cached dict (its colour and type lists are shared: responses
            # are only encoded and read, never changed).
            item = dict(_card_json(stack.card, images))
            item["count"] = stack.count
            cards.append(item)
        sections[section] = {"count": sum(s.count for s in stacks), "cards": cards}
    data: dict[str, Any] = {
        "sections": sections,
        "partner": deck.partner.number if deck.partner else None,
        "fingerprint": report.fingerprint,
        "name": deck.name,
    }
    data["unresolved"] = [
        {"line": u.line, "text": u.text, "count": u.count} for u in deck.unresolved
    ]
    if report.style is not None:
        data["style"] = report.style
    return data


def report_json(report: Report, fmt: Format, images: Images | None = None) -> dict[str, Any]:
    """The validate answer; its cards carry `image_url` when `images` is given (the API
    gives it; what pages and events keep needs no address that a setting may change)."""
    return {
        "legal": report.legal,
        "verdict": verdict_of(report.violations),
        "format": {"id": fmt.id, "game": fmt.game, "name": fmt.name, "date": report.on.isoformat()},
        "deck": deck_json(report, images),
        "violations": [violation_json(v) for v in report.violations],
        "warnings": [violation_json(v) for v in report.warnings],
    }
