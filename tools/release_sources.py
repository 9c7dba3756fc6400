"""Make the compact extracts tools/release_evidence.py works from, out of two checkouts.

    python tools/release_sources.py AEGIS_CHECKOUT DTCG_WEB_CHECKOUT

Either argument may be a work tree or a bare git directory: files are read at HEAD with
`git show`, so the extract names the commit it came from. Facts only are kept:

- tools/data/aegis_decks.json: every real tournament list of vinicius3333/aegis-digimon-tcg
  (`packages/shared/src/decks/data/*.json`, MIT) with an event date and no "approximation"
  note (an approximated list was changed after the event, so it is no evidence of it): its
  file, id, event, date, region and card numbers with counts. No names, no card text.
- tools/data/dtcg_web_products.json: from Vegekku/dtcg-web (`js/data/data_*.js`, MIT),
  which card numbers were in which product, for the products that matter to release days:
  the two-part boosters (Release Special Booster Ver.1.0 / 1.5, Special Booster Ver.2.0 /
  2.5) and any product that held a card before the month its own set came out.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
DATA = TOOLS / "data"
RELEASES = TOOLS.parent / "rules" / "data" / "dcg_releases.json"
AEGIS_DECKS = "packages/shared/src/decks/data/"
DTCG_DATA = "js/data/"
# The boosters that sold three sets in two parts, by the slug dtcg-web gives them; their
# variant lists (`sbt10_alts`, `sbt10_boxtopper`, ...) came in the same boxes.
SPLIT_SLUGS = ("sbt10", "sbt15", "sbt20", "sbt25")
MONTHS = "january february march april may june july august september october november december"


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout


def files(repo: Path, folder: str, suffix: str) -> list[str]:
    names = git(repo, "ls-tree", "--name-only", "HEAD", folder).split()
    return sorted(n for n in names if n.endswith(suffix))


def aegis_decks(repo: Path) -> dict:
    """The real, dated, unchanged tournament lists of the aegis deck data."""
    decks = []
    for path in files(repo, AEGIS_DECKS, ".json"):
        for deck in json.loads(git(repo, "show", f"HEAD:{path}"))["decks"]:
            event = deck.get("tournament") or {}
            if not event.get("date") or "approximation" in deck:
                continue
            cards: dict[str, int] = {}
            for entry in [*deck["mainDeck"], *deck["eggDeck"]]:
                cards[entry["cardId"]] = cards.get(entry["cardId"], 0) + int(entry["qty"])
            decks.append(
                {
                    "file": path,
                    "id": deck["id"],
                    "event": event["name"],
                    "date": event["date"],
                    "region": event.get("region", ""),
                    "cards": cards,
                }
            )
    return {
        "source": source(repo, "vinicius3333/aegis-digimon-tcg", "LICENSE-aegis-digimon-tcg.txt"),
        "decks": decks,
    }


def dtcg_products(repo: Path, set_days: dict[str, date]) -> dict:
    """The products of dtcg-web that hold a card earlier than its set, and the split ones."""
    kept = []
    for path in files(repo, DTCG_DATA, ".js"):
        for product in js_array(git(repo, "show", f"HEAD:{path}")):
            slug = product.get("slug") or ""
            numbers = [n for n in product.get("cards") or {} if set_code(n) in set_days]
            family = slug.split("_")[0]
            if family not in SPLIT_SLUGS:
                # A set's own variants (`st15_alts`) came with it; another product's day is
                # kept where it is before the day of the card's set.
                first = first_day(product.get("release"))
                numbers = [
                    n
                    for n in numbers
                    if first and family != set_code(n).lower() and first[0] < set_days[set_code(n)]
                ]
            if numbers:
                release = product.get("release")
                row = {"file": path, "slug": slug, "name": product["name"], "release": release}
                kept.append(row | {"cards": sorted(numbers)})
    return {"source": source(repo, "Vegekku/dtcg-web", "LICENSE-dtcg-web.txt"), "products": kept}


def source(repo: Path, name: str, notice: str) -> dict:
    commit = git(repo, "rev-parse", "HEAD").strip()
    (DATA / notice).write_text(git(repo, "show", "HEAD:LICENSE"), "utf-8")
    return {"repo": name, "commit": commit, "licence": "MIT", "notice": f"tools/data/{notice}"}


def set_code(number: str) -> str:
    return number.partition("-")[0]


def first_day(text: str | None) -> tuple[date, bool] | None:
    """The first day a release text allows, and whether it names the day: `February 12,
    2021`, `October 25 - November 8, 2024` (the 25th); the month's first day when only a
    month is named (`March-April, 2023`).
    """
    if not text:
        return None
    months = MONTHS.split()
    words = re.finditer(r"([a-z]+)\s*(?:(\d{1,2})(?:st|nd|rd|th)?\b)?", text.lower())
    named = [(months.index(m[1]) + 1, m[2]) for m in words if m[1] in months]
    year = re.search(r"20\d\d", text)
    if not named or year is None:
        return None
    month, day = named[0]
    return date(int(year.group()), month, int(day or 1)), day is not None


# A JavaScript array literal as dtcg-web writes its data: objects with quoted or bare keys,
# single or double quotes, comments and trailing commas. Enough of JavaScript for that.
_TOKEN = re.compile(
    r"""\s+|//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'"""
    r"""|-?\d+(?:\.\d+)?|[A-Za-z_$][\w$]*|[\[\]{}:,;=]""",
    re.S,
)


def js_array(text: str) -> list:
    tokens = []
    at = 0
    while at < len(text):
        found = _TOKEN.match(text, at)
        if found is None:
            raise ValueError(f"cannot read {text[at : at + 30]!r}")
        at = found.end()
        if not (found.group().isspace() or found.group()[:2] in ("//", "/*")):
            tokens.append(found.group())
    value, _ = _value(tokens, tokens.index("["))
    return value


def _value(tokens: list[str], at: int) -> tuple[object, int]:
    token = tokens[at]
    if token in "[{":
        close = "]" if token == "[" else "}"
        items: list = []
        pairs: dict = {}
        at += 1
        while tokens[at] != close:
            if token == "{":
                key = tokens[at].strip("\"'")
                pairs[key], at = _value(tokens, at + 2)  # skip the key and its colon
            else:
                item, at = _value(tokens, at)
                items.append(item)
            if tokens[at] == ",":
                at += 1
        return (items if token == "[" else pairs), at + 1
    if token[0] in "\"'":
        return token[1:-1], at + 1
    if token[0].isdigit() or token[0] == "-":
        return float(token) if "." in token else int(token), at + 1
    return {"true": True, "false": False, "null": None}.get(token, token), at + 1


def main(aegis: Path, dtcg: Path) -> None:
    sets = json.loads(RELEASES.read_text("utf-8"))["sets"]
    days = {code: date.fromisoformat(entry["date"]) for code, entry in sets.items()}
    for name, data in (
        ("aegis_decks.json", aegis_decks(aegis)),
        ("dtcg_web_products.json", dtcg_products(dtcg, days)),
    ):
        (DATA / name).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")
        print(f"tools/data/{name} written")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(Path(sys.argv[1]), Path(sys.argv[2]))
