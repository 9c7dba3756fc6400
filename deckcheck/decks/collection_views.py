"""What a collection shows of itself: completion per set (newest set first) and its
export as text or CSV (both read back by deckcheck.decks.imports to the same cards)."""

from __future__ import annotations

from datetime import date
from functools import lru_cache

from deckcheck.csvout import to_csv
from rules.games import has_products
from rules.pool import CardIndex
from rules.releases import dcg_releases
from rules.sets import set_of

PLAYSET = 4


def set_code(number: str) -> str:
    found = set_of(number)
    return found.code if found is not None else number.partition("-")[0].upper()


@lru_cache(maxsize=8)
def _set_keys(index: CardIndex) -> dict[str, frozenset[str]]:
    """Per set, the number keys of its cards (alternate arts are one card): worked out
    once per card list, never per request."""
    sets: dict[str, set[str]] = {}
    for card in index.cards.values():
        sets.setdefault(set_code(card.number), set()).add(card.key)
    return {code: frozenset(keys) for code, keys in sets.items()}


def _released(code: str, game: str) -> date:
    product = dcg_releases().sets.get(code) if has_products(game) else None
    return product.in_stores if product is not None else date.min


def completion(held: dict[str, tuple[int, int]], index: CardIndex) -> list[dict]:
    """Per set of the card list: its cards, how many the collection holds at least one
    of and at least a playset (4) of (`held`: CollectionStore.set_counts); the newest set
    first (by English release day, then by code: sets without a known day come last)."""
    out: list[dict] = []
    for code, keys in _set_keys(index).items():
        owned, full = held.get(code, (0, 0))
        cards = len(keys)
        out.append(
            {"set": code, "cards": cards, "owned": min(owned, cards),
             "playset_owned": min(full, cards)}
        )  # fmt: skip
    out.sort(key=lambda s: (_released(s["set"], index.game), s["set"]), reverse=True)
    return out


def as_text(cards: dict[str, int], index: CardIndex) -> str:
    """`<count> <name> <number>` lines, as a decklist is written."""
    lines = []
    for number, count in sorted(cards.items()):
        card = index.cards.get(number)
        lines.append(f"{count} {card.name} {number}" if card and card.name else f"{count} {number}")
    return "\n".join(lines) + ("\n" if lines else "")


def as_csv(cards: dict[str, int], index: CardIndex) -> str:
    """`number,name,count` with a header (deckcheck.csvout: no cell becomes a formula)."""
    rows = []
    for number, count in sorted(cards.items()):
        card = index.cards.get(number)
        rows.append([number, card.name if card else "", count])
    return to_csv(["number", "name", "count"], rows)
