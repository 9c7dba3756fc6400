"""Names that are probably one player written twice: the organizer's table flags them so
the organizer can merge the two rows (store.merge keeps both lists in the history).

Two names are the same player only when their `names.fold`s are equal (the contract's
rule, which the store enforces). Names that differ by more than that are never merged
on their own: they may be two people. They are flagged when they

- are written with the same letters and digits, ignoring accents, punctuation, spaces
  and the order of the words ("Chen, Carol" and "Carol Chén"; "CarolChen"), or
- carry the same player id.

One pass over the event's players, grouping by those keys: cost linear in the players
(at most the event's cap), never a comparison of every pair.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable

from deckcheck.server.names import fold

MAX_FLAGS = 5  # other rows named per row: a group larger than this is said in a number


def _letters(word: str) -> str:
    """A word's letters and digits, accents taken off, case-folded."""
    plain = unicodedata.normalize("NFKD", fold(word))
    return "".join(c for c in plain if c.isalnum())


def keys(player: str, player_id: str) -> list[str]:
    """The keys under which two rows look like one player."""
    words = sorted(w for w in (_letters(w) for w in player.replace(",", " ").split()) if w)
    found = []
    if words:
        found.append("words:" + " ".join(words))
        found.append("letters:" + "".join(_letters(player)))
    if player_id:
        found.append("id:" + fold(player_id))
    return found


def near_duplicates(players: Iterable[tuple[str, str, str]]) -> dict[str, list[dict]]:
    """For each (id, player, player_id) that looks like another row, those rows
    ({"id", "player"}, at most MAX_FLAGS, by name); rows alone are left out."""
    groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for sid, player, player_id in players:
        for key in keys(player, player_id):
            groups[key].append((sid, player))
    found: dict[str, dict[str, str]] = defaultdict(dict)
    for members in groups.values():
        if len(members) < 2:
            continue
        # The first few of a group name it for every member: a thousand rows with one
        # player id cost a thousand steps, not a million.
        named = members[: MAX_FLAGS + 1]
        for sid, _ in members:
            others = found[sid]
            for other, name in named:
                if other != sid and len(others) < MAX_FLAGS:
                    others[other] = name
    return {
        sid: [{"id": o, "player": n} for o, n in sorted(others.items(), key=lambda p: p[1])]
        for sid, others in found.items()
    }
