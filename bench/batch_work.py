"""What a unit of a batch's budget of work costs (deckcheck/budgets.py), in process.

    .venv/bin/python bench/batch_work.py

A batch's budget counts work, not seconds (issue 40): each deck judged is DECK_WORK
units, one per line (or structured entry), UNREAD_WORK more per line that named no card.
This prints the thread CPU time of each shape judged and written (best of 3), per deck
and per unit, on the four shared pools, so the weights and BATCH_WORK_PER_LINE (about
1.2 s per 100,000 lines on the project's machine) can be checked against today's code.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import DECK_55, full_database, structured_decks  # noqa: E402

from deckcheck import api, budgets, create_app, service  # noqa: E402


def _unknown(deck: int, lines: int) -> str:
    return "\n".join(f"1 Zq{deck}x{n} Unknownmon" for n in range(lines))


SHAPES = {
    "real decks, text (1,000)": [{"id": i, "decklist": DECK_55} for i in range(1000)],
    "real decks, structured (1,000)": [
        {"id": i, "deck": d} for i, d in enumerate(structured_decks([DECK_55] * 1000))
    ],
    "one-line decks (10,000)": [{"id": i, "decklist": "4 ST1-03"} for i in range(10_000)],
    "one unknown name each (10,000)": [{"id": i, "decklist": f"4 Zq{i}mon"} for i in range(10_000)],
    "200 unknown names each (100)": [{"id": i, "decklist": _unknown(i, 200)} for i in range(100)],
    "real + 21 unknown each (1,000)": [
        {"id": i, "decklist": DECK_55 + "\n" + _unknown(i, 21)} for i in range(1000)
    ],
}


def main() -> None:
    app = create_app(
        {"TESTING": True, "DATABASE": full_database(), "FORMATS_DIR": tempfile.mkdtemp()}
    )
    minimum = budgets.BATCH_MIN_WORK
    budgets.BATCH_MIN_WORK = 10**12  # measure every deck: nothing over budget
    print(f"{'shape':34} {'lines':>7} {'units':>9} {'CPU s':>7} {'us/deck':>8} {'us/unit':>8}")
    with app.test_request_context():
        fmt = service.find_format("dcg")
        for name, decks in SHAPES.items():
            best = float("inf")
            for _ in range(3):
                budget = budgets.BatchBudget.for_decks(decks)
                started = time.thread_time()
                api._check_batch(fmt, decks, None, budget)
                best = min(best, time.thread_time() - started)
            lines = sum(budgets.deck_lines(d) for d in decks)
            units = budget.done
            print(
                f"{name:34} {lines:7,} {units:9,} {best:7.3f} "
                f"{best / len(decks) * 1e6:8.1f} {best / units * 1e6:8.2f}"
            )
    per_line = budgets.BATCH_WORK_PER_LINE
    print(f"budget: {per_line} units per line, at least {minimum:,}")


if __name__ == "__main__":
    main()
