"""What one request may spend on the costly parts of reading decks.

A budget is per request, never per deck or line: a `validate-batch` of 1,000 decks
shares one. What is over budget is still answered: an unknown name without
suggestions (its message says so), a deck link's entries reported instead of read.
"""

from __future__ import annotations

from dataclasses import dataclass

# Unknown names per request that get near-match suggestions (about 1 ms each on the
# full DCG pool): what a player fixing one list needs, and a bounded cost.
SUGGESTIONS = 20
# Entries of deck links, deck codes, TTS arrays and Limitless objects read per request
# (a 1 MB list of links holds about 100,000): far more than any real deck, and linear.
ENTRIES = 20_000
# What is over that is one problem for the whole link, code or array, never one per entry.
# Each deck a request judges adds this many (deckcheck.service): a real deck lists at most
# about 60 (a TTS array one per copy), so a batch or an event of real decks, in any input
# style, never runs short, while a deck of a huge array still stops near ENTRIES.
ENTRIES_PER_DECK = 200
OVER_ENTRIES = f"the deck links, codes and arrays of this request hold more than {ENTRIES:,} cards"


@dataclass(slots=True)
class Budget:
    suggestions: int = SUGGESTIONS
    entries: int = ENTRIES

    def suggestion(self) -> bool:
        """May one more unknown name get suggestions? (Counts it if so.)"""
        if self.suggestions <= 0:
            return False
        self.suggestions -= 1
        return True

    def add_deck(self) -> None:
        """One more deck is judged on this budget: its share of entries is added."""
        self.entries += ENTRIES_PER_DECK

    def affords(self, count: int) -> bool:
        """Could `count` more entries be read? (Asked before a costly read, with an upper
        bound of what a text holds; nothing is counted.)"""
        return count <= self.entries

    def take_entries(self, count: int) -> bool:
        """May `count` more link or code entries be read? (Counts them if so.)"""
        if count > self.entries:
            self.entries = 0
            return False
        self.entries -= count
        return True
