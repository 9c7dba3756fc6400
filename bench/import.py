"""Full DCG pool import: deckcheck's import vs a bare sqlite-utils insert_all.

    .venv/bin/python bench/import.py

Must: at most 5 s. Aim: 1 s, at most 3x the bare insert. Also prints where the time
goes (reading + JSON, marshmallow validation, the transactional swap with FTS).
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sqlite_utils  # noqa: E402
from common import POOLS, need_data  # noqa: E402

from cardpool.db import connect  # noqa: E402
from cardpool.importers import dcg_json, parse_source  # noqa: E402
from cardpool.store import replace_pool  # noqa: E402

RUNS = 5


def fresh(name: str) -> Path:
    return Path(tempfile.mkdtemp(prefix="deckcheck-bench-")) / name


def time_full_import(content: bytes) -> float:
    db = connect(fresh("full.db"))
    start = time.perf_counter()
    rows = parse_source("dcg", content, "bench")
    replace_pool(db, "dcg", rows, "bench", content=content)
    elapsed = time.perf_counter() - start
    db.close()
    return elapsed


def time_bare_insert(rows: list[dict]) -> float:
    db = sqlite_utils.Database(fresh("bare.db"))
    start = time.perf_counter()
    db["cards"].insert_all(rows, batch_size=500)
    elapsed = time.perf_counter() - start
    db.close()
    return elapsed


def main() -> None:
    need_data()
    content = POOLS["dcg"].read_bytes()
    rows = parse_source("dcg", content, "bench")
    full = statistics.median(time_full_import(content) for _ in range(RUNS))
    bare = statistics.median(time_bare_insert(rows) for _ in range(RUNS))
    start = time.perf_counter()
    data = json.loads(content)
    read = time.perf_counter() - start
    schema = dcg_json.DcgCardSchema()
    start = time.perf_counter()
    for item in data:
        schema.load(item)
    validate = time.perf_counter() - start
    print(f"cards                       {len(rows)}")
    print(f"full import (median of {RUNS})   {full:.3f} s   (must <= 5 s, aim <= 1 s)")
    print(f"bare insert_all (median)    {bare:.3f} s")
    print(f"ratio full / bare           {full / bare:.1f}x   (aim <= 3x)")
    print(f"  JSON parse                {read:.3f} s")
    print(
        f"  marshmallow validation    {validate:.3f} s   ({validate / bare:.1f}x the bare insert)"
    )


if __name__ == "__main__":
    main()
