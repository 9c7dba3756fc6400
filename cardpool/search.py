"""Card search: the query language of the contract, answered from memory.

A query is read by a small linear tokenizer (no regular expression ever sees the
user's text), each term becomes a bitmask over a game's cards in number order,
and the masks are combined with `&` and `~`. The per-game tables are built once
per pool generation, so a search costs a few set operations instead of SQL.
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import sqlite_utils
from rapidfuzz import fuzz, process

from cardpool.cards import split
from rules.cache import Bounded
from rules.games import GAMES
from rules.numbers import number_key

MAX_QUERY = 200
MAX_TERMS = 24
MAX_RANKED = 512
ORDERS = ("number", "name", "level", "cost", "relevance")
COMPARE = ("=", ":", "<", "<=", ">", ">=")
# Keys of the language and the field each one reads.
KEYS = {
    "k": "kind",
    "kind": "kind",
    "lv": "level",
    "level": "level",
    "c": "color",
    "color": "color",
    "colour": "color",
    "t": "trait",
    "trait": "trait",
    "type": "trait",
    "cost": "cost",
    "pc": "cost",
    "dp": "dp",
    "set": "set",
    "is": "is",
    "o": "text",
    "text": "text",
}
NUMERIC = {"cost", "dp"}
ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7}
KIND_WORDS = {"egg": "digi-egg", "eggs": "digi-egg", "digiegg": "digi-egg"}
IS_VALUES = ("banned", "restricted")

Limited = Callable[[str], Mapping[str, str]]
"""For a game, its cards limited on the query's date: number key -> "banned" | "restricted"."""


class QueryError(ValueError):
    """A query term that cannot be read; `term` is the term as the player typed it."""

    def __init__(self, term: str, message: str) -> None:
        super().__init__(message)
        self.term = term
        self.message = message


@dataclass(frozen=True)
class Within:
    """Only the cards a player holds: `numbers` of `game`, any printing of each (a number
    and its alternate arts, `BT1-010_P1`, share one key). `tag` names this set of numbers
    (a collection's id and version) where answers are remembered."""

    game: str
    numbers: frozenset[str]
    tag: str


@dataclass(frozen=True)
class Query:
    """A search: the query text plus the filters of the older form fields, and the
    collection it is limited to (`within`)."""

    game: str | None = None
    q: str | None = None
    kind: str | None = None
    level: str | None = None
    color: str | tuple[str, ...] | None = None
    page: int = 1
    per_page: int = 50
    order: str = "number"
    within: Within | None = None


@dataclass(frozen=True)
class Term:
    text: str
    key: str  # "word", "phrase" or a field of KEYS
    value: str
    op: str = ":"
    negated: bool = False


@dataclass
class Found:
    rows: list[dict]
    total: int
    did_you_mean: str | None = None
    terms: list[Term] = field(default_factory=list)
    # Why the search may find less than the player expects (a text term on a list with
    # no card text): said beside the results instead of a silent 0.
    note: str | None = None


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def compact(text: str) -> str:
    """Letters and digits only: `Metal-Greymon (X)` -> `metalgreymonx`."""
    return "".join(ch for ch in fold(text) if ch.isalnum())


def spaced(text: str) -> str:
    """Words separated by one space, padded, so a phrase matches at word edges too."""
    out = "".join(ch if ch.isalnum() else " " for ch in fold(text))
    return " " + " ".join(out.split()) + " "


# ---------------------------------------------------------------- tokenizer


def tokenize(text: str) -> list[Term]:
    """The terms of a query, left to right, in one pass over the text."""
    text = text[:MAX_QUERY]
    terms: list[Term] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        start = i
        negated = text[i] == "-" and i + 1 < n and not text[i + 1].isspace()
        if negated:
            i += 1
        if text[i] == '"':
            value, i = _quoted(text, i)
            terms.append(Term(text[start:i], "phrase", value, negated=negated))
            continue
        j = i
        while j < n and text[j].isascii() and text[j].isalpha():
            j += 1
        if j > i and j < n and text[j] in ":=<>!":
            term, i = _keyed(text, start, i, j, negated)
            terms.append(term)
            continue
        while i < n and not text[i].isspace():
            i += 1
        terms.append(Term(text[start:i], "word", text[start + negated : i], negated=negated))
    if len(terms) > MAX_TERMS:
        raise QueryError(terms[MAX_TERMS].text, f"A query may have at most {MAX_TERMS} terms.")
    return terms


def _quoted(text: str, i: int) -> tuple[str, int]:
    """The text between a quote at `i` and the next one (or the end)."""
    end = text.find('"', i + 1)
    if end < 0:
        return text[i + 1 :], len(text)
    return text[i + 1 : end], end + 1


