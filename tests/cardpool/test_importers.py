"""Importers against a real HTTP server on 127.0.0.1, serving real files and broken ones."""

import time

import pytest
from conftest import POOLS, need_shared
from werkzeug.wrappers import Response

from cardpool.db import connect
from cardpool.errors import BadRowError, FetchError, SourceFormatError
from cardpool.imports import import_pool, sync_pool
from cardpool.store import pool_info

CSV_HEADER = "number,name,kind,level,types,aliases,evo_names,flags,max_copies,set\n"
GOOD_CSV = (
    CSV_HEADER
    + "ST-01,Agumon,digimon,rookie,Red,,,,,Starter Set\n"
    + "ST-02,Greymon,digimon,champion,Red,,,,,Starter Set\n"
)
FAST = {"retries": 2, "backoff": 0, "timeout": 2}


@pytest.fixture
def db(tmp_path):
    database = connect(tmp_path / "cards.db")
    yield database
    database.close()


def count(db, game):
    return db.execute("SELECT count(*) FROM cards WHERE game = ?", [game]).fetchone()[0]


@pytest.mark.parametrize("game", ["dcg", "digibattle", "dmcg", "dbe"])
def test_shared_pools_from_a_url(db, httpserver, game):
    need_shared()
    expected = {"dcg": 4391, "digibattle": 401, "dmcg": 111, "dbe": 30}[game]
    httpserver.expect_request(f"/{game}").respond_with_data(POOLS[game].read_bytes())
    assert import_pool(db, game, httpserver.url_for(f"/{game}"), **FAST) == expected
    assert count(db, game) == expected


def test_retries_a_500_then_succeeds(db, httpserver):
    httpserver.expect_ordered_request("/cards.csv").respond_with_data("boom", status=500)
    httpserver.expect_ordered_request("/cards.csv").respond_with_data(GOOD_CSV)
    assert import_pool(db, "digibattle", httpserver.url_for("/cards.csv"), **FAST) == 2


def test_user_agent_names_deckcheck(db, httpserver):
    httpserver.expect_request(
        "/cards.csv",
        headers={"User-Agent": "deckcheck/0.1 (Digimon deck-legality service; card pool importer)"},
    ).respond_with_data(GOOD_CSV)
    assert import_pool(db, "digibattle", httpserver.url_for("/cards.csv"), **FAST) == 2


@pytest.fixture
def seed(db, tmp_path):
    """Import a small pool first, so each failure can show that it is still there."""

    def load(game, text):
        path = tmp_path / f"seed-{game}.csv"
        path.write_text(text)
        return import_pool(db, game, str(path))

    return load


@pytest.mark.parametrize(
    ("setup", "error", "words"),
    [
        (
            lambda s: s.expect_request("/x").respond_with_data("", status=404),
            FetchError,
            "HTTP 404",
        ),
        (
            lambda s: s.expect_request("/x").respond_with_data("", status=503),
            FetchError,
            "HTTP 503",
        ),
        (
            lambda s: s.expect_request("/x").respond_with_data(
                '[{"cardId": "BT1-001", "nameEn": "Yok'
            ),
            SourceFormatError,
            "truncated",
        ),
        (
            lambda s: s.expect_request("/x").respond_with_json({"cards": "nope"}),
            SourceFormatError,
            "expected a JSON list",
        ),
        (
            lambda s: s.expect_request("/x").respond_with_json(
                [{"cardId": "BT1-001", "kinds": ["Pokemon"]}]
            ),
            BadRowError,
            "card #1 (BT1-001)",
        ),
        (
            lambda s: s.expect_request("/x").respond_with_json([]),
            SourceFormatError,
            "no cards found",
        ),
    ],
    ids=["404", "5xx-always", "truncated-json", "wrong-shape", "bad-card", "empty"],
)
def test_failures_leave_the_previous_pool(db, seed, httpserver, setup, error, words):
    seed("dcg", CSV_HEADER + "BT1-010,Agumon,digimon,3,Red,,,,,\n")
    setup(httpserver)
    with pytest.raises(error) as raised:
        import_pool(db, "dcg", httpserver.url_for("/x"), **FAST)
    assert words in str(raised.value)
    assert count(db, "dcg") == 1


def test_timeout(db, httpserver):
    def slow(request):
        time.sleep(1.5)
        return Response(GOOD_CSV)

    httpserver.expect_request("/slow").respond_with_handler(slow)
    with pytest.raises(FetchError, match="no answer in time"):
        import_pool(
            db, "digibattle", httpserver.url_for("/slow"), retries=0, backoff=0, timeout=0.5
        )


def test_size_limit(db, httpserver):
    httpserver.expect_request("/big").respond_with_data("x" * 5000)
    with pytest.raises(FetchError, match="limit"):
        import_pool(db, "digibattle", httpserver.url_for("/big"), retries=0, max_bytes=1000)


@pytest.mark.parametrize(
    ("row", "words"),
    [
        ("ST-03,Biyomon,pokemon,rookie,,,,,,", "line 4 (card ST-03): kind"),
        ("ST-03,Biyomon,digimon,legendary,,,,,,", "level"),
        ("ST-03,Biyomon,digimon,rookie,,,,shiny,,", "flags"),
        ("ST-03,Biyomon,digimon,rookie,,,,,lots,", "max_copies"),
        (",Biyomon,digimon,rookie,,,,,,", "number"),
        ("ST-01,Agumon again,digimon,rookie,,,,,,", "listed twice"),
    ],
    ids=["kind", "level", "flag", "max-copies", "no-number", "duplicate"],
)
def test_bad_csv_rows_name_the_line(db, seed, tmp_path, row, words):
    seed("digibattle", GOOD_CSV)
    bad = tmp_path / "bad.csv"
    bad.write_text(GOOD_CSV + row + "\n")
    with pytest.raises(BadRowError) as raised:
        import_pool(db, "digibattle", str(bad))
    assert words in str(raised.value) and "bad.csv" in str(raised.value)
    assert count(db, "digibattle") == 2


def test_csv_without_required_columns(db, tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("code,title\nST-01,Agumon\n")
    with pytest.raises(SourceFormatError, match="missing column"):
        import_pool(db, "digibattle", str(bad))


def test_alternate_arts_fold_into_their_number(db, tmp_path):
    source = tmp_path / "cards.csv"
    source.write_text(
        CSV_HEADER + "BT1-010,Agumon,digimon,3,Red,,,,,\nBT1-010_P1,Agumon,digimon,3,Red,,,,,\n"
    )
    assert import_pool(db, "dcg", str(source)) == 1


def test_sync_skips_an_unchanged_list(db, httpserver):
    httpserver.expect_request("/list").respond_with_data(GOOD_CSV, headers={"ETag": '"v1"'})
    url = httpserver.url_for("/list")
    assert sync_pool(db, "digibattle", url, **FAST) == 2
    httpserver.clear()
    httpserver.expect_request("/list", headers={"If-None-Match": '"v1"'}).respond_with_data(
        "", status=304
    )
    assert sync_pool(db, "digibattle", url, **FAST) is None
    assert pool_info(db)["digibattle"]["etag"] == '"v1"'


def test_missing_file(db):
    with pytest.raises(FetchError, match="cannot read the file"):
        import_pool(db, "dcg", "/no/such/file.json")
