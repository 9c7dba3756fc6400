"""`DCG...` deck codes (heroi.cc's format, `rules.deckcode`) as lines."""

from __future__ import annotations

from rules import deckcode
from rules.budget import Budget
from rules.read.model import Line, Parsed, one_card, over_budget


def read_deck_code(code: str, position: int, budget: Budget) -> Parsed:
    # A code's entries take a byte each at least: one too long for the budget is not
    # decoded (a 1 MB code once decoded 693,000 entries first: 3 s, +136 MB).
    if not budget.affords(len(code) * 3 // 4):
        return over_budget(code, position, "deck-code")
    try:
        decoded = deckcode.decode(code)
    except deckcode.DeckCodeError as err:
        problem = f"this DCG deck code cannot be read: {err}"
        line = Line(position, code[:80], "unparsed", problem=problem)
        return Parsed((line,), "deck-code")
    if not budget.take_entries(len(decoded.digi_eggs) + len(decoded.deck) + len(decoded.sideboard)):
        return over_budget(code, position, "deck-code")
    lines = []
    for section, entries in (
        ("eggs", decoded.digi_eggs),
        ("main", decoded.deck),
        ("side", decoded.sideboard),
    ):
        for entry in entries:
            lines.append(one_card(position, code, entry.count, entry.number, section))
    return Parsed(tuple(lines), "deck-code", name=decoded.name or None, has_headers=True)
