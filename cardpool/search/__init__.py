"""Card search: the query language of the contract, answered from memory.

A query is read by a small linear tokenizer (no regular expression ever sees the
user's text), each term becomes a bitmask over a game's cards in number order,
and the masks are combined with `&` and `~`. The per-game tables are built once
per pool generation, so a search costs a few set operations instead of SQL.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import sqlite_utils
from rapidfuzz import fuzz, process

from cardpool.search.match import held, legacy_terms, mask, matches, parse, positions, term_mask
from cardpool.search.query import (
    MAX_QUERY,
    ORDERS,
    Found,
    Limited,
    Query,
    QueryError,
    Term,
    Within,
    compact,
    spaced,
    tokenize,
)
from cardpool.search.table import TABLES, Table, build_table, natural_key
from rules.games import GAMES
from rules.numbers import number_key

__all__ = [
    "MAX_QUERY",
    "ORDERS",
    "TABLES",
    "Found",
    "Limited",
    "Query",
    "QueryError",
    "Table",
    "Term",
    "Within",
    "build_table",
    "did_you_mean",
    "find_card",
    "held",
    "legacy_terms",
    "matches",
    "natural_key",
    "parse",
    "relevance",
    "run",
    "search",
    "term_mask",
    "tokenize",
]


def run(db: sqlite_utils.Database, query: Query, limited: Limited | None = None) -> Found:
    """A page of cards matching `query`, its total, and a suggestion when nothing matched."""
    terms = parse(query)
    tables = TABLES.get(db)
    found = _find(tables, query, terms, limited)
    found.note = text_note(tables, query, terms)
    if found.total == 0 and tables:
        # Remembered per pool generation: a typo tends to be retyped, and a fuzzy match
        # over every name is the one slow step of a search.
        memo = next(iter(tables.values())).suggestions
        tag = query.within.tag if query.within else None
        key = repr((query.game, query.q, query.kind, query.level, query.color, tag))
        if key in memo:
            found.did_you_mean = memo[key]
        else:
            found.did_you_mean = memo.keep(key, did_you_mean(tables, query, terms, limited))
    return found


def text_note(tables: dict[str, Table], query: Query, terms: list[Term]) -> str | None:
    """A sentence when the query reads card text (`o:`, `text:`) and a searched game's
    card list has none (the shipped DCG list is facts only): 0 cards then means "no
    text to search", not "no such card"."""
    if not any(t.key == "text" for t in terms):
        return None
    games = [query.game] if query.game else sorted(tables)
    bare = [g for g in games if g in tables and not has_text(tables[g])]
    if not bare:
        return None
    names = [GAMES[g].name for g in bare]
    if len(bare) == 1:
        lists = f"The {names[0]} card list here has"
    else:
        lists = f"The {', '.join(names[:-1])} and {names[-1]} card lists here have"
    return (
        f"{lists} no card text, so o: and text: find none of {'its' if len(bare) == 1 else 'their'}"
        f" cards. To search card text, import a card list with a text column"
        f" (cardpool import {bare[0]} cards.csv)."
    )


def has_text(table: Table) -> bool:
    """Whether any card of the table has text; worked out once per pool generation."""
    known = table.cache.get(("has-text",))
    if known is None:
        known = table.cache[("has-text",)] = any(t.strip() for t in table.texts)
    return bool(known)


def _find(
    tables: dict[str, Table], query: Query, terms: list[Term], limited: Limited | None
) -> Found:
    games = [query.game] if query.game else sorted(tables)
    hits = [
        (tables[g], held(tables[g], query.within) & matches(tables[g], terms, limited))
        for g in games
        if g in tables
    ]
    total = sum(bits.bit_count() for _, bits in hits)
    start = (query.page - 1) * query.per_page
    wanted = start + query.per_page
    rows: list[dict] = []
    for table, bits in hits:
        if len(rows) >= wanted:
            break
        if query.order == "number":
            rows += [table.rows[i] for i in positions(bits, wanted - len(rows))]
        elif query.order == "relevance":
            for level in relevance_levels(table, terms):
                if len(rows) >= wanted:
                    break
                rows += [table.rows[i] for i in positions(bits & level, wanted - len(rows))]
        else:
            rank = table.rank[query.order]
            chosen = sorted(positions(bits, bits.bit_count()), key=rank.__getitem__)
            rows += [table.rows[i] for i in chosen[: wanted - len(rows)]]
    return Found(rows[start:wanted], total, terms=terms)


