"""Card search latency on the full pools (in process, as the API runs it).

    .venv/bin/python bench/search.py

Target: p50 at most 5 ms.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import full_database  # noqa: E402

from cardpool.db import connect  # noqa: E402
from cardpool.search import Query, search  # noqa: E402

QUERIES = [
    Query(game="dcg", q="agumon"),
    Query(game="dcg", q="bt1-10"),
    Query(game="dcg", q="war"),
    Query(game="dcg", kind="digimon", color="Red", level="6"),
    Query(game="dcg", q="dragon", page=2),
    Query(q="greymon"),
    Query(game="digibattle", q="st-44s"),
    Query(game="dmcg", q="アグモン"),
    Query(game="dcg"),
    Query(game="dcg", page=80),
]


def main() -> None:
    db = connect(full_database(), migrate=False)
    times = []
    for _ in range(30):
        for query in QUERIES:
            start = time.perf_counter()
            search(db, query)
            times.append(time.perf_counter() - start)
    times.sort()
    p50 = statistics.median(times) * 1000
    p99 = times[int(len(times) * 0.99)] * 1000
    print(
        f"card search over {len(QUERIES)} query shapes x 30: p50 {p50:.2f} ms, p99 {p99:.2f} ms "
        "(target p50 <= 5 ms)"
    )


if __name__ == "__main__":
    main()
