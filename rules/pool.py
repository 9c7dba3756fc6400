"""A game's card pool in memory, indexed the ways decklists name cards."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from rapidfuzz import fuzz, process

from rules.cache import memo
from rules.games import MARKER_TOKENS, MARKERS
from rules.model import Card
from rules.numbers import fits_printed, is_number, looks_like_number, number_key
from rules.sets import is_newer_than_pool, newest_sets

if TYPE_CHECKING:  # a reading is the reader's value; the index only reads its fields
    from rules.read.model import Reading

# Linear: one character class, each character matched once.
_NOT_WORD = re.compile(r"[\W_]+")
_DIGITS = re.compile(r"[0-9]+")
# Words deck builders add beside a name that are not part of it (`Myotismon ACE`), and
# the games' tags (`Agumon (DCG)`: rules.games).
MARKER_WORDS = ("ace", *MARKERS, "alt", "art", "altart", "aa", "parallel", "foil", "promo")
_MARKERS = frozenset(MARKER_WORDS) | frozenset(MARKER_TOKENS)
NEAR = 80  # rapidfuzz ratio (0-100) at which two name keys are one name misspelt


@memo()
def name_key(text: str) -> str:
    """Case, accents of width, spacing and punctuation do not tell names apart (kept:
    the same names come back on every request)."""
    return _NOT_WORD.sub("", unicodedata.normalize("NFKC", text).casefold())


def without_side(text: str) -> str:
    """`Antiramon [Moon]` -> `Antiramon`: a flip card's bracketed side, if it ends the name.

    A bracketed card number is never a side: `Hearts Attack (EX13-050)` is that number,
    and the number decides (contract), so the name must not find BT1-099 Hearts Attack
    behind it."""
    text = text.rstrip()
    if text.endswith(("]", ")")):
        start = max(text.rfind("["), text.rfind("("))
        if start > 0 and not is_number(text[start + 1 : -1].strip()):
            return text[:start].rstrip()
    return text


@memo()
def _agreeing_keys(name: str) -> tuple[str, ...]:
    """The name keys a written name agrees with: its own, without a bracketed side, and
    without deck-builder markers (`Myotismon ACE`). Kept: names come back."""
    found = [name_key(name)]
    side = without_side(name)
    if side != name:
        found.append(name_key(side))
    words = name.casefold().split()
    if _MARKERS.intersection(words):
        found.append(_without_markers([name_key(w) for w in words]))
    return tuple(found)


def _differ_in_digits(key: str, digits: list[str], known: str) -> bool:
    """Do two name keys, both holding digits, differ in their digits only?"""
    theirs = _DIGITS.findall(known)
    return bool(theirs) and theirs != digits and _DIGITS.sub("", key) == _DIGITS.sub("", known)


def _name_keys(card: Card) -> frozenset[str]:
    """The name keys a card answers to: its name, aliases and printed Japanese name."""
    return frozenset(name_key(n) for n in (*card.names, card.name_ja or "") if n)


def _without_markers(key_words: list[str]) -> str:
    return "".join(w for w in key_words if w not in MARKER_WORDS)


class Found(NamedTuple):
    """What the card list says of one reading that writes a card number.

    `card`: the card the number names (None: no card has it). `tier`: how the reading's
    name fits that card, "exact", "near" or "other" (`CardIndex.agreement`; "" without a
    card). For a number that names no card: `alternatives`, the cards the reading's name
    names (at most 3, by number), and `newer`, why it may be a card of a set newer than
    the list holds (`CardIndex.newer_set`), else None.
    """

    card: Card | None
    tier: str
    alternatives: tuple[Card, ...] = ()
    newer: str | None = None


class CardIndex:
    """Look cards up by number (any spelling) or by name, and suggest near misses.

    `updated`: when the card list was imported (an ISO date-time), for messages; None
    when unknown.
    """

    def __init__(self, game: str, cards: Iterable[Card], updated: str | None = None) -> None:
        self.game = game
        self.updated = updated
        self.cards: dict[str, Card] = {}
        self._by_key: dict[str, Card] = {}
        self._by_name: dict[str, list[Card]] = {}
        for card in cards:
            self.cards[card.number] = card
            self._by_key[card.key] = card
            for name in {card.name, card.name_ja}:
                if name:
                    self._by_name.setdefault(name_key(name), []).append(card)
        self._name_choices = list(self._by_name)
        self._key_choices = list(self._by_key)
        self._names = {number: _name_keys(card) for number, card in self.cards.items()}
        # A number typed exactly as printed, the common case, is one lookup: the card
        # the key and width test would give it (a printed number fits its own width).
        self._as_printed = {
            number: card
            for number, card in self.cards.items()
            if self._by_key[number_key(number)] is card
        }
        # Each series the list holds (DCG: its newest set; other games: the letters before
        # the dash), so an unknown number of a newer set or series is told apart from a typo.
        self._newest = newest_sets(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def by_number(self, text: str) -> Card | None:
        card = self._as_printed.get(text)
        if card is not None:
            return card
        card = self._by_key.get(number_key(text))
        if card is None or not fits_printed(text, card.number):
            return None
        return card

    def look(self, reading: Reading) -> Found:
        """Everything the resolver asks of a reading's number, in one call: its card and
        how the name agrees, or, when it names no card, the name's cards and the newer-set
        hint (worked out only then: most lines name a card). The number key is the
        reading's own, folded once when the line was read."""
        number = reading.number or ""
        card = self._as_printed.get(number)
        if card is None:
            key = reading.key if reading.key is not None else number_key(number)
            card = self._by_key.get(key)
            if card is not None and not fits_printed(number, card.number):
                card = None
        if card is not None:
            return Found(card, self.agreement(card, reading.name))
        named = tuple(self.by_name(reading.name)[:3]) if reading.name else ()
        return Found(None, "", named, self.newer_set(number) if number else None)

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
            named = self.by_name(text)
            return named[0] if len(named) == 1 else None
        return found[0] if found and len(found) == 1 else None

    def names_of(self, card: Card) -> frozenset[str]:
        """The name keys a card answers to: its name, aliases and printed Japanese name."""
        found = self._names.get(card.number)
        if found is None or self.cards.get(card.number) is not card:
            found = _name_keys(card)
        return found

    def agrees(self, card: Card, name: str | None) -> bool:
        """Is a written name exactly one of the card's names (markers and side aside)?"""
        if not name:
            return True
        known = self.names_of(card)
        if not known:
            return False  # nothing to agree with: `agreement` calls it near, never other
        return any(key in known for key in _agreeing_keys(name))

    def agreement(self, card: Card, name: str | None) -> str:
        """How a written name fits a card: "exact", "near" (misspelt) or "other".

        A card with no known name is "near" any name: it can never be contradicted. A
        name that differs from the card's in its digits (`Shoutmon X5` for `Shoutmon X4`)
        is another card's name, never a misspelling.
        """
        if self.agrees(card, name):
            return "exact"
        known = self.names_of(card)
        if not known:
            return "near"
        key = _without_markers([name_key(w) for w in name.split()]) if name else ""
        digits = _DIGITS.findall(key)
        if key and any(
            (fuzz.ratio(key, k) >= NEAR or (len(key) >= 4 and (key in k or k in key)))
            # `Shoutmon X5` for `Shoutmon X4` is another card's name, not a misspelling.
            and not (digits and _differ_in_digits(key, digits, k))
            for k in known
        ):
            return "near"
        return "other"

    def newer_set(self, number: str) -> str | None:
        """Why an unknown number may be a real card the list does not have yet (its set
        is newer than the newest the list holds of its series, or of a series the list
        never held), in words; None when it is not (a typo, or an empty list). A list of
        only some of a game's cards (the shipped Digi-Battle and DMCG starter pools) is
        behind for every series it lacks: `MP-63` is "not in this card list yet"."""
        if not self._newest:
            return None
        found = is_newer_than_pool(number, self._newest)
        if found is None:
            return None
        known = self._newest.get(found.series)
        if known is not None:
            words = f"its newest {found.series} set is {known.code}"
        elif found.number is None:
            words = f"it holds no {found.series}- cards"
        else:
            words = f"it holds no {found.series} set"
        day = f" (list updated {self.updated[:10]})" if self.updated else ""
        return words + day

    def newest_set(self, series: str) -> str | None:
        """The newest set code the list holds of a series (`EX12`), None when it holds
        none or the series has no numbered sets."""
        found = self._newest.get(series)
        return found.code if found is not None and found.number is not None else None

    def suggest(self, text: str, limit: int = 3) -> list[Card]:
        """Near matches of a mistyped name or number, best first.

        rapidfuzz over the precomputed keys with a score cutoff: about 1 ms a name on
        the full DCG pool; `rules.budget` bounds how many names one request asks for.
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
