"""A saved deck as its page and its picture show it (contract "Saved deck pages").

`shown(deck_id)` reads the deck once and judges it as the API does (`core.view_now`:
judged again only when its world is not today's), and gives what /d/<id> renders on the
server and what /d/<id>.png draws: the name, the format, the verdict with its problems,
the list by section with counts, the newest versions. It never marks the verdict as
shown: that is the API read's to do (a page read by a link preview must not swallow the
"changed" a player should see).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from deckcheck.decks import core
from deckcheck.format_registry import get_format
from deckcheck.server import names
from rules.games import SECTIONS
from rules.model import plural

# The newest versions the page lists (the API pages through all of them).
VERSIONS_SHOWN = 20


@dataclass(frozen=True)
class Shown:
    row: dict
    view: dict  # today's verdict and list (core.View.view)
    changed: bool
    checked_on: str
    format_name: str
    game: str

    @property
    def cards(self) -> int:
        sections = self.view["deck"]["sections"]
        return sum(s["count"] for s in sections.values()) + (
            1 if self.view["deck"]["partner"] else 0
        )

    @property
    def verdict(self) -> str:
        problems = len(self.view["violations"])
        if self.view["legal"]:
            return "Legal"
        if self.view.get("verdict") == "unconfirmed":
            # Contract: "can't confirm" is not "illegal" (cards of a product out in
            # stores that this card list does not hold yet).
            return (
                f"Can't confirm: {plural(problems, 'card')} this card list does not hold yet. "
                "Check them against the official card list; nothing else is wrong."
            )
        return f"Not legal: {plural(problems, 'problem')}"

    @property
    def mark(self) -> str:
        """The verdict's sign: ✔ legal, ? can't confirm, ✘ not legal."""
        if self.view["legal"]:
            return "✔"
        return "?" if self.view.get("verdict") == "unconfirmed" else "✘"

    @property
    def description(self) -> str:
        """og:description: format, verdict, card count."""
        return f"{self.format_name} · {self.verdict} · {self.cards} cards"

    def sections(self) -> list[tuple[str, str, dict]]:
        """(id, heading, {"count", "cards"}) of each section that holds cards."""
        found = self.view["deck"]["sections"]
        return [
            (sid, SECTIONS[sid].heading if sid in SECTIONS else sid, data)
            for sid, data in found.items()
            if data["cards"]
        ]

    def picture_key(self) -> str:
        """What the picture shows, as a key: the deck's version (its name and list) and
        its verdict of today (legal and which problems), so a ban makes a new picture."""
        problems = sorted(
            f"{v['code']}|{v.get('section')}|{','.join(v.get('cards') or ())}"
            for v in self.view["violations"]
        )
        text = "\n".join(
            [self.row["id"], str(self.row["version"]), str(self.view["legal"]), *problems]
        )
        return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def shown(deck_id: str) -> Shown:
    """The deck as of today; a 404 (`deck-not-found`) for an id that names none."""
    if not names.is_id(deck_id):
        raise core.not_found()
    row = core.find_deck(deck_id)
    seen = core.view_now(row)
    fmt = get_format(row["format"])
    return Shown(
        row=row,
        view=seen.view,
        changed=seen.changed,
        checked_on=seen.day,
        format_name=fmt.name if fmt is not None else row["format"],
        game=fmt.game if fmt is not None else "",
    )


def moment(at: str) -> dict:
    """A stored time (`2026-12-04T20:32:00.123456+00:00`) as the page writes it: a
    `<time datetime>` in UTC and its words, labelled UTC (the page's script shows it
    in the reader's own time zone, named)."""
    day_time = at[:19]
    return {"datetime": f"{day_time}Z", "words": f"{day_time[:16].replace('T', ' ')} UTC"}
