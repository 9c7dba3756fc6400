"""A game's card pool in memory, indexed the ways decklists name cards."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from rapidfuzz import fuzz, process

from rules.model import Card
from rules.numbers import looks_like_number, number_key

_NOT_WORD = re.compile(r"[\W_]+")
_SIDE = re.compile(r"\s*[\[(][^\])]*[\])]\s*$")


def name_key(text: str) -> str:
    """Case, accents of width, spacing and punctuation do not tell names apart."""
    return _NOT_WORD.sub("", unicodedata.normalize("NFKC", text).casefold())


class CardIndex:
    """Look cards up by number (any spelling) or by name, and suggest near misses."""

    def __init__(self, game: str, cards: Iterable[Card]) -> None:
        self.game = game
        self.cards: dict[str, Card] = {}
        self._by_key: dict[str, Card] = {}
        self._by_name: dict[str, list[Card]] = {}
        for card in cards:
            self.cards[card.number] = card
            self._by_key[number_key(card.number)] = card
            for name in {card.name, card.name_ja}:
                if name:
                    self._by_name.setdefault(name_key(name), []).append(card)
        self._name_choices = list(self._by_name)
        self._key_choices = list(self._by_key)

    def __len__(self) -> int:
        return len(self.cards)

    def by_number(self, text: str) -> Card | None:
        return self._by_key.get(number_key(text))

    def by_name(self, text: str) -> list[Card]:
        """Cards with this name; a bracketed side (`Antiramon [Moon]`) may be dropped."""
        found = self._by_name.get(name_key(text))
        if not found:
            bare = _SIDE.sub("", text)
            if bare != text and bare:
                found = self._by_name.get(name_key(bare))
        return sorted(found or (), key=lambda c: c.number)

    def suggest(self, text: str, limit: int = 3) -> list[Card]:
        """Near matches of a mistyped name or number, best first."""
        if looks_like_number(text):
            hits = process.extract(
                number_key(text), self._key_choices, scorer=fuzz.ratio, limit=limit, score_cutoff=70
            )
            return [self._by_key[key] for key, _, _ in hits]
        key = name_key(text)
        if not key:
            return []
        hits = process.extract(
            key, self._name_choices, scorer=fuzz.WRatio, limit=limit, score_cutoff=75
        )
        cards: list[Card] = []
        for hit, _, _ in hits:
            cards.extend(self._by_name[hit][:2])
        return cards[:limit]
