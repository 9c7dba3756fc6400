"""Card rows in the database <-> `rules.model.Card`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rules.model import Card
from rules.numbers import number_key

LIST_FIELDS = ("types", "aliases", "evo_names", "flags", "colors", "traits")


def join(values: Iterable[str | None]) -> str:
    """Lists are stored `;`-joined, as in the CSV, with outer `;` so LIKE '%;x;%' finds x."""
    items = [v.strip() for v in values if v and v.strip()]
    return ";" + ";".join(items) + ";" if items else ""


def split(text: str | None) -> tuple[str, ...]:
    return tuple(item for item in (text or "").split(";") if item)


def make_row(game: str, **fields: Any) -> dict:
    row = {"game": game, "key": number_key(fields["number"])}
    for name, value in fields.items():
        row[name] = join(value) if name in LIST_FIELDS else value
    return row


def row_to_card(row: dict) -> Card:
    return Card(
        game=row["game"],
        number=row["number"],
        name=row["name"] or "",
        kind=row["kind"],
        level=row["level"] or None,
        types=split(row["types"]),
        aliases=split(row["aliases"]),
        evo_names=split(row["evo_names"]),
        flags=frozenset(split(row["flags"])),
        max_copies=row["max_copies"],
        set=row["set_name"] or None,
        name_ja=row["name_ja"] or None,
        colors=split(row["colors"]),
        treated_as=row.get("treated_as") or None,
    )


def row_to_json(row: dict) -> dict:
    """A card object of the API: the contract's fields plus what players search by.

    `cost` is the contract's name for the play cost; `play_cost`, a copy, and a DCG
    card's `types`, a copy of its `colors`, are deprecated (the OpenAPI document says so)
    and kept for one release for the clients that read them.
    """
    colors = list(split(row["colors"]))
    types = list(split(row["types"]))
    return {
        "game": row["game"],
        "number": row["number"],
        "name": row["name"] or "",
        "kind": row["kind"],
        "level": row["level"] or None,
        "types": types,
        "aliases": list(split(row["aliases"])),
        "evo_names": list(split(row["evo_names"])),
        "flags": list(split(row["flags"])),
        "max_copies": row["max_copies"],
        "set": row["set_name"] or None,
        "name_ja": row["name_ja"] or None,
        "colors": colors,
        "traits": list(split(row["traits"])),
        "cost": row["play_cost"],
        "play_cost": row["play_cost"],
        "dp": row["dp"],
        "rarity": row["rarity"] or None,
        "text": row.get("text") or None,
        "treated_as": row.get("treated_as") or None,
    }
