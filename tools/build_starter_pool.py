"""Rebuild the Digi-Battle and DMCG starter pools (cardpool/starter/*.csv) from the shared
card data. (The whole DCG list ships instead: tools/build_dcg_list.py.)

    python tools/build_starter_pool.py ../shared/data

Keeps facts only (number, name, kind, level, colours / types): no card text, no
images. The starter pool is what a fresh install serves before `cardpool import`.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "cardpool" / "starter"
COLUMNS = ["number", "name", "kind", "level", "types", "max_copies", "set", "name_ja"]


def csv_rows(path: Path, keep) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as handle:
        return [
            {column: row.get(column, "") for column in COLUMNS}
            for row in csv.DictReader(handle)
            if keep(row)
        ]


def write(name: str, rows: list[dict], title: str) -> None:
    path = OUT / f"{name}.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        handle.write(
            f"# deckcheck starter pool: {title}. Facts only; see cardpool/starter/README.md\n"
        )
        writer = csv.DictWriter(handle, COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(sorted(rows, key=lambda r: _order(r["number"])))
    print(f"{path}: {len(rows)} cards")


def _order(number: str) -> tuple:
    head, _, tail = number.partition("-")
    digits = "".join(ch for ch in tail if ch.isdigit())
    return head, int(digits or 0), tail


def main(data: Path) -> None:
    write(
        "digibattle",
        csv_rows(data / "digibattle" / "cards.csv", lambda r: r["set"] == "Starter Set"),
        "Digi-Battle Starter Set",
    )
    write(
        "dmcg",
        csv_rows(data / "dmcg" / "cards.csv", lambda r: r["set"] == "Starter Ver. 1"),
        "Digital Monster Card Game Starter Ver. 1",
    )


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "../shared/data"))
