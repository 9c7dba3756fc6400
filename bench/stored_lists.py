"""A stored list judged again: read from its text (what main did for an event's lists)
against judged from its stored structured list (deckcheck.server.verdicts), in process,
CPU time, which other jobs on the machine move less than wall time.

    .venv/bin/python bench/stored_lists.py [--repeat 15] [--number 20]

The full shared pools; the real 55-card list, and the largest list an event takes (64 KB,
1,000 lines naming no card). Per list: the median of `--repeat` timings of `--number`
judgings each; the structured list's packed size beside the text's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import DECK_55, full_database, timings  # noqa: E402

from deckcheck import create_app, service  # noqa: E402
from deckcheck.server import verdicts  # noqa: E402
from deckcheck.server.packing import pack, unpack  # noqa: E402

ON = date(2024, 6, 1)


def largest_list() -> str:
    """1,000 lines naming no card, just under 64 KB (as bench/events.py sends)."""
    text = "".join(f"1 Zorblax Quintessence Nonesuch Holo Variant {n:06d}\n" for n in range(1000))
    return text[: 64 * 1024 - 100]


def measure(fmt, text: str, repeat: int, number: int) -> dict:
    entry = {"decklist": text}
    _, structured = verdicts.read(fmt, entry, ON)
    packed, stored = pack(structured), json.dumps(entry)

    def from_text() -> None:
        service.check(fmt, service.as_payload(json.loads(stored)), ON)

    def from_structured() -> None:
        verdicts.judge(fmt, unpack(packed), ON)

    from_text(), from_structured()  # the memos and the pool's first answers
    clock = time.process_time
    return {
        "text": statistics.median(timings(from_text, repeat, number, clock)),
        "structured": statistics.median(timings(from_structured, repeat, number, clock)),
        "bytes": (len(stored), len(packed)),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--number", type=int, default=20)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="deckcheck-stored-"))
    (folder / "formats").mkdir()
    app = create_app(
        {
            "DATABASE": full_database(),
            "FORMATS_DIR": str(folder / "formats"),
            "EVENTS_DATABASE": str(folder / "events.db"),
            "SECRET_KEY": "bench",
        }
    )
    with app.app_context():
        fmt = service.find_format("dcg")
        for name, text, number in (
            ("55-card list", DECK_55, args.number),
            ("64 KB, 1,000 unknown lines", largest_list(), max(1, args.number // 20)),
        ):
            found = measure(fmt, text, args.repeat, number)
            sizes = "{:,} / {:,} bytes".format(*found["bytes"])
            print(
                f"{name}: from the text {found['text'] * 1e3:.3f} ms, from the stored "
                f"structured list {found['structured'] * 1e3:.3f} ms (CPU; text / packed: {sizes})"
            )


if __name__ == "__main__":
    main()
