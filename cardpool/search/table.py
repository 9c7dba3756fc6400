"""A game's cards as columns in number order, built once per pool generation: each
search filter reads one column, and a result page sorts by ranks worked out here."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import sqlite_utils

from cardpool.cards import split
from cardpool.search.query import ROMAN, compact, fold, spaced
from rules.cache import Bounded
from rules.games import GAMES
from rules.numbers import number_key

MAX_RANKED = 512


@dataclass
class Table:
    """One game's cards in number order, with what each search term reads."""

    game: str
    rows: list[dict]
    by_key: dict[str, int]
    by_number: dict[str, int]  # as printed in the list: what a collection stores
    names: list[str]  # compact names, aliases and Japanese names joined by "|"
    name_keys: list[tuple[str, ...]]  # the same, one string each
    phrases: list[str]  # spaced names
    texts: list[str]  # spaced card text ("" where the imported list has none)
    tags: list[frozenset[str]]  # folded colours, types, traits
    kinds: list[str]
    levels: list[str]
    level_numbers: list[int | None]
    costs: list[int | None]
    dps: list[int | None]
    sets: list[str]  # the set code as a key: `BT1`, `ST10`, `P`, `ST` (Digi-Battle)
    series: list[str]  # the set code's letters before its number: `BT`, `ST`, `P`
    set_names: list[str]
    tails: list[str]  # the number after the set, as printed (upper case)
    rank: dict[str, list[int]]  # order -> rank of each card
    # Term masks (int), per pool generation.
    cache: dict[tuple, Any] = field(default_factory=dict)
    # Relevance places per name query (relevance_levels), at most MAX_RANKED of them:
    # five masks a query (about 3 kB for DCG), a few hundred queries' worth is plenty.
    ranks: Bounded[tuple[str, ...], list[int]] = field(default_factory=lambda: Bounded(MAX_RANKED))
    # "Did you mean" answers, per pool generation.
    suggestions: Bounded[str, str | None] = field(default_factory=Bounded)

    @property
    def everything(self) -> int:
        return (1 << len(self.rows)) - 1


def natural_key(number: str) -> tuple:
    """`BT1-002` < `BT1-010` < `BT1-100`, `BT1` < `BT2` < `BT10`: digits compare as numbers."""
    parts: list[tuple[int, int, str]] = []
    run = ""
    for ch in number.upper() + "-":
        if run and (not ch.isalnum() or _digit(ch) != _digit(run[-1])):
            parts.append((1, int(run), "") if _digit(run[-1]) else (0, 0, run))
            run = ""
        if ch.isalnum():
            run += ch
    return tuple(parts)


def _digit(ch: str) -> bool:
    """ASCII digits only: `²` and `٣` are digits to str.isdigit() but not to int()."""
    return "0" <= ch <= "9"


def ascii_number(text: str) -> bool:
    return bool(text) and all(_digit(ch) for ch in text)


def level_number(level: str | None) -> int | None:
    if not level:
        return None
    if ascii_number(level):
        return int(level)
    return ROMAN.get(level.casefold())


def build_table(game: str, rows: Iterable[dict], level_order: tuple[str, ...] = ()) -> Table:
    """The game's cards as columns, in number order, each filter reading one column."""
    ordered = sorted(rows, key=lambda r: natural_key(r["number"]))
    name_keys = [_name_keys(r) for r in ordered]
    sets, tails = _set_columns(ordered)
    table = Table(
        game=game,
        rows=ordered,
        by_key={r["key"]: i for i, r in enumerate(ordered)},
        by_number={r["number"]: i for i, r in enumerate(ordered)},
        names=["|".join(keys) for keys in name_keys],
        name_keys=name_keys,
        phrases=[_phrases(r) for r in ordered],
        texts=[spaced(_text(r, "text")) for r in ordered],
        tags=[_tags(r) for r in ordered],
        kinds=[r["kind"] for r in ordered],
        levels=[fold(_text(r, "level")) for r in ordered],
        level_numbers=[level_number(r["level"]) for r in ordered],
        costs=[r["play_cost"] for r in ordered],
        dps=[r["dp"] for r in ordered],
        sets=sets,
        series=[code.rstrip("0123456789") for code in sets],
        set_names=[fold(_text(r, "set_name")) for r in ordered],
        tails=tails,
        rank={},
    )
    table.rank.update(_ranks(table, level_order))
    return table


def _text(row: dict, key: str) -> str:
    """A text column's value, "" where the card has none."""
    return row.get(key) or ""


def _set_columns(ordered: list[dict]) -> tuple[list[str], list[str]]:
    """Each card's set key (`BT1`, "" for a number without a dash) and the number's tail
    after the dash (`010`), without an alternate-art suffix."""
    sets, tails = [], []
    for row in ordered:
        code, dash, tail = row["number"].split("_", 1)[0].partition("-")
        sets.append(number_key(code) if dash else "")
        tails.append(tail.upper())
    return sets, tails


def _name_keys(row: dict) -> tuple[str, ...]:
    """Every name a card is found by (its own, aliases, Japanese), compacted."""
    names = (row["name"], *split(row["aliases"]), row["name_ja"])
    return tuple(compact(name) for name in names if name)


def _phrases(row: dict) -> str:
    """Its names with word ends kept, for a quoted phrase."""
    return "|".join(spaced(name) for name in (row["name"], *split(row["aliases"])) if name)


def _tags(row: dict) -> frozenset[str]:
    """Types, colours and traits, folded: what a bare word matches exactly."""
    return frozenset(
        fold(tag) for tag in (*split(row["types"]), *split(row["colors"]), *split(row["traits"]))
    )


def _ranks(table: Table, level_order: tuple[str, ...]) -> dict[str, list[int]]:
    """Each sort order as a rank per card, worked out once a table (sorting a page of
    results then costs a lookup per card)."""
    rows = table.rows
    levels = {fold(level): i for i, level in enumerate(level_order)}
    sort_keys = {
        "name": lambda i: (fold(rows[i]["name"] or ""), i),
        "level": lambda i: (levels.get(table.levels[i], len(levels)), i),
        "cost": lambda i: (table.costs[i] is None, table.costs[i] or 0, i),
    }
    ranks = {"number": list(range(len(rows)))}
    for order, sort_key in sort_keys.items():
        rank = [0] * len(rows)
        for place, i in enumerate(sorted(range(len(rows)), key=sort_key)):
            rank[i] = place
        ranks[order] = rank
    return ranks


class Tables:
    """Every game's table for one database file, rebuilt when a pool's generation moves."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_path: dict[str, tuple[dict[str, int], dict[str, Table]]] = {}

    def get(self, db: sqlite_utils.Database) -> dict[str, Table]:
        path = db.execute("PRAGMA database_list").fetchone()[2] or f":memory:{id(db)}"
        current = dict(db.execute("SELECT game, generation FROM pools").fetchall())
        cached = self._by_path.get(path)
        if cached and cached[0] == current:
            return cached[1]
        with self._lock:
            tables = {game: _load(db, game) for game in sorted(current)}
            self._by_path[path] = (current, tables)
        return tables


def _load(db: sqlite_utils.Database, game: str) -> Table:
    rows = list(db.query("SELECT * FROM cards WHERE game = ?", [game]))
    return build_table(game, rows, GAMES[game].levels if game in GAMES else ())


TABLES = Tables()
