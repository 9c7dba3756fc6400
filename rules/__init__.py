"""Deck-construction rules for four Digimon card games. Pure Python: no Flask, no SQL."""
