"""Card search latency on the full pools (in process, as the API runs it).

    .venv/bin/python bench/search.py

The older query shapes (plain words, numbers, form filters, pages) and the query
language of the contract ("Card search syntax"). Must: p50 <= 3 ms, p99 <= 15 ms;
aim: p50 <= 1 ms. The first search after an import builds the in-memory tables;
that one-off cost is printed apart.
"""

from __future__ import annotations

import statistics
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import full_database  # noqa: E402

from cardpool.db import connect  # noqa: E402
from cardpool.search import Query, run  # noqa: E402
from rules.lists import load_history  # noqa: E402

OLD_SHAPES = [
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
SYNTAX = [
    Query(game="dcg", q="metal greymon"),
    Query(game="dcg", q='"x antibody" lv>=4'),
    Query(game="dcg", q="k:tamer c:red"),
    Query(game="dcg", q="c:blue c:black", order="name"),
    Query(game="dcg", q='t:"royal knight" -lv:7'),
    Query(game="dcg", q="cost<=3 dp>=5000", order="cost"),
    Query(game="dcg", q="set:EX9 k:option"),
    Query(game="dcg", q="is:restricted"),
    Query(game="dcg", q="is:banned OR"),
    Query(game="dcg", q="BT1-01", order="level"),
    Query(game="dmcg", q="St-1 lv:III"),
    Query(game="digibattle", q="set:BO c:red"),
    Query(game="dcg", q="metl greymon"),  # nothing found: did_you_mean runs
    Query(game="dcg", q="agumon", order="relevance", per_page=30),  # the builder's search
    Query(game="dcg", q="mon", order="relevance", per_page=30),  # ranks ~3,000 matches
    Query(game="dcg", q='o:draw text:"memory +1"'),
]


def main() -> None:
    db = connect(full_database(), migrate=False)
    history = load_history()

    def limited(game: str) -> dict[str, str]:
        if game != "dcg":
            return {}
        return {key: status for key, (status, _) in history.state_on(date.today()).items()}

    start = time.perf_counter()
    run(db, Query(game="dcg", q="agumon"), limited)
    cold = (time.perf_counter() - start) * 1000
    for name, queries in (("old shapes", OLD_SHAPES), ("syntax", SYNTAX)):
        first = []
        for query in queries:  # each term's mask is built once, then reused
            start = time.perf_counter()
            run(db, query, limited)
            first.append(time.perf_counter() - start)
        print(f"  {name}: first run of a query, slowest {max(first) * 1000:.2f} ms")
        times = []
        for _ in range(30):
            for query in queries:
                start = time.perf_counter()
                run(db, query, limited)
                times.append(time.perf_counter() - start)
        times.sort()
        p50 = statistics.median(times) * 1000
        p99 = times[int(len(times) * 0.99)] * 1000
        print(
            f"card search, {name} ({len(queries)} queries x 30): p50 {p50:.2f} ms, "
            f"p99 {p99:.2f} ms (must p50 <= 3, p99 <= 15; aim p50 <= 1)"
        )
    print(f"first search after an import (builds the tables): {cold:.0f} ms")


if __name__ == "__main__":
    main()