def _keyed(text: str, start: int, i: int, j: int, negated: bool) -> tuple[Term, int]:
    name = text[i:j].lower()
    op = text[j]
    k = j + 1
    if op in "<>" and k < len(text) and text[k] == "=":
        op += "="
        k += 1
    if k < len(text) and text[k] == '"':
        value, end = _quoted(text, k)
    else:
        end = k
        while end < len(text) and not text[end].isspace():
            end += 1
        value = text[k:end]
    raw = text[start:end]
    if name not in KEYS:
        raise QueryError(raw, f"{raw!r}: there is no search key {name!r}. {_KEYS_HELP}")
    if op not in COMPARE:
        raise QueryError(raw, f"{raw!r}: {op!r} is not a comparison; use = : < <= > >=.")
    if not value.strip():
        raise QueryError(raw, f"{raw!r}: say what {name}{op} should match.")
    return Term(raw, KEYS[name], value.strip(), op, negated), end


_KEYS_HELP = "Keys: k: lv: c: t: o: cost pc dp set: is:."


# ---------------------------------------------------------------- the tables


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


# ---------------------------------------------------------------- matching


def _mask(table: Table, test: Callable[[int], bool]) -> int:
    """Bit i set when card i passes: built as one binary string, not bit by bit."""
    flags = "".join("1" if test(i) else "0" for i in range(len(table.rows) - 1, -1, -1))
    return int(flags, 2) if flags else 0


def _compare(op: str, have: int | None, want: int) -> bool:
    if have is None:
        return False
    if op in (":", "="):
        return have == want
    return {"<": have < want, "<=": have <= want, ">": have > want, ">=": have >= want}[op]


def _number(term: Term) -> int:
    text = term.value
    if ascii_number(text) and len(text) <= 9:
        return int(text)
    roman = ROMAN.get(text.casefold())
    if term.key == "level" and roman:
        return roman
    raise QueryError(term.text, f"{term.text!r}: {term.op} compares numbers; {text!r} is not one.")


def _word_test(table: Table, word: str) -> Callable[[int], bool]:
    folded = compact(word)
    tag = fold(word)
    set_key, dash, tail = word.upper().partition("-")
    looks_numbered = bool(dash) and set_key[:1].isalpha() and tail[:1].isalnum()
    set_only = set_key.isalnum() and set_key[:1].isalpha() and set_key[-1:].isdigit()
    set_key = number_key(set_key) if looks_numbered or set_only else ""
    tail_key = number_key(tail.split("_", 1)[0]) if looks_numbered else ""
    tail_text = tail.split("_", 1)[0]

    def test(i: int) -> bool:
        if folded and folded in table.names[i]:
            return True
        if tag in table.tags[i] or tag == table.kinds[i]:
            return True
        if set_key and table.sets[i] == set_key:
            if not looks_numbered:
                return True
            card_tail = table.tails[i]
            return card_tail.startswith(tail_text) or number_key(card_tail) == tail_key
        return False

    return test


def _term_test(table: Table, term: Term) -> Callable[[int], bool]:
    """The test a term makes of card i: a comparison for `<`, `>` and the like (numeric
    keys and level), else the key's own test from `_TESTS`."""
    key, op = term.key, term.op
    if key in NUMERIC:
        column = table.costs if key == "cost" else table.dps
        return _compare_test(column, op, _number(term))
    if op not in (":", "=") and key not in ("text", "word", "phrase"):
        if key != "level":
            raise QueryError(term.text, f"{term.text!r}: {key} is not a number; use {key}:.")
        return _compare_test(table.level_numbers, op, _number(term))
    return _TESTS[key](table, term)


def _compare_test(column: list[int | None], op: str, want: int) -> Callable[[int], bool]:
    return lambda i: _compare(op, column[i], want)


def _phrase_test(table: Table, term: Term) -> Callable[[int], bool]:
    phrase = spaced(term.value)
    return lambda i: phrase in table.phrases[i]


def _text_test(table: Table, term: Term) -> Callable[[int], bool]:
    """Scryfall's o:: the words in this order anywhere in the text, word ends free."""
    if term.op not in (":", "="):
        raise QueryError(term.text, f"{term.text!r}: text is not a number; use o: or text:.")
    wanted = spaced(term.value).strip()
    return lambda i: bool(wanted) and wanted in table.texts[i]


def _kind_test(table: Table, term: Term) -> Callable[[int], bool]:
    wanted = compact(KIND_WORDS.get(compact(term.value), term.value))
    kinds = {k for k in set(table.kinds) if compact(k) == wanted}
    return lambda i: table.kinds[i] in kinds


def _level_test(table: Table, term: Term) -> Callable[[int], bool]:
    """`lv:6`, `lv:VI` or a level's word (`lv:ultimate`)."""
    folded = fold(term.value)
    number = level_number(term.value) if (ascii_number(term.value) or folded in ROMAN) else None
    return lambda i: (
        table.levels[i] == folded or (number is not None and table.level_numbers[i] == number)
    )


def _color_test(table: Table, term: Term) -> Callable[[int], bool]:
    folded = fold(term.value)
    return lambda i: folded in table.tags[i]


def _trait_test(table: Table, term: Term) -> Callable[[int], bool]:
    folded = fold(term.value)
    return lambda i: any(folded in tag for tag in table.tags[i])


