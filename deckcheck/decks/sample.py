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
from rules.games import GAMES, Draws
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
    aside = _set_aside(deck, draws.set_aside_level, index)
    hand, security = deck[: draws.hand], deck[draws.hand : draws.hand + draws.security]
    warnings = _warnings(draws, len(deck) + len(aside), len(hand) + len(security), aside)
    return {
        "seed": seed,
        "hand": [_card(n, index) for n in hand],
        "security": [_card(n, index) for n in security],
        "set_aside": [_card(n, index) for n in aside],
        "rule": draws.rule,
        "warnings": warnings,
    }


def _set_aside(deck: list[str], level: str | None, index: CardIndex) -> list[str]:
    """The first card of `level` taken out of the shuffled deck before dealing (the
    game's rule), as a list of its number; none without such a rule or card."""
    if level:
        for at, number in enumerate(deck):
            card = index.cards.get(number)
            if card is not None and card.level == level:
                return [deck.pop(at)]
    return []


def _warnings(draws: Draws, size: int, dealt: int, aside: list[str]) -> list[dict]:
    """Why a sample is not a whole opening: a deck too small, or nothing to set aside."""
    warnings = []
    if dealt < draws.hand + draws.security:
        warnings.append(
            {
                "code": "deck-too-small",
                "message": f"The main deck holds {size} cards: too few to "
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
    return warnings
