"""A resolved deck written back out: text, Tabletop Simulator JSON, DCG deck code.

Whatever is exported re-imports to the same fingerprint: text and TTS keep the
sections as headers (DBE also its partner); DCG sorts by kind anyway.

Budgeted per request (contract, "Limits"): a TTS export writes one id per physical
card, so a 159 kB list of large counts once answered 58 MB. It holds at most
MAX_TTS_CARDS cards, counted before anything is written, and no export is longer
than MAX_EXPORT_BYTES.
"""

from __future__ import annotations

import json

from rules import deckcode
from rules.games import GAMES, section_title
from rules.model import Deck

ORDER = ("destiny", "main", "eggs")
MAX_EXPORT_BYTES = 10 * 1024 * 1024
# A real deck holds 50-60 cards; 20,000 is every copy of a large event's decks, and
# ~250 kB of TTS JSON.
MAX_TTS_CARDS = 20_000


class ExportError(ValueError):
    """The deck cannot be written in that style (a deck code of a non-DCG deck)."""


class ExportTooLarge(ExportError):
    """The export would be over its budget; `details` says by how much."""

    def __init__(self, message: str, details: dict) -> None:
        super().__init__(message)
        self.details = details


def _sections(deck: Deck) -> list[str]:
    return [s for s in ORDER if deck.stacks(s)] + [
        s for s in deck.sections() if s not in ORDER and deck.stacks(s)
    ]


def to_text(deck: Deck) -> str:
    """digimoncard.io style: `<count> <name> <number>` lines under `// ...` headers."""
    lines = []
    if deck.partner:
        lines.append(f"Partner: {deck.partner.name} {deck.partner.number}".replace("  ", " "))
    for section in _sections(deck):
        lines.append(f"// {section_title(section)}")
        for stack in deck.stacks(section):
            name = f"{stack.card.name} " if stack.card.name else ""
            lines.append(f"{stack.count} {name}{stack.card.number}")
    return "\n".join(lines) + "\n"


def to_tts(deck: Deck) -> str:
    """A Tabletop Simulator array: one id per physical card, headers as plain strings."""
    cards = sum(stack.count for stack in deck.stacks())
    if cards > MAX_TTS_CARDS:
        raise ExportTooLarge(
            f"This deck has {cards:,} cards; a Tabletop Simulator export holds at most "
            f"{MAX_TTS_CARDS:,} (one entry per card). Export it as text instead.",
            {"cards": cards, "limit_cards": MAX_TTS_CARDS},
        )
    items: list[str] = ["Exported from deckcheck"]
    if deck.partner:
        items.append(f"Partner: {deck.partner.number}")
    for section in _sections(deck):
        if GAMES[deck.game].tts_headers:
            items.append(section_title(section))
        for stack in deck.stacks(section):
            items.extend([stack.card.number] * stack.count)
    return json.dumps(items)


def to_deck_code(deck: Deck, name: str | None = None) -> str:
    if not GAMES[deck.game].has_deck_codes:
        raise ExportError("deck codes exist for the Digimon Card Game (dcg) only")
    eggs = tuple(deckcode.CodeEntry(s.card.number, s.count) for s in deck.stacks("eggs"))
    main = tuple(deckcode.CodeEntry(s.card.number, s.count) for s in deck.stacks("main"))
    for entry in (*eggs, *main):
        if entry.count > 256:
            raise ExportError(f"a deck code holds at most 256 copies of a card ({entry.number})")
    code = deckcode.DeckCode.new(main, eggs, name=(name or deck.name or "deckcheck")[:63])
    return deckcode.encode(code)


def export(deck: Deck, style: str) -> str:
    """The deck in `style`; ExportTooLarge over the budget, ExportError if impossible."""
    content = _write(deck, style)
    if len(content) > MAX_EXPORT_BYTES // 4 and len(content.encode()) > MAX_EXPORT_BYTES:
        raise ExportTooLarge(
            f"This export would be larger than {MAX_EXPORT_BYTES // (1024 * 1024)} MB.",
            {"limit_bytes": MAX_EXPORT_BYTES},
        )
    return content


def _write(deck: Deck, style: str) -> str:
    if style == "text":
        return to_text(deck)
    if style == "tts":
        return to_tts(deck)
    if style == "deck-code":
        return to_deck_code(deck)
    raise ExportError(f"unknown export style {style!r}")
