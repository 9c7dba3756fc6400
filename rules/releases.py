"""When each DCG card came out in English: per set, per card where a set was sold in more
than one product, and per promo card.

A card cannot be in a deck before it exists, so a deck checked "as of" a past day is
judged against the products released by then (`not-released`), and a date may be
written as a product's name ("BT13" = the day BT13 came out). The dates ship in
`rules/data/dcg_releases.json` as claims saying what they rest on: a product's day in
stores, the earliest real tournament list that used the card, or a guess. Only a day
that is not a guess makes a violation; a guessed one (most promos) makes a warning. A
card whose release is not known (the LM packs, an unlisted promo, a set not in the file)
is never judged on release.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from importlib import resources

from rules.cache import memo
from rules.games import GAMES, PRODUCTS_GAME
from rules.model import derived
from rules.numbers import number_key
from rules.sets import parse_set_code, set_of


@dataclass(frozen=True)
class Product:
    """A set or a promo group: its code (`BT13`, or the promo pack's name) and days.

    `in_stores` is the day the product was sold (what "as of BT13" means); `released`
    the first day any of its cards was out in English (a pre-sale, or an earlier
    product holding part of the set), the day `not-released` compares with: a card is
    never called unreleased on a day it may already have been played. `rests_on` says
    what `released` rests on (`in-stores`, `month-start`, `product-list`, `event` or
    `guess`); `note` is its source, or for a guess its doubt.
    """

    code: str
    name: str
    in_stores: date
    released: date
    note: str = ""
    rests_on: str = "in-stores"

    @property
    def verified(self) -> bool:
        """A day held as a fact, which may make `not-released` (a guess only warns)."""
        return self.rests_on != "guess"


@dataclass(frozen=True)
class Releases:
    """Release days by set code and by card key (promos, and cards of a set sold in more
    than one product: these come before their set's day); `undated` says what is not known."""

    sets: dict[str, Product]
    cards: dict[str, Product]
    undated: dict[str, str] = field(default_factory=dict)
    sources: tuple[str, ...] = ()
    # The cards dated one by one, by the product (or list) that dates each: for the format
    # page, with the numbers as the file writes them.
    listed: tuple[tuple[Product, tuple[str, ...]], ...] = ()

    @derived
    def newest(self) -> date:
        """The latest day any product came out: on or after it, no card is unreleased."""
        products = [*self.sets.values(), *self.cards.values()]
        return max((p.released for p in products), default=date.min)

    def of_card(self, number: str) -> Product | None:
        """The product a card number first came out in, None when that is not known
        (every check of a DCG deck asks for each of its cards: two lookups)."""
        key, code = _dating_keys(number)
        own = self.cards.get(key)
        if own is not None or code is None:
            return own
        return self.sets.get(code)

    def product(self, text: str) -> Product | None:
        """A product named as players write it: `BT13`, `bt-13`, `EX05`, `ST1`."""
        found = parse_set_code(text.strip().replace("-", "", 1))
        if found is None or found.number is None:
            return None
        return self.sets.get(found.code)

    def undated_sets(self, numbers: list[str]) -> list[str]:
        """Set codes among `numbers` with no known release day (listed on the format page)."""
        codes = {s.code for s in map(set_of, numbers) if s is not None}
        return sorted(
            code
            for code in codes
            if code not in self.sets and (code != "P" or code in self.undated)
        )


@memo()
def _dating_keys(number: str) -> tuple[str, str | None]:
    """The keys that date a card number: its own card key (a promo, a card of a set sold
    in more than one product), and its set's code when a set dates it (None for none,
    and for a set without a number, `P`). A number of no set has no key ("")."""
    found = set_of(number)
    if found is None:
        return "", None
    return number_key(number), (found.code if found.number is not None else None)


def _set(code: str, entry: dict) -> Product:
    in_stores = date.fromisoformat(entry["date"])
    if entry.get("earliest"):
        earliest, rests_on = date.fromisoformat(entry["earliest"]), entry["earliest_rests_on"]
    else:
        earliest, rests_on = in_stores, entry["rests_on"]
    return Product(
        code, entry.get("name", code), in_stores, earliest, entry.get("note", ""), rests_on
    )


def _seen(number: str, seen: dict) -> Product:
    """A promo's earliest real tournament list (tools/release_evidence.py writes these)."""
    day = date.fromisoformat(seen["date"])
    name = f"first seen in a tournament list: {seen['event']}"
    return Product(number, name, day, day, f"{seen['file']}, deck {seen['deck']}", "event")


def _doubted(number: str, product: Product, sets: dict[str, Product]) -> Product:
    """A product list that puts a card later than its own set's first day rests on one
    community list (a card's printing can be missed there): a doubt, so a warning
    (`release-unverified`), never `not-released`, until a second source agrees."""
    found = set_of(number)
    first = sets.get(f"{found.series}{found.number}") if found else None
    if first is None or product.released <= first.released or not product.verified:
        return product
    note = (
        f"{product.note}; only one card list puts it in this product, while its set was "
        f"out from {first.released.isoformat()}"
    )
    return Product(product.code, product.name, product.in_stores, product.released, note, "guess")


def parse(data: dict) -> Releases:
    """A Releases from the shipped file's shape (see rules/data/dcg_releases.json).

    A card's day is the earliest of its claims (its promo pack, the first real list that
    used it, the product that held it), so a later guess never hides an earlier fact.
    """
    sets = {code: _set(code, entry) for code, entry in data["sets"].items()}
    claims: list[tuple[str, Product]] = []
    for group in data.get("promos", []) + data.get("cards", []):
        day = date.fromisoformat(group["date"])
        note = group.get("doubt") or group.get("source", "")
        product = Product(group["product"], group["product"], day, day, note, group["rests_on"])
        claims += [(number, _doubted(number, product, sets)) for number in group["cards"]]
    for number, seen in data.get("evidence", {}).get("cards", {}).items():
        claims.append((number, _seen(number, seen)))
    cards: dict[str, Product] = {}
    for number, product in claims:
        known = cards.get(number_key(number))
        if known is None or (product.released, not product.verified) < (
            known.released,
            not known.verified,
        ):
            cards[number_key(number)] = product
    listed: dict[Product, list[str]] = {}
    for number, product in claims:
        if cards[number_key(number)] is product:
            listed.setdefault(product, []).append(number)
    undated, sources = dict(data.get("undated", {})), tuple(data.get("sources", ()))
    shown = tuple((p, tuple(numbers)) for p, numbers in listed.items())
    return Releases(sets, cards, undated, sources, shown)


@cache
def dcg_releases() -> Releases:
    """The shipped DCG release days (read once per process; the file: rules.games)."""
    name = GAMES[PRODUCTS_GAME].dated.releases or ""
    text = resources.files("rules.data").joinpath(name).read_text("utf-8")
    return parse(json.loads(text))
