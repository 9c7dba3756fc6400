"""Every DCG product deckcheck knows, released or announced, with the source of its day.

Contract, "Verdicts deckcheck cannot confirm, and products by their dates": a card
number belongs to a product by its set code (`EX13-010` is EX-13) or, for promos, by a
number range a source gives (`P-245..P-250` came with EX-13). The products are the sets
of `rules/data/dcg_releases.json` (their day in stores, or the day they are announced
for) and its `products` (announced products with no English day yet, products known
only by their month, and the ranges). A number of a known product is never called a
typo: before the product's day it is `not-released`, after it (or when the day is not
known) an unconfirmed card while the card list lacks it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from functools import cache
from importlib import resources

from rules.games import GAMES, PRODUCTS_GAME
from rules.numbers import digit_runs
from rules.releases import Releases, dcg_releases
from rules.sets import set_of

# The series whose cards are numbered by their set code (`BT27-001`); limited packs
# (LM-08) and premium boxes (PB-24) hold cards numbered in other series.
_NUMBERED_SERIES = frozenset({"BT", "EX", "ST", "RB", "AD"})
# What a product's day rests on, in the contract's words.
IN_STORES, ANNOUNCED, GUESS = "in-stores", "announced", "guess"


@dataclass(frozen=True)
class Product:
    """One product: `code` as the set codes write it (`EX13`, `LM8`), `released` its
    English day (None: not known), `announced` when that day (or its lack) is an
    announcement, `numbers` the card numbers it holds (`EX13-*`: every number of the
    set code; `P-245..P-250`: a range)."""

    code: str
    name: str
    released: date | None
    announced: bool
    rests_on: str
    source: str
    numbers: tuple[str, ...]
    month: str | None = None

    @property
    def label(self) -> str:
        """As the box prints it: `EX-13`, `LM-08`, `BT-27`."""
        found = set_of(f"{self.code}-1")
        if found is None or found.number is None:
            return self.code
        return f"{found.series}-{found.number:02d}"

    def out_on(self, day: date) -> bool:
        """Out in English on `day` (a product with no known day may be: not judged)."""
        return self.released is None or self.released <= day

    def when(self) -> str:
        """`out 2026-10-02`, `announced for 2027-01-22`, `no English release date yet`."""
        if self.released is None:
            if self.month:
                return f"out in {self.month} (day not known)"
            return "no English release date yet"
        return f"{'announced for' if self.announced else 'out'} {self.released.isoformat()}"


@dataclass(frozen=True)
class Products:
    items: tuple[Product, ...]
    by_code: dict[str, Product]
    # (series, first, last, product code) for the ranges sources give.
    ranges: tuple[tuple[str, int, int, str], ...]

    def of_number(self, number: str) -> Product | None:
        """The product a card number belongs to, None when no known product holds it."""
        found = set_of(number)
        runs = digit_runs(number.partition("-")[2])
        if found is None or len(runs) != 1 or len(runs[0]) > 3:
            return None
        card = int(runs[0])
        if card == 0:
            return None
        if found.number is not None:
            product = self.by_code.get(found.code)
            return product if product and f"{product.code}-*" in product.numbers else None
        for series, first, last, code in self.ranges:
            if series == found.series and first <= card <= last:
                return self.by_code[code]
        return None


def canonical(number: str) -> str:
    """A number as the card list will print it: `ex13-10_P1` -> `EX13-010`, `st1-1` ->
    `ST1-01` (starter decks number their cards with two digits, every other product
    with three), so the fingerprint does not change when the list catches up."""
    found = set_of(number)
    assert found is not None
    card = int(digit_runs(number.partition("-")[2])[0])
    width = 2 if found.series == "ST" and found.number is not None else 3
    return f"{found.code}-{card:0{width}d}"


def _range(text: str) -> tuple[str, int, int]:
    first, _, last = text.partition("..")
    a, b = set_of(first), set_of(last)
    if a is None or b is None or a != b:
        raise ValueError(f"not a number range: {text!r}")
    return a.series, int(digit_runs(first.partition("-")[2])[0]), int(digit_runs(last)[-1])


def build(data: dict, releases: Releases) -> Products:
    """The products of the shipped release file's shape (`sets` and `products`)."""
    extra = data.get("products", {})
    items = [_of_set(code, releases, extra.get(code, {})) for code in data["sets"]]
    items += [_extra(code, entry) for code, entry in extra.items() if code not in data["sets"]]
    items.sort(key=lambda p: (p.released or date.max, p.code))
    ranges = tuple(
        (*_range(text), product.code)
        for product in items
        for text in product.numbers
        if ".." in text
    )
    return Products(tuple(items), {p.code: p for p in items}, ranges)


def _of_set(code: str, releases: Releases, extra: dict) -> Product:
    known = releases.sets[code]
    announced = known.rests_on == ANNOUNCED
    rests_on = known.rests_on if known.rests_on in (IN_STORES, ANNOUNCED) else GUESS
    source = extra.get("source") or known.note or "; ".join(releases.sources[:2])
    numbers = (f"{code}-*", *extra.get("numbers", ()))
    return Product(code, known.name, known.in_stores, announced, rests_on, source, numbers)


def _extra(code: str, entry: dict) -> Product:
    released = date.fromisoformat(entry["released"]) if entry.get("released") else None
    numbers = tuple(entry.get("numbers", ()))
    found = set_of(f"{code}-1")
    if found is not None and found.number is not None and found.series in _NUMBERED_SERIES:
        numbers = (f"{code}-*", *numbers)
    return Product(
        code,
        entry.get("name", code),
        released,
        entry["rests_on"] == ANNOUNCED,
        entry["rests_on"],
        entry["source"],
        numbers,
        entry.get("month"),
    )


@cache
def dcg_products() -> Products:
    """The shipped DCG products (read once per process; the file: rules.games)."""
    name = GAMES[PRODUCTS_GAME].dated.releases or ""
    text = resources.files("rules.data").joinpath(name).read_text("utf-8")
    return build(json.loads(text), dcg_releases())
