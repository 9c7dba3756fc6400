"""Validation core and parse times on a real 55-card DCG deck (full DCG pool).

    .venv/bin/python bench/validate.py
    .venv/bin/python bench/validate.py --against /tmp/before --rounds 5 [--cpu]

Also the same deck as a DCG deck code (`DCG...`, read by the text reader).
Targets (issue 23): parse + resolve + validate of the text no slower than c3fba1a (aim
100 µs); the same deck as structured entries at most 1.2x the text; an adversarial
100,000-character line parsed in at most 20 ms (aim 5). Medians.

`--against DIR` times another checkout of the project (e.g. `git worktree add
/tmp/before <commit>`) side by side: each round runs one fresh process per tree,
alternating, so both see the same machine load; the table shows the median over
rounds of each process's median. The load average is printed with the figures. `--cpu`
times the CPU each process spent instead of wall time: on a machine shared with other
jobs, what the code costs rather than how long it waited.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve()
ON = date(2026, 5, 1)
# After every product out on 2026-10-02 (EX13): since issue 43 announced products (EX14,
# BT28) come later, so the release check runs for a deck checked today too.
TODAY = date(2026, 12, 4)
ADVERSARIAL = "a" + " " * 100_000 + "b\n" + "BT1-" * 25_000
UNKNOWN = "\n".join(f"1 Zqx{i} Unknownmon{i * 7}" for i in range(1000))
TARGETS = {
    "parse + resolve + validate": "must <= c3fba1a, aim 100",
    "same deck, structured": "must <= 1.2x text, aim = text",
    "adversarial 100,000-char line": "must <= 20 ms, aim 5",
    "1,000 unknown names": "must < 2 s",
}


def measure(tree: Path, cpu: bool = False) -> dict[str, float]:
    """Median µs per row, with the project modules imported from `tree` (`cpu`: of the
    process's CPU time rather than wall time)."""
    sys.path.insert(0, str(tree))
    sys.path.insert(1, str(HERE.parent))
    from common import DECK_55, POOLS, need_data, structured_deck, timings

    from cardpool.cards import row_to_card
    from cardpool.importers import parse_source
    from rules.builtin import BUILT_IN
    from rules.fingerprint import fingerprint
    from rules.model import Deck
    from rules.pool import CardIndex
    from rules.read import parse
    from rules.validate import check_structured, check_text

    need_data()
    rows = parse_source("dcg", POOLS["dcg"].read_bytes(), "bench")
    index = CardIndex("dcg", [row_to_card(row) for row in rows])
    fmt = BUILT_IN["dcg"]
    try:
        from deckcheck.db import settle_heap

        settle_heap()  # as the service does after loading a pool (deckcheck.db)
    except ImportError:
        pass
    sections = structured_deck(DECK_55)
    report = check_text(fmt, index, DECK_55, ON)
    assert report.deck.size("main") == 50 and report.deck.size("eggs") == 5
    same = check_structured(fmt, index, sections, None, ON)
    assert same.fingerprint == report.fingerprint
    assert [v.message for v in same.violations] == [v.message for v in report.violations]

    code = deck_code(report.deck)
    by_code = check_text(fmt, index, code, ON)
    assert by_code.fingerprint == report.fingerprint

    def judge_fresh() -> None:
        # A new Deck each time, so the per-deck cached stacks are rebuilt as in a request.
        deck = Deck("dcg", report.deck.entries)
        fmt.judge(deck, ON)
        fingerprint(deck)

    cases = [
        ("validate parsed 55-card deck", judge_fresh),
        ("parse text only", lambda: parse(DECK_55)),
        ("parse + resolve + validate", lambda: check_text(fmt, index, DECK_55, ON)),
        ("the same, checked for 2026-12-04", lambda: check_text(fmt, index, DECK_55, TODAY)),
        ("same deck, structured", lambda: check_structured(fmt, index, sections, None, ON)),
        ("same deck, a DCG deck code", lambda: check_text(fmt, index, code, ON)),
        ("adversarial 100,000-char line", lambda: parse(ADVERSARIAL)),
        ("1,000 unknown names", lambda: check_text(fmt, index, UNKNOWN, ON)),
    ]
    medians = {}
    for label, func in cases:
        slow = "unknown" in label
        clock = time.process_time if cpu else time.perf_counter
        times = timings(func, repeat=5 if slow else 21, number=2 if slow else 200, clock=clock)
        medians[label] = times[len(times) // 2] * 1e6
    return medians


def deck_code(deck) -> str:  # noqa: ANN001 (a rules.model.Deck of either tree)
    """The deck as a heroi.cc deck code (`rules.deckcode`), read like a text list."""
    from rules.deckcode import CodeEntry, DeckCode, encode

    def entries(section: str) -> tuple:
        return tuple(
            CodeEntry(e.card.number, e.count) for e in deck.entries if e.section == section
        )

    return encode(DeckCode(3, "en", entries("eggs"), entries("main"), (), "bench"))


def run_child(tree: Path, cpu: bool) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, str(HERE), "--child", str(tree), *(["--cpu"] if cpu else [])],
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    ).stdout
    return json.loads(out.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--against", type=Path, help="another checkout to time side by side")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument(
        "--cpu", action="store_true", help="time CPU spent, not wall (on a loaded machine)"
    )
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.cpu)))
        return
    trees = {"now": HERE.parents[1]}
    if args.against:
        trees = {"before": args.against.resolve(), **trees}
    results: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    loads = [os.getloadavg()[0]]
    for _ in range(args.rounds):
        for name, tree in trees.items():
            results[name].append(run_child(tree, args.cpu))
            loads.append(os.getloadavg()[0])
    labels = list(results["now"][0])
    print(f"load average (1 min) during the run: {min(loads):.1f}-{max(loads):.1f}")
    unit = "µs of CPU" if args.cpu else "µs"
    print(f"{'median of ' + str(args.rounds) + ' processes, ' + unit:34}", end="")
    print("".join(f"{name:>11}" for name in trees))
    for label in labels:
        cells = "".join(
            f"{statistics.median(r[label] for r in results[name]):11.1f}" for name in trees
        )
        print(f"{label:34}{cells}   {TARGETS.get(label, '')}")


if __name__ == "__main__":
    main()
