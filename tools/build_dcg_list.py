"""Build the shipped DCG card list (cardpool/starter/dcg.csv.gz) from the upstream list.

    python tools/build_dcg_list.py ../shared/data/dcg/aegis_cards.json --as-of 2026-08-20
    python tools/build_dcg_list.py https://raw.githubusercontent.com/vinicius3333/aegis-digimon-tcg/main/packages/shared/src/cards/data/cards.json

`--as-of`: the date of the upstream list (its last commit; default: today, UTC), shown
as "updated <date>" wherever the service says how current its card list is.

SOURCE is the MIT-licensed community list (vinicius3333/aegis-digimon-tcg cards.json), a
path or an http(s) URL. It is read by the same importer `cardpool import dcg` uses, so
the shipped list and an imported one hold the same facts; deckcheck's own additions
(cardpool/starter/dcg_additions.csv) are added; the card text is dropped. The licence
notice stays beside the file (cardpool/starter/LICENSE-aegis-digimon-tcg.txt).
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, date, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cardpool.errors import CardPoolError  # noqa: E402
from cardpool.importers import parse_source  # noqa: E402
from cardpool.imports import read_source  # noqa: E402
from cardpool.shipped import compress, to_csv  # noqa: E402

OUT = ROOT / "cardpool" / "starter" / "dcg.csv.gz"


def build(content: bytes, source: str, as_of: str) -> str:
    """The shipped CSV text for an upstream list's bytes."""
    return to_csv(parse_source("dcg", content, source), as_of)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="the upstream cards.json: a path or an http(s) URL")
    parser.add_argument("--as-of", type=date.fromisoformat, default=datetime.now(UTC).date())
    args = parser.parse_args(argv)
    source = args.source
    try:
        fetched = read_source(source)
        text = build(fetched.content or b"", source, args.as_of.isoformat())
    except CardPoolError as err:
        print(f"not built: {err}", file=sys.stderr)
        return 1
    OUT.write_bytes(compress(text))
    cards = sum(1 for line in text.splitlines() if not line.startswith("#")) - 1
    print(f"{OUT.relative_to(ROOT)}: {cards} cards, {OUT.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
