"""What a careless import would get wrong: an error half-way, a cut download, an
alternate-art row before its base printing. Each test fails on a copy of the code
that commits after the error, accepts the short body or lets the `_P1` row win."""

from __future__ import annotations

import json
import socket
import threading

import pytest
from fixture_cards import pool_rows
from raw_server import raw_server

from cardpool.db import connect
from cardpool.errors import FetchError
from cardpool.imports import Progress, import_pool
from cardpool.store import pool_info, replace_pool

CSV = "number,name,kind,level,types,aliases,evo_names,flags,max_copies,set\n" + "".join(
    f"ST-{i:02d},Card{i},digimon,rookie,Red,,,,,Starter Set\n" for i in range(1, 41)
)


rows = pool_rows


@pytest.fixture
def path(tmp_path):
    return tmp_path / "cards.db"


@pytest.fixture
def db(path):
    database = connect(path)
    yield database
    database.close()


def names(path, game="dmcg") -> set[str]:
    """What a fresh reader sees (a connection of its own, as another worker has)."""
    reader = connect(path, migrate=False)
    try:
        return {r[0] for r in reader.execute("SELECT name FROM cards WHERE game = ?", [game])}
    finally:
        reader.close()


class HalfWay(Exception):
    pass


def test_an_error_half_way_through_the_rows_keeps_the_previous_pool(db, path):
    replace_pool(db, "dmcg", rows("old", 10), "old")
    before = pool_info(db)["dmcg"]
    chunks = []

    def progress(n):
        chunks.append(n)
        if len(chunks) == 2:
            raise HalfWay

    with pytest.raises(HalfWay):
        replace_pool(db, "dmcg", rows("new", 1500), "new", progress=progress)
    assert chunks == [500, 500]  # the error came after 1,000 of 1,500 rows were written
    assert names(path) == {f"old{i}" for i in range(1, 11)}
    same = {r[0] for r in db.execute("SELECT name FROM cards WHERE game = 'dmcg'")}
    assert same == names(path)
    assert pool_info(db)["dmcg"] == before
    # The connection is left usable: the next import goes through whole.
    assert replace_pool(db, "dmcg", rows("next", 3), "next") == 3
    assert names(path) == {"next1", "next2", "next3"}


def test_a_bad_row_half_way_keeps_the_previous_pool(db, path):
    replace_pool(db, "dmcg", rows("old", 10), "old")
    broken = rows("new", 900)
    broken[700] = {**broken[700], "no_such_column": 1}  # refused by the database itself
    with pytest.raises(Exception) as raised:
        replace_pool(db, "dmcg", broken, "new")
    assert not isinstance(raised.value, AssertionError)
    assert names(path) == {f"old{i}" for i in range(1, 11)}
    assert pool_info(db)["dmcg"]["source"] == "old"


def test_an_import_stopped_by_its_progress_keeps_the_previous_pool(db, path, tmp_path):
    source = tmp_path / "cards.csv"
    source.write_text(CSV)
    assert import_pool(db, "digibattle", str(source)) == 40
    bigger = tmp_path / "bigger.csv"
    bigger.write_text(
        CSV.replace("Card", "New")
        + "".join(f"ST-{i:03d},New{i},digimon,rookie,Red,,,,,S\n" for i in range(100, 700))
    )

    def stop(n):
        raise HalfWay

    with pytest.raises(HalfWay):
        import_pool(db, "digibattle", str(bigger), progress=Progress(rows=stop))
    assert names(path, "digibattle") == {f"Card{i}" for i in range(1, 41)}


# -- a download cut short ------------------------------------------------------------


@pytest.fixture
def short_server():
    """A real server on 127.0.0.1 that promises 4,000 bytes, sends a readable part of a
    card list (whole lines) and closes: a download cut by the network."""
    body = CSV.encode()
    head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(body) + 4000}\r\n\r\n".encode()

    def answer(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(head + body)

    with raw_server(answer) as url:
        yield url


def test_a_download_shorter_than_its_content_length_is_refused(db, path, short_server):
    replace_pool(db, "digibattle", [], "empty before")
    with pytest.raises(FetchError) as raised:
        import_pool(db, "digibattle", short_server, retries=0, timeout=5)
    message = str(raised.value)
    assert short_server in message and "\n" not in message
    # urllib3 stops the read first (IncompleteRead), said in words, not as an exception
    # repr; fetch's own size check is the net under it.
    assert "connection closed before all" in message and "IncompleteRead" not in message
    assert names(path, "digibattle") == set()
    assert pool_info(db)["digibattle"]["source"] == "empty before"


# -- alternate arts ------------------------------------------------------------------


def dcg_card(number, name, rarity, cost):
    return {
        "cardId": number,
        "nameEn": name,
        "kinds": ["Digimon"],
        "level": 3,
        "colors": ["Red"],
        "rarity": rarity,
        "playCost": cost,
    }


BASE = dcg_card("BT1-010", "Agumon", "R", 3)
ALT = dcg_card("BT1-010_P1", "Agumon (Alternative Art)", "SEC", 9)


@pytest.mark.parametrize(
    "order",
    [[ALT, BASE], [BASE, ALT], [ALT, BASE, {**ALT, "cardId": "BT1-010_P2"}]],
    ids=["alternate-first", "base-first", "two-alternates"],
)
def test_the_base_printing_wins_over_its_alternate_arts(db, tmp_path, order):
    source = tmp_path / "cards.json"
    source.write_text(json.dumps(order))
    assert import_pool(db, "dcg", str(source)) == 1
    found = db.execute(
        "SELECT number, name, rarity, play_cost FROM cards WHERE game = 'dcg'"
    ).fetchall()
    assert found == [("BT1-010", "Agumon", "R", 3)]


def test_an_alternate_art_without_its_base_is_kept_under_the_base_number(db, tmp_path):
    source = tmp_path / "cards.json"
    source.write_text(json.dumps([ALT]))
    assert import_pool(db, "dcg", str(source)) == 1
    assert db.execute("SELECT number, rarity FROM cards").fetchall() == [("BT1-010", "SEC")]
