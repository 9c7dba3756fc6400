"""Each term of a query as a bitmask over a game's cards (bit i: card i in number
order), combined with `&` and `~`: a search costs a few integer operations."""

from __future__ import annotations

from collections.abc import Callable

from cardpool.search.query import (
    IS_VALUES,
    KIND_WORDS,
    NUMERIC,
    ORDERS,
    ROMAN,
    Limited,
    Query,
    QueryError,
    Term,
    Within,
    compact,
    fold,
    spaced,
    tokenize,
)
from cardpool.search.table import Table, ascii_number, build_table, level_number
from rules.numbers import number_key


def mask(table: Table, test: Callable[[int], bool]) -> int:
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
        cached = mask(table, _term_test(table, term))
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


def positions(bits: int, limit: int) -> list[int]:
    """The first `limit` set bits, lowest first."""
    text = bin(bits)[:1:-1]
    found: list[int] = []
    at = text.find("1")
    while at >= 0 and len(found) < limit:
        found.append(at)
        at = text.find("1", at + 1)
    return found
