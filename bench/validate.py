"""Validation core and parse times on a real 55-card DCG deck (full DCG pool).

    .venv/bin/python bench/validate.py

Targets: validating a parsed deck at most 100 µs; parsing and validating its text at
most 500 µs (medians).
"""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import DECK_55, POOLS, need_data, timings  # noqa: E402

from cardpool.cards import row_to_card  # noqa: E402
from cardpool.importers import parse_source  # noqa: E402
from deckcheck.db import settle_heap  # noqa: E402
from rules.builtin import BUILT_IN  # noqa: E402
from rules.fingerprint import fingerprint  # noqa: E402
from rules.model import Deck  # noqa: E402
from rules.parse import parse  # noqa: E402
from rules.pool import CardIndex  # noqa: E402
from rules.resolve import resolve_text  # noqa: E402
from rules.validate import check_text  # noqa: E402

ON = date(2026, 5, 1)


def main() -> None:
    need_data()
    rows = parse_source("dcg", POOLS["dcg"].read_bytes(), "bench")
    index = CardIndex("dcg", [row_to_card(row) for row in rows])
    fmt = BUILT_IN["dcg"]
    settle_heap()  # as the service does after loading a pool (deckcheck.db)
    resolved = resolve_text(parse(DECK_55), index)
    assert resolved.deck.size("main") == 50 and resolved.deck.size("eggs") == 5

    def judge_fresh() -> None:
        # A new Deck each time, so the per-deck cached stacks are rebuilt as in a request.
        deck = Deck("dcg", resolved.deck.entries)
        fmt.judge(deck, ON)
        fingerprint(deck)

    rows = [
        ("validate parsed 55-card deck", judge_fresh, "target <= 100 µs"),
        ("parse text only", lambda: parse(DECK_55), ""),
        (
            "parse + resolve + validate",
            lambda: check_text(fmt, index, DECK_55, ON),
            "target <= 500 µs",
        ),
    ]
    print(f"{'':32}{'median':>9}{'best':>9}")
    for label, func, target in rows:
        times = timings(func, repeat=21, number=200)
        print(f"{label:32}{times[10] * 1e6:7.1f}µs{times[0] * 1e6:7.1f}µs   {target}")


if __name__ == "__main__":
    main()
