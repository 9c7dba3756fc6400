"""The world a saved deck is judged in: deckcheck.server.verdicts.world, the one for
every stored list (events and decks), named here for the deck code that asks it."""

from deckcheck.server.verdicts.world import World, card_facts, changed_numbers, world_now

__all__ = ["World", "card_facts", "changed_numbers", "world_now"]
