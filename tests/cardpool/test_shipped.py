"""The shipped DCG card list: what the build script makes of the upstream list, loaded by
every new database, with deckcheck's own additions kept through an import."""

from __future__ import annotations

import csv
import gzip
import importlib.util
import io
import json
from importlib import resources

import pytest
from conftest import DATA, ROOT, in_ci

from cardpool.db import connect
from cardpool.importers import card_csv
from cardpool.imports import import_pool
from cardpool.shipped import additions, quick_rows, read_shipped, shipped_date, shipped_file
from cardpool.store import pool_info

UPSTREAM = DATA / "dcg" / "aegis_cards.json"
REAL_DECK = "4 EX9-013\n4 BT15-020\n4 EX12-053"


def _tool():
    spec = importlib.util.spec_from_file_location(
        "build_dcg_list", ROOT / "tools" / "build_dcg_list.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def need_upstream():
    if not UPSTREAM.exists():
        # CI checks out ../shared beside the repository: there this never skips.
        assert not in_ci(), f"{UPSTREAM} is missing in CI"
        pytest.skip(f"{UPSTREAM} is absent (../shared not beside this checkout)")


def shipped_rows_of(text: str) -> list[dict]:
    lines = [line for line in text.splitlines(keepends=True) if not line.startswith("#")]
    return list(csv.DictReader(io.StringIO("".join(lines))))


def test_the_shipped_list_is_what_the_script_makes_of_the_upstream_list():
    need_upstream()
    shipped = read_shipped("dcg")
    built = _tool().build(UPSTREAM.read_bytes(), str(UPSTREAM), shipped_date(shipped))
    assert built == shipped.decode("utf-8")


def test_the_shipped_list_holds_the_same_facts_as_an_import_of_the_upstream(tmp_path):
    """Loaded from the shipped file or imported from the upstream JSON: one pool, but the
    card text, which is never shipped."""
    need_upstream()
    fresh = connect(tmp_path / "shipped.db")
    imported = connect(tmp_path / "imported.db")
    from cardpool.imports import seed_starter_pool

    seed_starter_pool(fresh)
    import_pool(imported, "dcg", str(UPSTREAM))
    query = "SELECT * FROM cards WHERE game = 'dcg' ORDER BY number"
    a = [{k: v for k, v in row.items() if k != "text"} for row in fresh.query(query)]
    b = [{k: v for k, v in row.items() if k != "text"} for row in imported.query(query)]
    assert len(a) == len(b) == 4391
    assert a == b


def test_the_shipped_list_is_small_facts_only_and_in_the_package():
    name = shipped_file("dcg")
    assert name == "dcg.csv.gz"
    packed = resources.files("cardpool.starter").joinpath(name).read_bytes()
    assert len(packed) < 150_000
    rows = shipped_rows_of(gzip.decompress(packed).decode("utf-8"))
    assert len(rows) == 4391
    assert "text" not in rows[0] and "effectText" not in rows[0]
    # Card effects are full of [brackets] and ＜keywords＞; facts never hold them.
    values = [value or "" for row in rows for value in row.values()]
    assert not [v for v in values if "[" in v or "＜" in v]
    assert max(len(v) for v in values) < 200
    licence = resources.files("cardpool.starter").joinpath("LICENSE-aegis-digimon-tcg.txt")
    assert "MIT License" in licence.read_text("utf-8")
    assert "Vinícius Luiz" in licence.read_text("utf-8")


def test_the_shipped_list_carries_the_reprints_and_their_shared_numbers():
    rows = {row["number"]: row for row in shipped_rows_of(read_shipped("dcg").decode())}
    shared = {n: rows[n]["treated_as"] for n in ("RB1-004", "RB1-006", "RB1-007")}
    assert shared == {"RB1-004": "P-009", "RB1-006": "P-058", "RB1-007": "P-010"}
    assert [rows[n]["name"] for n in shared] == ["Agumon", "Gammamon", "Greymon"]
    assert {n for n, row in rows.items() if row["treated_as"]} == set(shared)


def test_a_new_database_checks_real_decks(client):
    """The README's start command on a fresh database: a 2026 list's cards are all known."""
    response = client.post("/api/v1/decks/validate", json={"format": "dcg", "decklist": REAL_DECK})
    data = response.get_json()
    assert not [v for v in data["violations"] if v["code"] == "unknown-card"], data
    assert data["deck"]["sections"]["main"]["count"] == 12


def test_a_new_database_records_where_its_list_came_from(app):
    db = connect(app.config["DATABASE"])
    info = pool_info(db)["dcg"]
    assert info["count"] == 4391
    assert "dcg.csv.gz" in info["source"]
    assert info["list_date"] == shipped_date(read_shipped("dcg"))


P009 = {
    "cardId": "P-009",
    "set": "P",
    "nameEn": "Agumon",
    "kinds": ["Digimon"],
    "level": 3,
    "colors": ["Red"],
}


@pytest.mark.parametrize(
    ("upstream", "expected"),
    [
        ([P009], {"P-009": None, "RB1-004": "P-009"}),
        (
            [P009, {**P009, "cardId": "RB1-004", "set": "RB1", "nameEn": "Agumon (RB)"}],
            {"P-009": None, "RB1-004": "P-009"},
        ),
        ([{**P009, "cardId": "BT1-010", "set": "BT1"}], {"BT1-010": None}),
    ],
    ids=["upstream-lacks-it", "upstream-has-it-without-the-rule", "no-promo-no-reprint"],
)
def test_an_import_keeps_the_additions(tmp_path, upstream, expected):
    db = connect(tmp_path / "cards.db")
    source = tmp_path / "cards.json"
    source.write_text(json.dumps(upstream))
    import_pool(db, "dcg", str(source))
    rows = {r["number"]: r for r in db.query("SELECT number, name, treated_as FROM cards")}
    assert {n: r["treated_as"] for n, r in rows.items()} == expected
    if len(upstream) == 2:
        assert rows["RB1-004"]["name"] == "Agumon (RB)", "the upstream's own facts win"


def test_the_rule_is_read_from_the_card_text(tmp_path):
    db = connect(tmp_path / "cards.db")
    source = tmp_path / "cards.json"
    card = {
        **P009,
        "cardId": "RB1-099",
        "effectText": "[Rule] Card Number: Also treated as [P-009]. A deck may not have ...",
    }
    source.write_text(json.dumps([P009, card]))
    import_pool(db, "dcg", str(source))
    found = db.execute("SELECT treated_as FROM cards WHERE number = 'RB1-099'").fetchone()
    assert found == ("P-009",)


def test_the_additions_are_real_reprints_of_cards_the_list_has():
    rows = {row["number"] for row in shipped_rows_of(read_shipped("dcg").decode())}
    for addition in additions():
        assert addition["number"] in rows and addition["treated_as"] in rows


def test_the_quick_reader_reads_the_shipped_list_as_the_importer_does():
    """New databases load the shipped list through `quick_rows`; the validating card CSV
    importer must read the very same rows from it."""
    content = read_shipped("dcg")
    assert quick_rows("dcg", content) == card_csv.parse("dcg", content, "shipped")


# The digimoncard.io sample export (silhouette-card-maker's docs, in
# ../shared/data/dcg/decklist_format_examples.txt): the list a new user pasted.
SAMPLE = """// Digimon Deck List
4 BlitzGreymon EX9-013
2 Blue Scramble LM-028
4 Gabumon BT15-020
2 Gabumon EX9-014
4 Gabumon (X Antibody) BT9-020
4 Garurumon BT15-024
2 Garurumon P-007
2 Garurumon (X Antibody) BT9-024
1 Garurumon (X Antibody) EX5-018
2 Matt Ishida BT15-083
2 Mental Training P-104
1 MetalGarurumon BT15-101
4 MetalGarurumon EX1-021
4 Omnimon Alter-S EX9-021
4 Tai Kamiya & Matt Ishida EX9-066
4 WereGarurumon: Sagittarius Mode EX9-019
4 Wisteria Memory Boost! LM-034
// Egg Deck
1 Bukamon BT14-002
4 Wanyamon BT11-002"""


@pytest.mark.parametrize(
    ("day", "codes"), [("2025-08-01", []), ("2026-05-01", ["restricted"])], ids=["legal", "later"]
)
def test_a_new_database_judges_the_sample_list_on_its_merits(client, day, codes):
    """Legal after EX9 came out (2025-06-26) and before EX1-021 was restricted (2025-09-01);
    after, that is its only problem."""
    body = {"format": "dcg", "date": day, "decklist": SAMPLE}
    data = client.post("/api/v1/decks/validate", json=body).get_json()
    assert [v["code"] for v in data["violations"]] == codes
    assert data["deck"]["sections"]["main"]["count"] == 50
    assert data["deck"]["sections"]["eggs"]["count"] == 5


@pytest.mark.parametrize(
    ("source", "replaced"),
    [
        ("bundled starter pool", True),
        ("shipped with deckcheck (cardpool/starter/dcg.csv.gz)", True),
        ("https://example.org/cards.json", False),
    ],
    ids=["old-starter-pool", "older-shipped-list", "imported"],
)
def test_a_new_release_replaces_an_older_shipped_list_only(tmp_path, source, replaced):
    from cardpool.imports import seed_starter_pool
    from cardpool.store import replace_pool
    from deckcheck import create_app

    path = tmp_path / "cards.db"
    db = connect(path)
    seed_starter_pool(db)  # every game has its list: only the dcg pool is out of date
    rows = card_csv.parse("dcg", b"number,name,kind\nST1-01,Koromon,digi-egg\n", "old")
    replace_pool(db, "dcg", rows, source, content=b"an older list")
    db.close()
    create_app({"TESTING": True, "DATABASE": str(path), "EVENTS_DATABASE": str(tmp_path / "e")})
    count = connect(path).execute("SELECT count FROM pools WHERE game = 'dcg'").fetchone()[0]
    assert count == (4391 if replaced else 1)
