"""A worker serves the pool an import replaced within POOL_CHECK_SECONDS, never later."""

import functools
import threading

import pytest

from cardpool.db import connect
from cardpool.importers import parse_source
from cardpool.shipped import read_shipped
from cardpool.store import replace_pool
from deckcheck import create_app, pool_check_seconds
from deckcheck.db import PoolCache


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def starter_rows(game: str) -> list[dict]:
    """The shipped list's rows, each a copy (an import may change what it is given)."""
    return [dict(row) for row in _parsed(game)]


@functools.cache
def _parsed(game: str) -> tuple[dict, ...]:
    # Read once per process: reading and checking the 4,000-card list is 0.27 s of CPU,
    # and the tests here asked for it 16 times.
    return tuple(parse_source(game, read_shipped(game), "starter"))


def reimport_without(path: str, game: str, number: str) -> None:
    """An import from another connection (as `cardpool import` in another process)."""
    db = connect(path)
    try:
        rows = [row for row in starter_rows(game) if row["number"] != number]
        assert len(rows) < len(starter_rows(game))
        replace_pool(db, game, rows, "test")
    finally:
        db.close()


@pytest.fixture
def database(app) -> str:
    return app.config["DATABASE"]


def test_an_import_is_served_once_the_interval_has_passed(database):
    clock = Clock()
    cache = PoolCache(database, check_every=1.0, clock=clock)
    before = cache.index("dcg")
    assert before.by_number("ST1-01") is not None
    reimport_without(database, "dcg", "ST1-01")
    clock.now += 0.5
    assert cache.index("dcg") is before  # within the documented second: not asked yet
    clock.now += 0.5
    after = cache.index("dcg")
    assert after is not before and after.by_number("ST1-01") is None
    assert cache.index("dcg") is after  # built once


def test_one_look_refreshes_every_game_it_finds_changed(database):
    """A look made for one game also marks another game's changed pool: no game is
    served stale for more than one interval."""
    clock = Clock()
    cache = PoolCache(database, check_every=1.0, clock=clock)
    dcg, dmcg = cache.index("dcg"), cache.index("dmcg")
    reimport_without(database, "dcg", "ST1-01")
    reimport_without(database, "dmcg", starter_rows("dmcg")[0]["number"])
    clock.now += 1.0
    assert cache.index("dcg") is not dcg  # this call looks
    assert cache.index("dmcg") is not dmcg  # no second look needed


def test_an_unchanged_pool_is_not_rebuilt_after_a_look(database):
    clock = Clock()
    cache = PoolCache(database, check_every=1.0, clock=clock)
    dcg = cache.index("dcg")
    reimport_without(database, "dmcg", starter_rows("dmcg")[0]["number"])
    clock.now += 5
    assert cache.index("dcg") is dcg


def test_a_thread_that_never_looked_builds_a_pool(database):
    clock = Clock()
    cache = PoolCache(database, check_every=1.0, clock=clock)
    cache.index("dcg")  # the main thread looks
    found = []
    thread = threading.Thread(target=lambda: found.append(cache.index("dmcg")))
    thread.start()
    thread.join()
    assert found and found[0].by_number(starter_rows("dmcg")[0]["number"]) is not None


def test_the_service_serves_an_import_when_told_to_look_every_time(tmp_path):
    (tmp_path / "formats").mkdir()
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "cards.db"),
            "FORMATS_DIR": str(tmp_path / "formats"),
            "SECRET_KEY": "test",
            "POOL_CHECK_SECONDS": 0,
        }
    )
    client = app.test_client()

    def codes() -> set[str]:
        body = {"format": "dcg", "date": "2021-01-01", "decklist": "4 ST1-01"}
        report = client.post("/api/v1/decks/validate", json=body).get_json()
        return {v["code"] for v in report["violations"]}

    assert "unknown-card" not in codes()
    reimport_without(app.config["DATABASE"], "dcg", "ST1-01")
    assert "unknown-card" in codes()


def test_a_pool_imported_after_the_last_look_is_built_once(database):
    clock = Clock()
    cache = PoolCache(database, check_every=1.0, clock=clock)
    cache.index("dcg")  # looks: dmcg is at its first generation
    reimport_without(database, "dmcg", starter_rows("dmcg")[0]["number"])
    first = cache.index("dmcg")  # built from the newer snapshot, before the next look
    assert cache.index("dmcg") is first


@pytest.mark.parametrize(
    ("text", "seconds"), [(None, 1.0), ("", 1.0), (" 0 ", 0.0), ("0.25", 0.25), ("3600", 3600.0)]
)
def test_the_interval_setting_is_read(text, seconds):
    assert pool_check_seconds(text) == seconds


@pytest.mark.parametrize("text", ["soon", "-1", "nan", "inf", "3601", "1e9"])
def test_an_interval_that_is_not_a_number_of_seconds_stops_the_start(text, monkeypatch, tmp_path):
    with pytest.raises(ValueError, match="DECKCHECK_POOL_CHECK_SECONDS=.* is not a number"):
        pool_check_seconds(text)
    monkeypatch.setenv("DECKCHECK_POOL_CHECK_SECONDS", text)
    with pytest.raises(ValueError, match="DECKCHECK_POOL_CHECK_SECONDS"):
        create_app({"DATABASE": str(tmp_path / "cards.db"), "SECRET_KEY": "test"})
