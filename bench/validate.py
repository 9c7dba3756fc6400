"""Validation core and parse times on a real 55-card DCG deck (full DCG pool).

    .venv/bin/python bench/validate.py

Targets (issue 10): parse + resolve + validate of the text at most 200 µs (aim 100);
an adversarial 100,000-character line parsed in at most 20 ms (aim 5). Medians.
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
ADVERSARIAL = "a" + " " * 100_000 + "b\n" + "BT1-" * 25_000
UNKNOWN = "\n".join(f"1 Zqx{i} Unknownmon{i * 7}" for i in range(1000))


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
            "must <= 200 µs, aim 100",
        ),
        ("adversarial 100,000-char line", lambda: parse(ADVERSARIAL), "must <= 20 ms, aim 5"),
        ("1,000 unknown names", lambda: check_text(fmt, index, UNKNOWN, ON), "must < 2 s"),
    ]
    print(f"{'':32}{'median':>9}{'best':>9}")
    for label, func, target in rows:
        many = 200 if "unknown" not in label else 2
        times = timings(func, repeat=21 if many > 2 else 5, number=many)
        middle = times[len(times) // 2]
        print(f"{label:32}{middle * 1e6:9.1f}µs{times[0] * 1e6:9.1f}µs   {target}")


if __name__ == "__main__":
    main()