def _set_test(table: Table, value: str) -> Callable[[int], bool]:
    """`set:BT1` is that set code whole (BT1-001..., never BT10); letters alone are a
    series: `set:bt` is every set coded BT and a number (BT1 ... BT26), together with a
    set coded by the letters alone (`set:P`, Digi-Battle's `set:BO`). A product name
    (`set:"Starter Ver. 1"`) matches whole. A trailing dash is the number's own
    (`set:BT1-`)."""
    wanted, folded = number_key(value).rstrip("-"), fold(value)
    codes = table.series if wanted.isascii() and wanted.isalpha() else table.sets
    return lambda i: codes[i] == wanted or table.set_names[i] == folded


# A term's key -> the test it makes (numeric comparisons aside, `_term_test`).
_TESTS: dict[str, Callable[[Table, Term], Callable[[int], bool]]] = {
    "word": lambda table, term: _word_test(table, term.value),
    "phrase": _phrase_test,
    "text": _text_test,
    "kind": _kind_test,
    "level": _level_test,
    "color": _color_test,
    "trait": _trait_test,
    "set": lambda table, term: _set_test(table, term.value),
}


def term_mask(table: Table, term: Term, limited: Limited | None) -> int:
    """The cards a term matches (before negation), cached per table."""
    if term.key == "is":
        status = term.value.lower()
        if status not in IS_VALUES:
            raise QueryError(term.text, f"{term.text!r}: is: takes {' or '.join(IS_VALUES)}.")
        keys = [k for k, s in (limited(table.game) if limited else {}).items() if s == status]
        bits = 0
        for key in keys:
            if key in table.by_key:
                bits |= 1 << table.by_key[key]
        return bits
    cache_key = (term.key, term.op, term.value)
    cached: int | None = table.cache.get(cache_key)
    if cached is None:
        cached = _mask(table, _term_test(table, term))
        if len(table.cache) > 4096:
            table.cache.clear()
        table.cache[cache_key] = cached
    return cached


def legacy_terms(query: Query) -> list[Term]:
    """The older form fields (`kind`, `level`, `color`) as terms of the language."""
    terms = []
    if query.kind:
        terms.append(Term(f"k:{query.kind}", "kind", query.kind))
    if query.level:
        terms.append(Term(f"lv:{query.level}", "level", query.level))
    colors = (query.color,) if isinstance(query.color, str) else (query.color or ())
    terms += [Term(f"c:{c}", "color", c) for c in colors if c]
    return terms


def parse(query: Query) -> list[Term]:
    """Every term of a query, checked: raises QueryError naming the first bad one."""
    terms = [*tokenize(query.q or ""), *legacy_terms(query)]
    if query.order not in ORDERS:
        raise QueryError(f"order={query.order}", f"order is one of {', '.join(ORDERS)}.")
    probe = build_table("", [])
    for term in terms:
        if term.key != "is":
            _term_test(probe, term)
        elif term.value.lower() not in IS_VALUES:
            raise QueryError(term.text, f"{term.text!r}: is: takes {' or '.join(IS_VALUES)}.")
    return terms


def matches(table: Table, terms: list[Term], limited: Limited | None) -> int:
    bits = table.everything
    for term in terms:
        if term.key in ("word", "phrase") and not compact(term.value):
            continue  # punctuation alone (`*`, `'`) says nothing about a card
        mask = term_mask(table, term, limited)
        bits = bits & ~mask if term.negated else bits & mask
        if not bits:
            break
    return bits


def held(table: Table, within: Within | None) -> int:
    """The cards of `within`'s numbers (every card without one): one pass over the
    numbers (a collection holds at most 20,000), never one over the pool; a collection
    of another game holds none of this game's cards."""
    if within is None:
        return table.everything
    if within.game != table.game:
        return 0
    flags = bytearray(len(table.rows) // 8 + 1)
    for number in within.numbers:
        # A collection stores numbers as the list prints them; any other spelling (an
        # alternate art's `_P1`, a number from an older list) is found by its key.
        at = table.by_number.get(number)
        if at is None:
            at = table.by_key.get(number_key(number))
        if at is not None:
            flags[at >> 3] |= 1 << (at & 7)
    return int.from_bytes(flags, "little")


def _positions(bits: int, limit: int) -> list[int]:
    """The first `limit` set bits, lowest first."""
    text = bin(bits)[:1:-1]
    found: list[int] = []
    at = text.find("1")
    while at >= 0 and len(found) < limit:
        found.append(at)
        at = text.find("1", at + 1)
    return found


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
            rows += [table.rows[i] for i in _positions(bits, wanted - len(rows))]
        elif query.order == "relevance":
            for level in relevance_levels(table, terms):
                if len(rows) >= wanted:
                    break
                rows += [table.rows[i] for i in _positions(bits & level, wanted - len(rows))]
        else:
            rank = table.rank[query.order]
            chosen = sorted(_positions(bits, bits.bit_count()), key=rank.__getitem__)
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
        levels = table.ranks.keep(words, [_mask(table, _at(places, place)) for place in range(5)])
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
