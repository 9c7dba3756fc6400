"""A card search query: its fields, and the small linear tokenizer that reads the
query language (no regular expression ever sees the user's text)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

MAX_QUERY = 200
MAX_TERMS = 24
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
