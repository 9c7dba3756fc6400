"""The shared fixtures keep their promises: the starter database copy is what a new app
would seed (so no app seeds again), and the costliest files run first."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from types import SimpleNamespace

import conftest

from deckcheck import db


def test_a_copied_starter_database_needs_no_seeding(cards_db):
    """Were it not ready (a new migration, a new shipped list), each app would seed its
    own again: right, but 0.2 s a test, the cost the copy is there to save."""
    assert db._ready(cards_db, True)


def test_the_copy_holds_what_a_new_app_seeds(cards_db, tmp_path):
    (tmp_path / "new").mkdir()
    seeded = str(tmp_path / "new" / "cards.db")
    db._prepare(SimpleNamespace(config={"SEED_STARTER_POOL": True}), seeded)

    def pools(path: str) -> list[tuple]:
        with closing(sqlite3.connect(path)) as conn:
            return list(
                conn.execute(
                    "SELECT game, source, sha256, (SELECT count(*) FROM cards c"
                    " WHERE c.game = p.game) FROM pools p ORDER BY game"
                )
            )

    assert pools(cards_db) == pools(seeded)
    assert len(pools(seeded)) >= 3


def _item(nodeid: str, fixtures=(), callspec_id: str | None = None):
    info = SimpleNamespace(name2fixturedefs={name: () for name in fixtures})
    callspec = SimpleNamespace(id=callspec_id) if callspec_id else None
    return SimpleNamespace(nodeid=nodeid, _fixtureinfo=info, callspec=callspec, module=None)


def test_the_costliest_files_come_first_each_in_its_own_order():
    items = [
        _item("tests/a.py::one"),
        _item("tests/a.py::two"),
        _item("tests/pg.py::x[postgresql]", callspec_id="postgresql"),
        _item("tests/web.py::page", fixtures=["browser"]),
        _item("tests/pg.py::x[sqlite]", callspec_id="sqlite"),
    ]
    conftest.pytest_collection_modifyitems(items)
    assert [i.nodeid for i in items] == [
        "tests/web.py::page",
        "tests/pg.py::x[postgresql]",
        "tests/pg.py::x[sqlite]",
        "tests/a.py::one",
        "tests/a.py::two",
    ]
