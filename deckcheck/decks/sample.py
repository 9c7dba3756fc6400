"""Sample hands: a saved deck's opening hand as its game deals it, from a seed.

The same seed gives the same draw (Python's Random with that seed, over the deck's
cards in the order they are stored). The opening rules are each game's `Draws`
(rules/games.py): DCG deals 5 cards to the hand, then places the next 5 as security
cards; Digi-Battle and DMCG first set a Rookie or a Level III aside (the first one the
shuffle turns up, as a player would pick one), then deal their hand.
"""

from __future__ import annotations

import random
import secrets

from deckcheck.errors import ApiError
from rules.games import GAMES
from rules.pool import CardIndex

SEED_MAX = 2**53  # an integer any JSON reader reads exactly


def seed_of(text: str | None) -> int:
    if text is None or text == "":
        return secrets.randbelow(SEED_MAX)
    if not text.isascii() or not text.isdigit() or len(text) > 16 or int(text) >= SEED_MAX:
        raise ApiError(
            422,
            "invalid-request",
            "Some fields are missing or wrong.",
            {"fields": {"seed": [f"A whole number from 0 to {SEED_MAX - 1}."]}},
        )
    return int(text)


def _card(number: str, index: CardIndex) -> dict:
    card = index.cards.get(number)
    return {"number": number, "name": card.name if card else ""}


def draw(game: str, structured: dict, seed: int, index: CardIndex) -> dict:
    draws = GAMES[game].draws
    if draws is None:
        raise ApiError(
            422,
            "sample-not-known",
            f"deckcheck does not know how a {GAMES[game].name} hand is dealt.",
            {"game": game},
        )
    deck = [n for n, count in structured["sections"].get("main", []) for _ in range(count)]
    random.Random(seed).shuffle(deck)
    aside = []
    if draws.set_aside_level:
        for at, number in enumerate(deck):
            card = index.cards.get(number)
            if card is not None and card.level == draws.set_aside_level:
                aside.append(deck.pop(at))
                break
    hand, security = deck[: draws.hand], deck[draws.hand : draws.hand + draws.security]
    warnings = []
    if len(hand) + len(security) < draws.hand + draws.security:
        warnings.append(
            {
                "code": "deck-too-small",
                "message": f"The main deck holds {len(deck) + len(aside)} cards: too few to "
                "deal a whole opening hand.",
            }
        )
    if draws.set_aside_level and not aside:
        warnings.append(
            {
                "code": "nothing-to-set-aside",
                "message": f"The main deck has no level {draws.set_aside_level} card to set "
                "aside before dealing.",
            }
        )
    return {
        "seed": seed,
        "hand": [_card(n, index) for n in hand],
        "security": [_card(n, index) for n in security],
        "set_aside": [_card(n, index) for n in aside],
        "rule": draws.rule,
        "warnings": warnings,
    }
