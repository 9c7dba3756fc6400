"""Opening-hand odds: the chance of seeing a card (or any of a group) by a turn.

Drawing without replacement from a shuffled deck is the hypergeometric
distribution: with N cards of which K are wanted, the chance that n drawn cards
hold none of them is C(N-K, n) / C(N, n). Hand sizes and draws come from each
game's `Draws` in `rules.games` (read from the rule documents). Mulligans and
card effects that draw are left out: the figures are for the hand as dealt.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from rules.games import GAMES, Draws
from rules.model import Deck

MAX_TURN = 20


def at_least_one(deck_size: int, copies: int, seen: int) -> float:
    """P(at least one of `copies` wanted cards among `seen` cards drawn from `deck_size`)."""
    if deck_size <= 0 or copies <= 0 or seen <= 0:
        return 0.0
    copies = min(copies, deck_size)
    seen = min(seen, deck_size)
    return 1 - comb(deck_size - copies, seen) / comb(deck_size, seen)


def seen_by_turn(draws: Draws, turn: int, first: bool) -> int | None:
    """Cards a player has drawn by the start of their own `turn` (1-based), or None
    when the hand refills and the number depends on play."""
    if draws.per_turn is None:
        return draws.hand if turn <= 1 else None
    draws_taken = turn if (draws.first_player_draws or not first) else turn - 1
    return draws.hand + draws.per_turn * draws_taken


def drawn_from(draws: Draws, main_count: int) -> int:
    """The size of the deck the hand is dealt from."""
    size = main_count - draws.set_aside
    if draws.deck_cap is not None:
        size = min(size, draws.deck_cap)
    return max(size, 0)


@dataclass(frozen=True)
class Group:
    """Cards a player counts together: one card, a level, a kind, one name's printings."""

    label: str
    kind: str  # "card", "level", "kind" or "name"
    cards: tuple[str, ...]
    copies: int


KIND_LABELS = {
    "digimon": "Digimon",
    "tamer": "Tamers",
    "option": "Options",
    "evolution": "Evolution cards",
    "data": "DATA cards",
    "mastery": "Mastery cards",
    "digi-egg": "Digi-Eggs",
}


def groups(deck: Deck) -> list[Group]:
    """Every card of the main deck, then its levels, kinds and names with several numbers."""
    stacks = deck.stacks("main")
    found = [Group(s.card.label, "card", (s.card.number,), s.count) for s in stacks]
    levels = GAMES[deck.game].levels if deck.game in GAMES else ()
    by_level: dict[str, list] = {}
    by_kind: dict[str, list] = {}
    by_name: dict[str, list] = {}
    for stack in stacks:
        if stack.card.kind == "digimon" and stack.card.level:
            by_level.setdefault(stack.card.level, []).append(stack)
        by_kind.setdefault(stack.card.kind, []).append(stack)
        if stack.card.name:
            by_name.setdefault(stack.card.name.casefold(), []).append(stack)
    ordered_levels = sorted(by_level, key=lambda lv: levels.index(lv) if lv in levels else 99)
    for level in ordered_levels:
        found.append(_group(f"Level {level} Digimon", "level", by_level[level]))
    for kind, members in by_kind.items():
        if kind != "digimon":
            found.append(_group(KIND_LABELS.get(kind, kind), "kind", members))
    for members in by_name.values():
        if len(members) > 1:
            found.append(_group(f"any {members[0].card.name}", "name", members))
    return found


def _group(label: str, kind: str, stacks: list) -> Group:
    return Group(label, kind, tuple(s.card.number for s in stacks), sum(s.count for s in stacks))


def deck_odds(deck: Deck, turn: int = 3) -> dict:
    """The odds of every group: in the opening hand, and by `turn` going first / second."""
    draws = GAMES[deck.game].draws
    if draws is None:
        raise ValueError(f"no draw rules are known for {deck.game}")
    turn = max(1, min(turn, MAX_TURN))
    size = drawn_from(draws, sum(s.count for s in deck.stacks("main")))
    by_first = seen_by_turn(draws, turn, first=True)
    by_second = seen_by_turn(draws, turn, first=False)
    return {
        "hand_size": draws.hand,
        "deck_size": size,
        "turn": turn,
        "rule": draws.rule,
        "seen": {"first": by_first, "second": by_second},
        "groups": [
            {
                "label": g.label,
                "kind": g.kind,
                "cards": list(g.cards),
                "copies": g.copies,
                "opening": at_least_one(size, g.copies, draws.hand),
                "by_turn": None
                if by_first is None or by_second is None
                else {
                    "first": at_least_one(size, g.copies, by_first),
                    "second": at_least_one(size, g.copies, by_second),
                },
            }
            for g in groups(deck)
        ],
    }
