"""`GET /api/v1/cards?collection=<id>` ("owned only") with a 20,000-line collection of
every DCG card, beside the same searches without it (in process, the shipped pools).

    .venv/bin/python bench/owned_search.py

Prints the median of 30 requests per query, with and without the collection.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from deckcheck import create_app  # noqa: E402
from deckcheck.decks.imports import MAX_ENTRIES  # noqa: E402

QUERIES = ("", "mon", "agumon", "lv:4")


def median_ms(client, params: dict) -> float:
    times = []
    for _ in range(30):
        started = time.perf_counter()
        response = client.get("/api/v1/cards", query_string=params)
        times.append(time.perf_counter() - started)
        assert response.status_code == 200, response.get_json()
    return statistics.median(times) * 1000


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    (folder / "formats").mkdir()
    app = create_app(
        {
            "DATABASE": str(folder / "cards.db"),
            "FORMATS_DIR": str(folder / "formats"),
            "EVENTS_DATABASE": str(folder / "events.db"),
            "SECRET_KEY": "bench",
            "CARD_IMAGES": "off",
            "DECKS_CREATE_LIMIT": (0, 3600),
        }
    )
    client = app.test_client()
    numbers: list[str] = []
    for page in range(1, 100):
        found = client.get(f"/api/v1/cards?game=dcg&per_page=200&page={page}").get_json()
        numbers += [card["number"] for card in found["data"]]
        if not found["has_more"]:
            break
    lines = "\n".join(f"{numbers[i % len(numbers)]},1" for i in range(MAX_ENTRIES))
    made = client.post("/api/v1/collections", json={"cards": lines}).get_json()["collection"]
    print(f"collection: {MAX_ENTRIES:,} lines, {made['entries']:,} different cards")
    for q in QUERIES:
        params = {"game": "dcg", "q": q, "order": "relevance", "per_page": 30}
        owned = median_ms(client, {**params, "collection": made["id"]})
        print(f"q={q!r:10} with {owned:.1f} ms, without {median_ms(client, params):.1f} ms")


if __name__ == "__main__":
    main()
