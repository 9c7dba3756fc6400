"""The card lists deckcheck ships, and what it adds to an upstream list.

`cardpool/starter/dcg.csv.gz` is the whole DCG card list as facts (no card text, no
images), made by `tools/build_dcg_list.py` from the MIT-licensed community list
(`LICENSE-aegis-digimon-tcg.txt` beside it); Digi-Battle and DMCG ship their starter
decks as plain CSV. A new database loads them on first open.

`dcg_additions.csv` holds cards the upstream list lacks (the RB1 reprints that share a
promo's card number). The shipped list carries them, and an import or sync of the
upstream JSON list keeps them unless the upstream itself has the card; where it has
the card but not the number it is treated as, the addition's `treated_as` is kept.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import re
from functools import lru_cache
from importlib import resources

from cardpool.cards import make_row, split
from cardpool.importers import card_csv, dcg_json
from rules.games import GAMES
from rules.numbers import number_key

PACKAGE = "cardpool.starter"
ADDITIONS = "dcg_additions.csv"
# The shipped CSV's columns: the contract's card CSV, with the optional fact columns.
COLUMNS = (
    "number",
    "name",
    "kind",
    "level",
    "types",
    "traits",
    "cost",
    "dp",
    "set",
    "max_copies",
    "aliases",
    "treated_as",
    "rarity",
    "name_ja",
)
HEADER = (
    "# deckcheck: the Digimon Card Game card list as facts (no card text, no images).\n"
    "# Built by tools/build_dcg_list.py from vinicius3333/aegis-digimon-tcg cards.json\n"
    "# (MIT, (c) 2026 Vinicius Luiz: LICENSE-aegis-digimon-tcg.txt) and dcg_additions.csv.\n"
    "# list as of: {as_of}\n"
)
SHIPPED_SOURCE = "shipped with deckcheck (cardpool/starter/{file})"
# What releases before the whole DCG list shipped called their starter pools.
OLD_SHIPPED_SOURCE = "bundled starter pool"
_AS_OF = re.compile(rb"^# list as of: (\d{4}-\d{2}-\d{2})$", re.M)


def shipped_date(content: bytes) -> str | None:
    """The date a shipped list says its upstream is of (`# list as of:`), if any."""
    found = _AS_OF.search(content[:2000])
    return found.group(1).decode() if found else None


def shipped_file(game: str) -> str | None:
    """The name of `game`'s shipped list in the package, or None."""
    folder = resources.files(PACKAGE)
    for name in (f"{game}.csv.gz", f"{game}.csv"):
        if folder.joinpath(name).is_file():
            return name
    return None


def read_shipped(game: str) -> bytes:
    """The shipped list's CSV bytes (decompressed)."""
    name = shipped_file(game)
    if name is None:
        raise FileNotFoundError(f"no shipped card list for {game}")
    data = resources.files(PACKAGE).joinpath(name).read_bytes()
    return gzip.decompress(data) if name.endswith(".gz") else data


@lru_cache(maxsize=8)
def shipped_rows(game: str) -> tuple[bytes, tuple[dict, ...]]:
    """The shipped list's bytes and rows, read once per process.

    Every new database loads it (a test run makes hundreds, each server worker may be
    the first), so the DCG list is read by `quick_rows`, a tenth of the time the card
    CSV importer's per-row validation takes; tests/cardpool/test_shipped.py holds the
    two equal on the shipped file. The small starter lists go through the importer.
    """
    content = read_shipped(game)
    # A game synced from an upstream JSON list ships the CSV tools/build_dcg_list.py
    # writes from it (`to_csv`).
    if GAMES[game].json_card_list:
        return content, tuple(quick_rows(game, content))
    rows = card_csv.parse(game, content, f"shipped:{shipped_file(game)}")
    return content, tuple(rows)


@lru_cache(maxsize=8)
def shipped_sha(game: str) -> str:
    """The SHA-256 of the shipped list's bytes, as a pool loaded from it records it."""
    return hashlib.sha256(read_shipped(game)).hexdigest()


def quick_rows(game: str, content: bytes) -> list[dict]:
    """Rows of a shipped CSV (written by `to_csv`, checked by the tests), unvalidated."""
    lines = [line for line in content.decode("utf-8").splitlines() if not line.startswith("#")]
    rows = []
    for record in csv.DictReader(lines):
        types = _items(record["types"])
        rows.append(
            make_row(
                game,
                number=record["number"],
                name=record["name"],
                kind=record["kind"],
                level=record["level"] or None,
                types=types,
                aliases=_items(record["aliases"]),
                evo_names=[],
                flags=[],
                max_copies=_whole(record["max_copies"]),
                set_name=record["set"] or None,
                name_ja=record["name_ja"] or None,
                colors=types,
                traits=_items(record["traits"]),
                play_cost=_whole(record["cost"]),
                dp=_whole(record["dp"]),
                rarity=record["rarity"] or None,
                text=None,
                treated_as=record["treated_as"] or None,
            )
        )
    return rows


def _items(text: str) -> list[str]:
    return [item for item in text.split(";") if item]


def _whole(text: str) -> int | None:
    return int(text) if text else None


@lru_cache(maxsize=1)
def additions() -> tuple[dict, ...]:
    """deckcheck's own DCG additions to the upstream list, validated rows."""
    content = resources.files(PACKAGE).joinpath(ADDITIONS).read_bytes()
    return tuple(card_csv.parse(dcg_json.GAME, content, f"shipped:{ADDITIONS}"))


def with_additions(rows: list[dict], extra: tuple[dict, ...] | None = None) -> list[dict]:
    """`rows` plus each addition the upstream lacks; an upstream card missing only the
    number it is treated as gets the addition's (the upstream's other facts win).

    A reprint is added only to a list that holds the card it reprints (RB1-004 with
    P-009): a list of a few cards (a test's, an organizer's) stays as it was.
    """
    extra = additions() if extra is None else extra
    by_key = {row["key"]: i for i, row in enumerate(rows)}
    result = list(rows)
    for addition in extra:
        at = by_key.get(addition["key"])
        if at is None:
            shared = addition.get("treated_as")
            if shared and number_key(shared) in by_key:
                result.append(dict(addition))
        elif not result[at].get("treated_as") and addition.get("treated_as"):
            result[at] = {**result[at], "treated_as": addition["treated_as"]}
    return result


_RUNS = re.compile(r"(\d+)")


def natural(number: str) -> tuple:
    """`BT2-001` before `BT10-001`: the order a player reads a set list in."""
    return tuple(int(p) if p.isdigit() else p for p in _RUNS.split(number.upper()))


def to_csv(rows: list[dict], as_of: str) -> str:
    """Rows as the shipped CSV: facts only (the card text is never written).

    `as_of`: the date of the upstream list (YYYY-MM-DD), shown as the list's date.
    """
    out = io.StringIO()
    out.write(HEADER.format(as_of=as_of))
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in sorted(rows, key=lambda r: natural(r["number"])):
        writer.writerow(
            [
                row["number"],
                row["name"] or "",
                row["kind"],
                row["level"] or "",
                ";".join(split(row["types"])),
                ";".join(split(row["traits"])),
                _text(row["play_cost"]),
                _text(row["dp"]),
                row["set_name"] or "",
                _text(row["max_copies"]),
                ";".join(split(row["aliases"])),
                row.get("treated_as") or "",
                row.get("rarity") or "",
                row["name_ja"] or "",
            ]
        )
    return out.getvalue()


def _text(value: int | None) -> str:
    return "" if value is None else str(value)


def compress(text: str) -> bytes:
    """Gzip with no time stamp and no file name, so one list always gives one file."""
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)
