"""Remake the evidence parts of rules/data/dcg_releases.json, and report what they rest on.

    python tools/release_evidence.py            # rewrite `cards` and `evidence`, print the report
    python tools/release_evidence.py --check    # exit 1 when the shipped file is not what it makes

It reads the extracts in tools/data/ (remake them from fresh checkouts with
tools/release_sources.py) and the hand-written parts of the release file (set days, promo
packs), and writes two generated parts:

- `cards`: per card, the first product that held it where a set was sold in more than one
  product (the Release Special Boosters Ver.1.0 / 1.5 for BT1-BT3, the Special Boosters
  Ver.2.0 / 2.5 for BT18-BT20), or where a product handed a card out before its own set.
- `evidence`: per promo, the earliest real tournament list that used it.

A list whose date is impossible by the days held as facts (a card in it came out later:
a wrong year in the data, a Japanese event) is no evidence of anything: the report names
it, and it is left out of `evidence`.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from release_sources import DATA, RELEASES, first_day, set_code  # noqa: E402

from rules.numbers import number_key  # noqa: E402
from rules.releases import Releases, parse  # noqa: E402

# The boosters sold in two parts, by dtcg-web's slug: the set whose day in stores is the
# booster's own day (its variant lists, `sbt10_alts`, came in the same boxes).
SPLIT_DAYS = {"sbt10": "BT1", "sbt15": "BT3", "sbt20": "BT18", "sbt25": "BT20"}
SPLIT_SETS = {"BT1", "BT2", "BT3", "BT18", "BT19", "BT20"}


@dataclass
class Report:
    scanned: int = 0
    impossible: dict[str, str] = field(default_factory=dict)  # deck id -> why
    earlier: dict[str, tuple[str, str]] = field(default_factory=dict)  # promo -> (guess, seen)
    seen: int = 0
    moved: dict[str, tuple[str, str]] = field(default_factory=dict)  # card -> (set day, own day)

    def lines(self) -> list[str]:
        out = [
            f"{self.scanned} real tournament lists with an event date scanned; "
            f"{len(self.impossible)} impossible by the days held as facts:",
            *(f"  {deck}: {why}" for deck, why in sorted(self.impossible.items())),
            f"{self.seen} promos seen in the other lists; {len(self.earlier)} of them earlier "
            "than their pack's guessed day:",
            *(f"  {card}: {old} -> {new}" for card, (old, new) in sorted(self.earlier.items())),
            f"{len(self.moved)} cards dated apart from their set:",
            *(f"  {card}: {old} -> {new}" for card, (old, new) in sorted(self.moved.items())),
        ]
        return out


def load(name: str) -> dict:
    return json.loads((DATA / name).read_text("utf-8"))


def product_cards(data: dict, products: dict, report: Report) -> list[dict]:
    """The `cards` groups: each card of a split set by the booster that first held it, and
    each card another product handed out before its own set's day."""
    days = {code: date.fromisoformat(entry["date"]) for code, entry in data["sets"].items()}
    # A card's day before: its set's first day (the earliest of a set sold in two parts).
    before = {code: product.released for code, product in parse(data).sets.items()}
    commit = products["source"]["commit"][:12]
    first: dict[str, tuple[date, str, str, str]] = {}  # card -> (day, product, rests_on, source)
    for product in products["products"]:
        family = product["slug"].split("_")[0]
        if family in SPLIT_DAYS and "prerelease" not in product["slug"]:
            day, rests_on = days[SPLIT_DAYS[family]], "in-stores"
            name = data["sets"][SPLIT_DAYS[family]]["name"]
        else:
            day, named = first_day(product["release"]) or (date.max, False)
            rests_on, name = ("product-list" if named else "month-start"), product["name"]
        source = f"{products['source']['repo']} {product['file']}@{commit} ({product['slug']})"
        for card in product["cards"]:
            claim = (day, name, rests_on, source)
            # On one day, a product's day in stores is the better-sourced claim.
            if card not in first or rank(claim) < rank(first[card]):
                first[card] = claim
    groups: dict[tuple, list[str]] = {}
    for card, (day, name, rests_on, source) in sorted(first.items(), key=lambda c: order(c[0])):
        own = before[set_code(card)]
        if set_code(card) in SPLIT_SETS or day < own:
            groups.setdefault((day, name, rests_on, source), []).append(card)
            if day != own:
                report.moved[card] = (own.isoformat(), day.isoformat())
    return [
        {"product": n, "date": d.isoformat(), "rests_on": r, "source": s, "cards": cards}
        for (d, n, r, s), cards in sorted(groups.items())
    ]


def rank(claim: tuple[date, str, str, str]) -> tuple:
    day, name, rests_on, source = claim
    return day, rests_on != "in-stores", name, source


def late_cards(releases: Releases, deck: dict) -> list[str]:
    """The cards of a list that came out after its event, by days held as facts."""
    day = date.fromisoformat(deck["date"])
    late = []
    for card in deck["cards"]:
        product = releases.of_card(card)
        if product is not None and product.verified and product.released > day:
            late.append(f"{card} ({product.released}, {product.name})")
    return late


def evidence(releases: Releases, decks: dict, report: Report) -> dict:
    """Per promo, the earliest possible real list that used it."""
    seen: dict[str, dict] = {}
    for deck in sorted(decks["decks"], key=lambda d: (d["date"], d["file"], d["id"])):
        report.scanned += 1
        late = late_cards(releases, deck)
        if late:
            report.impossible[deck["id"]] = f"event on {deck['date']}, holds " + ", ".join(late)
            continue
        for card in deck["cards"]:
            if set_code(card) == "P" and card not in seen:
                where = {"file": deck["file"], "deck": deck["id"]}
                seen[card] = {"date": deck["date"], "event": deck["event"]} | where
    for card, found in seen.items():
        guess = releases.of_card(card)
        if guess is None or guess.released.isoformat() > found["date"]:
            report.earlier[card] = (str(guess.released if guess else "none"), found["date"])
    report.seen = len(seen)
    source = decks["source"]
    return {
        "source": f"{source['repo']}@{source['commit'][:12]} ({source['licence']})",
        "cards": dict(sorted(seen.items(), key=lambda c: order(c[0]))),
    }


def order(number: str) -> tuple[str, int]:
    key = number_key(number)
    head, _, tail = key.partition("-")
    return head, int(tail) if tail.isdigit() else 0


def build(data: dict) -> tuple[dict, Report]:
    """The release file with its generated parts remade from the extracts."""
    report = Report()
    made = {k: v for k, v in data.items() if k not in ("cards", "evidence")}
    made["cards"] = product_cards(made, load("dtcg_web_products.json"), report)
    made["evidence"] = evidence(parse(made), load("aegis_decks.json"), report)
    return made, report


def text(data: dict) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def main(check: bool) -> int:
    shipped = RELEASES.read_text("utf-8")
    made, report = build(json.loads(shipped))
    print("\n".join(report.lines()))
    if check:
        if text(made) != shipped:
            print("rules/data/dcg_releases.json is stale: run python tools/release_evidence.py")
            return 1
        return 0
    RELEASES.write_text(text(made), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main("--check" in sys.argv[1:]))
