"""A game's card pool in memory, indexed the ways decklists name cards."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Final

from rapidfuzz import fuzz, process

from rules.model import Card
from rules.numbers import fits_printed, looks_like_number, number_key, remember

# Linear: one character class, each character matched once.
_NOT_WORD: Final = re.compile(r"[\W_]+")
# Words deck builders add beside a name that are not part of it (`Myotismon ACE`).
MARKER_WORDS: Final = ("ace", "dcg", "alt", "art", "altart", "aa", "parallel", "foil", "promo")
_MARKERS: Final = frozenset(MARKER_WORDS) | {"(dcg)", "[dcg]"}
NEAR: Final = 80  # rapidfuzz ratio (0-100) at which two name keys are one name misspelt


_NAME_KEYS: Final[dict[str, str]] = {}


def name_key(text: str) -> str:
    """Case, accents of width, spacing and punctuation do not tell names apart.

    Cached (`rules.numbers.remember`): the same names come back on every request.
    """
    key = _NAME_KEYS.get(text)
    if key is None:
        normal = unicodedata.normalize("NFKC", text).casefold()
        key = remember(_NAME_KEYS, text, _NOT_WORD.sub("", normal))
    return key


def without_side(text: str) -> str:
    """`Antiramon [Moon]` -> `Antiramon`: a flip card's bracketed side, if it ends the name."""
    text = text.rstrip()
    if text.endswith(("]", ")")):
        start = max(text.rfind("["), text.rfind("("))
        if start > 0:
            return text[:start].rstrip()
    return text


def _without_markers(key_words: list[str]) -> str:
    return "".join(w for w in key_words if w not in MARKER_WORDS)


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
        # Every start (the whole key included) of each name key holding a digit: a name
        # key made of a line's name and its number, or led by its count, holds a digit,
        # so no card has it unless its start is here (`starts_digit_name`).
        self._digit_starts = frozenset(
            key[:end]
            for key in self._by_name
            if any(ch.isdigit() for ch in key)
            for end in range(len(key) + 1)
        )
        self._names_of: dict[str, frozenset[str]] = {}
        self._digit_led: dict[str, bool] = {}
        # A number typed exactly as printed, the common case, is one lookup: the card
        # the key and width test would give it (a printed number fits its own width).
        self._as_printed = {
            number: card
            for number, card in self.cards.items()
            if self._by_key[number_key(number)] is card
        }

    def __len__(self) -> int:
        return len(self.cards)

    def named_key(self, key: str) -> list[Card] | None:
        """The cards with a name key, for the resolver's common line."""
        return self._by_name.get(key)

    def starts_digit_name(self, start: str) -> bool:
        """Could a card's name key that holds a digit start with `start`?"""
        return start in self._digit_starts

    def by_number(self, text: str) -> Card | None:
        card = self._as_printed.get(text)
        if card is not None:
            return card
        card = self._by_key.get(number_key(text))
        if card is None or not fits_printed(text, card.number):
            return None
        return card

    def by_name(self, text: str) -> list[Card]:
        """Cards with this name; a bracketed side (`Antiramon [Moon]`) may be dropped."""
        found = self._by_name.get(name_key(text))
        if not found:
            bare = without_side(text)
            if bare != text and bare:
                found = self._by_name.get(name_key(bare))
        return sorted(found or (), key=lambda c: c.number)

    def only_card_named(self, text: str) -> Card | None:
        """The one card with this name, else None (`by_name` without sorting a list)."""
        found = self._by_name.get(name_key(text))
        if found is None and text.endswith(("]", ")")):
            return next(iter(self.by_name(text)), None) if len(self.by_name(text)) == 1 else None
        return found[0] if found and len(found) == 1 else None

    def names_of(self, card: Card) -> frozenset[str]:
        """The name keys a card answers to: its name, aliases and printed Japanese name."""
        found = self._names_of.get(card.number)
        if found is None:
            names = (*card.names, card.name_ja or "")
            found = frozenset(name_key(n) for n in names if n)
            self._names_of[card.number] = found
        return found

    def digit_led(self, card: Card) -> bool:
        """Does one of the card's names start with a digit (`4 Agumon` could be its name)?"""
        found = self._digit_led.get(card.number)
        if found is None:
            found = self._digit_led[card.number] = any(
                key[:1].isdigit() for key in self.names_of(card)
            )
        return found

    def agrees(self, card: Card, name: str | None) -> bool:
        """Is a written name exactly one of the card's names (markers and side aside)?"""
        known = self.names_of(card)
        if not name:
            return True
        if not known:
            return False  # nothing to agree with: `agreement` calls it near, never other
        if name_key(name) in known or name_key(without_side(name)) in known:
            return True
        words = name.casefold().split()
        if not _MARKERS.intersection(words):
            return False  # the common case: no marker word to drop
        return _without_markers([name_key(w) for w in words]) in known

    def agreement(self, card: Card, name: str | None) -> str:
        """How a written name fits a card: "exact", "near" (misspelt) or "other".

        A card with no known name is "near" any name: it can never be contradicted.
        """
        if self.agrees(card, name):
            return "exact"
        known = self.names_of(card)
        if not known:
            return "near"
        key = _without_markers([name_key(w) for w in name.split()]) if name else ""
        if key and any(
            fuzz.ratio(key, k) >= NEAR or (len(key) >= 4 and (key in k or k in key)) for k in known
        ):
            return "near"
        return "other"

    def suggest(self, text: str, limit: int = 3) -> list[Card]:
        """Near matches of a mistyped name or number, best first.

        rapidfuzz over the precomputed keys with a score cutoff: about 1 ms a name on
        the full DCG pool; `rules.resolve` bounds how many names one request asks for.
        """
        text = text[:100]
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
