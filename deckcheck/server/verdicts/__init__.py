"""The one judge of a stored list, for events and saved decks alike.

A stored list is a structured list (`lists`: the cards it was read as, the lines that
named no card, kept as written, and the reading they came from) judged in a world
(`world`: the judge, the format's rules and what the day makes of each card) or under a
key (`keys`: the judge, a digest of the format's content and the card pool's
generation). Events and decks ask this package; it asks neither of them.
"""

from deckcheck.server.verdicts.keys import current_key, format_digest, judge_version, judged_key
from deckcheck.server.verdicts.lists import (
    judge,
    numbers_of,
    payload_of,
    read,
    stale_reading,
    structured_of,
    unresolved_lines,
    verdict_json,
    view_of,
)
from deckcheck.server.verdicts.world import World, changed_numbers, world_now

__all__ = [
    "World",
    "changed_numbers",
    "current_key",
    "format_digest",
    "judge",
    "judge_version",
    "judged_key",
    "numbers_of",
    "payload_of",
    "read",
    "stale_reading",
    "structured_of",
    "unresolved_lines",
    "verdict_json",
    "view_of",
    "world_now",
]
