"""Importers: bytes of an upstream card list -> validated database rows.

Each importer is a small module with a marshmallow schema of its upstream shape.
Nothing here writes: `cardpool.store` swaps the validated rows in as one unit.
"""

from __future__ import annotations

from cardpool.errors import BadRowError, SourceFormatError
from cardpool.importers import card_csv, dcg_json
from rules.games import GAMES


def parse_source(game: str, content: bytes, source: str, additions: bool = True) -> list[dict]:
    """Rows of a card list, JSON (DCG upstream shape) or the deckcheck CSV, by content;
    `additions` False for one product's cards (`cardpool add`), which are only its own."""
    head = content.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if head in (b"[", b"{"):
        if not GAMES[game].json_card_list:
            raise SourceFormatError(
                f"{source}: a JSON card list is accepted for dcg only; "
                f"use the deckcheck card CSV for {game}"
            )
        # deckcheck's own additions (cards the upstream lacks) survive an import.
        from cardpool.shipped import with_additions

        rows = dcg_json.parse(content, source)
        rows = with_additions(rows) if additions else rows
    else:
        rows = card_csv.parse(game, content, source)
    if not rows:
        raise SourceFormatError(f"{source}: no cards found, so nothing was imported")
    return rows


__all__ = ["BadRowError", "SourceFormatError", "parse_source"]
