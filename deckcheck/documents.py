"""Rule sources as players know them: document titles and public addresses, not the
file names the project keeps its copies under (../shared/rules-docs/)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.games import GAMES


@dataclass(frozen=True)
class Source:
    text: str
    url: str | None = None


def document(source: str) -> Source:
    """`dcg-rule-manual-en.txt, "Decks"` -> the manual's title, "Decks", and its address."""
    # Each game's documents (rules.games), by the file name or address prefix cited.
    for doc in (doc for game in GAMES.values() for doc in game.documents):
        if source.startswith(doc.source):
            return Source(doc.title + source[len(doc.source) :], doc.url)
    if source.startswith(("http://", "https://")):
        return Source(source, source)
    return Source(source)
