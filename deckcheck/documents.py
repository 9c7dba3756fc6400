"""Rule sources as players know them: document titles and public addresses, not the
file names the project keeps its copies under (../shared/rules-docs/)."""

from __future__ import annotations

from dataclasses import dataclass

# file name or address prefix -> (title, public address or None)
DOCUMENTS = {
    "dcg-rule-manual-en.txt": (
        "Digimon Card Game Rule Manual (English)",
        "https://world.digimoncard.com/rule/",
    ),
    "dcg-comprehensive-rules-ja.txt": (
        "Digimon Card Game Comprehensive Rules (Japanese)",
        "https://digimoncard.com/rule/",
    ),
    "dbe-rules.txt": ("Digimon Battle Evolution rules (Alice White)", None),
    "digibattle-rules.txt": ("Digi-Battle common sense rules and tips (2016)", None),
    "dmcg-wiki.txt": (
        "Digital Monster Card Game article (Wikimon)",
        "https://wikimon.net/Digital_Monster_Card_Game",
    ),
    "world.digimoncard.com/rule/restriction_card": (
        "Digimon Card Game restricted and banned cards (official site)",
        "https://world.digimoncard.com/rule/restriction_card/",
    ),
}


@dataclass(frozen=True)
class Source:
    text: str
    url: str | None = None


def document(source: str) -> Source:
    """`dcg-rule-manual-en.txt, "Decks"` -> the manual's title, "Decks", and its address."""
    for prefix, (title, url) in DOCUMENTS.items():
        if source.startswith(prefix):
            return Source(title + source[len(prefix) :], url)
    if source.startswith(("http://", "https://")):
        return Source(source, source)
    return Source(source)