def relevance(table: Table, terms: list[Term]) -> Callable[[int], int]:
    """A card's place for `order=relevance`: 0 its name is the query's name words,
    1 its name starts with them, 2 each is a whole word of its name, 3 they are inside
    a compound name (MetalGreymon for `greymon`), 4 anything else (number, trait).
    Ties keep number order. Every string is prepared once: a broad word (`mon`) ranks
    thousands of cards per request."""
    words = [t.value for t in terms if t.key in ("word", "phrase") and not t.negated]
    wanted = compact(" ".join(words))
    pieces = [p for p in (compact(w) for w in words) if p]
    spaced_words = [spaced(w) for w in words if compact(w)]
    if not wanted:
        return lambda i: 4
    names, phrases, joined = table.name_keys, table.phrases, table.names

    def score(i: int) -> int:
        own = names[i]
        if wanted in own:
            return 0
        for name in own:
            if name.startswith(wanted):
                return 1
        if all(w in phrases[i] for w in spaced_words):
            return 2
        if wanted in joined[i] or all(p in joined[i] for p in pieces):
            return 3
        return 4

    return score


def _at(places: list[int], place: int) -> Callable[[int], bool]:
    return lambda i: places[i] == place


def relevance_levels(table: Table, terms: list[Term]) -> list[int]:
    """The cards of each relevance place (0 to 4) as masks, each in number order: built
    once per name query and cached as term masks are, so a broad word ranks thousands of
    cards with a few big-integer operations instead of scoring each one per request."""
    words = tuple(t.value for t in terms if t.key in ("word", "phrase") and not t.negated)
    levels: list[int] | None = table.ranks.get(words)
    if levels is None:
        score = relevance(table, terms)
        places = [score(i) for i in range(len(table.rows))]
        levels = table.ranks.keep(words, [mask(table, _at(places, place)) for place in range(5)])
    return levels


def find_card(db: sqlite_utils.Database, game: str, number: str) -> dict | None:
    """One card by its number, however it is typed (`bt1-10`, `BT1-010_P1`)."""
    rows = db.query("SELECT * FROM cards WHERE game = ? AND key = ?", [game, number_key(number)])
    return next(rows, None)


def search(db: sqlite_utils.Database, query: Query) -> tuple[list[dict], int]:
    """(rows of this page, total matches): `run` without the suggestion."""
    found = run(db, query)
    return found.rows, found.total


def did_you_mean(
    tables: dict[str, Table], query: Query, terms: list[Term], limited: Limited | None
) -> str | None:
    """The query with its name words replaced by the closest card name, if that finds cards."""
    words = [t for t in tokenize(query.q or "") if t.key in ("word", "phrase") and not t.negated]
    wanted = compact(" ".join(t.value for t in words))
    if not wanted:
        return None
    games = [query.game] if query.game else sorted(tables)
    names: dict[str, str] = {}
    for game in games:
        for row in tables[game].rows if game in tables else ():
            if row["name"]:
                names.setdefault(compact(row["name"]), row["name"])
    others = [t.text for t in tokenize(query.q or "") if t not in words]
    for key, _, _ in process.extract(
        wanted, list(names), scorer=fuzz.ratio, limit=3, score_cutoff=60
    ):
        name = names[key]
        guess = " ".join([f'"{name}"' if " " in name else name, *others])
        retry = replace(query, q=guess, page=1)
        if _find(tables, retry, parse(retry), limited).total:
            return guess
    return None
