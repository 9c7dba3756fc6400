"""The service on the shared full pools: real decks, real exports, the real list history."""

import json
import re

import pytest
from conftest import DATA

# BT3-092 MaloMyotismon: restricted to 1 from 2026-04-04, announced 2026-03-16.
MALO = "\n".join(
    [
        "4 BT3-092",
        "4 BT16-073",
        "4 BT16-072",
        "4 BT16-089",
        "4 BT16-081",
        "4 EX10-048",
        "4 EX10-051",
        "4 BT16-082",
        "4 BT8-093",
        "4 EX10-065",
        "4 BT15-098",
        "4 BT15-099",
        "2 BT8-108",
        "4 BT16-006",
    ]
)


def validate(client, **body):
    response = client.post("/api/v1/decks/validate", json=body)
    assert response.status_code == 200, response.data
    return response.get_json()


@pytest.mark.parametrize(
    ("day", "warned", "restricted"),
    [
        ("2026-03-15", False, False),
        ("2026-03-16", True, False),
        ("2026-04-03", True, False),
        ("2026-04-04", False, True),
    ],
    ids=["before-announcement", "announced", "day-before", "in-force"],
)
def test_upcoming_change_around_the_2026_announcement(full_client, day, warned, restricted):
    data = validate(full_client, format="dcg", date=day, decklist=MALO)
    warnings = [w for w in data["warnings"] if w["code"] == "upcoming-change"]
    assert bool(warnings) is warned
    assert ("restricted" in {v["code"] for v in data["violations"]}) is restricted
    if warned:
        assert warnings[0]["cards"] == ["BT3-092"] and "2026-04-04" in warnings[0]["message"]


def test_upcoming_change_in_the_event_table_and_sheets(full_client):
    page = full_client.post(
        "/event", data={"format": "dcg", "date": "2026-03-20", "pasted": "=== Mia ===\n" + MALO}
    ).get_data(as_text=True)
    # The table says the warning in words (it used to list the code `upcoming-change`).
    assert "From 2026-04-04" in page
    payload = re.search(r'name="payload" value="([^"]+)"', page).group(1)
    sheets = full_client.post("/event/sheets", data={"payload": payload}).get_data(as_text=True)
    assert "From 2026-04-04" in sheets


def _example_blocks():
    path = DATA / "dcg" / "decklist_format_examples.txt"
    if not path.exists():
        return []
    blocks = re.split(r"^=== ", path.read_text(), flags=re.M)[1:]
    found = []
    for block in blocks:
        title, _, body = block.partition("\n")
        lines = [line for line in body.splitlines() if not line.startswith("# ")]
        arrays = [line for line in lines if line.startswith("[")]
        for part in arrays or ["\n".join(lines)]:
            if part.strip():
                found.append(pytest.param(part, id=title.split(" ")[0] + str(len(found))))
    return found


@pytest.mark.parametrize("decklist", _example_blocks())
def test_real_exports_resolve_every_line(full_client, decklist):
    data = validate(full_client, format="dcg", date="2026-05-01", decklist=decklist)
    problems = [
        v
        for v in data["violations"]
        if v["code"] in ("unknown-card", "ambiguous-card", "unparsed-line")
    ]
    assert problems == []
    assert data["deck"]["sections"]["main"]["count"] > 0


def test_deck_code_vectors_fold_parallels(full_client):
    path = DATA / "dcg" / "dcg_deckcode_test_vectors.json"
    vectors = json.loads(path.read_text())["vectors"]
    for vector in vectors:
        data = validate(full_client, format="dcg", date="2026-05-01", decklist=vector["code"])
        counts = {}
        for entry in vector["decoded"]["deck"]:
            counts[entry["number"]] = counts.get(entry["number"], 0) + entry["count"]
        main = {
            c["number"]: c["count"]
            for c in data["deck"]["sections"].get("main", {}).get("cards", [])
        }
        known = {n: c for n, c in counts.items() if n in main}
        assert main == known
        if vector["decoded"].get("sideboard"):
            assert "side-deck" in {w["code"] for w in data["warnings"]}


@pytest.mark.parametrize(
    ("fmt", "decklist", "legal"),
    [
        ("digibattle", "\n".join(f"1 {c}" for c in ["ST-01", "ST-02", "ST-03", "ST-04"]), False),
        ("dmcg", "3 St-1\n3 St-2", False),
    ],
)
def test_other_games(full_client, fmt, decklist, legal):
    assert validate(full_client, format=fmt, decklist=decklist)["legal"] is legal


def test_fifty_copy_card(full_client):
    data = validate(
        full_client,
        format="dcg",
        date="2024-01-01",
        deck={
            "main": [
                {"card": "BT11-061", "count": 46},
                {"card": "ST1-16", "count": 2},
                {"card": "ST1-12", "count": 2},
            ],
            "eggs": [{"card": "ST1-01", "count": 4}],
        },
    )
    assert data["legal"] is True


def test_the_imported_upstream_keeps_the_reprints_that_share_a_number(full_client):
    """The upstream JSON lacks RB1-004; an import keeps deckcheck's addition, so 3 P-009 and
    2 RB1-004 are 5 copies of card number P-009."""
    data = validate(
        full_client,
        format="dcg",
        date="2026-05-01",
        deck={"main": [{"card": "P-009", "count": 3}, {"card": "RB1-004", "count": 2}]},
    )
    [violation] = [v for v in data["violations"] if v["code"] == "copy-limit"]
    assert violation["cards"] == ["P-009", "RB1-004"]
    assert not [v for v in data["violations"] if v["code"] == "unknown-card"]
