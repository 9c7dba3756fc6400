"""Card lists and servers that misbehave: a message naming what and where, never a
traceback; a download that drips never outlives its deadline; redirects are bounded."""

from __future__ import annotations

import socket
import sqlite3
import threading
import time

import pytest
from raw_server import raw_server

from cardpool.db import connect
from cardpool.errors import BadRowError, CardPoolError, FetchError, SourceFormatError
from cardpool.fetch import fetch
from cardpool.imports import import_pool

CSV_HEADER = "number,name,kind,level,types,aliases,evo_names,flags,max_copies,set\n"
GOOD_ROW = "ST-01,Agumon,digimon,rookie,Red,,,,,Starter Set\n"


@pytest.fixture
def db(tmp_path):
    database = connect(tmp_path / "cards.db")
    yield database
    database.close()


def count(db, game: str) -> int:
    return db.execute("SELECT count(*) FROM cards WHERE game = ?", [game]).fetchone()[0]


# -- sources that used to end in a traceback ------------------------------------


@pytest.mark.parametrize(
    ("game", "content", "error", "words"),
    [
        (
            "digibattle",
            CSV_HEADER + GOOD_ROW + "ST-02,Greymon,digimon,champion,,,,," + "9" * 5000 + ",\n",
            BadRowError,
            "line 3 (card ST-02): max_copies",
        ),
        (
            "digibattle",
            CSV_HEADER + "ST-01,Ag\x00umon,digimon,rookie,,,,,,\n",
            BadRowError,
            "card #1 (ST-01): name holds a control character (U+0000)",
        ),
        (
            "digibattle",
            CSV_HEADER + "ST\x1b-01,Agumon,digimon,rookie,,,,,,\n",
            BadRowError,
            "card #1 (ST\\x1b-01): number holds a control character (U+001B)",
        ),
        (
            "dcg",
            '[{"cardId": "BT1-001", "nameEn": "Yokomon\\ud800", "kinds": ["DigiEgg"]}]',
            BadRowError,
            "card #1 (BT1-001): name holds a lone surrogate (U+D800)",
        ),
        (
            "dcg",
            '[{"cardId": "BT1-\\u0000001", "nameEn": "Yokomon", "kinds": ["DigiEgg"]}]',
            BadRowError,
            "number holds a control character (U+0000)",
        ),
        ("dcg", "[" * 200_000 + "]" * 200_000, SourceFormatError, "nested too deeply"),
        (
            "dcg",
            '[{"cardId": "BT1-001", "kinds": ["DigiEgg"], "maxCountInDeck": ' + "7" * 5000 + "}]",
            SourceFormatError,
            "cards.src",
        ),
    ],
    ids=[
        "5000-digit-max-copies",
        "nul-in-name",
        "escape-in-number",
        "lone-surrogate",
        "nul-in-json-number",
        "deep-nesting",
        "5000-digit-json-number",
    ],
)
def test_bad_sources_are_a_message_naming_the_row(db, tmp_path, game, content, error, words):
    source = tmp_path / "cards.src"
    source.write_bytes(content.encode("utf-8", "surrogatepass"))
    with pytest.raises(error) as raised:
        import_pool(db, game, str(source))
    message = str(raised.value)
    assert words in message and "\n" not in message
    assert count(db, game) == 0


def test_a_locked_database_is_a_message(db, tmp_path):
    source = tmp_path / "cards.csv"
    source.write_text(CSV_HEADER + GOOD_ROW)
    db.execute("PRAGMA busy_timeout = 50")
    holder = sqlite3.connect(tmp_path / "cards.db", isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(CardPoolError, match="busy: another import holds its write lock"):
            import_pool(db, "digibattle", str(source))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert import_pool(db, "digibattle", str(source)) == 1


def test_the_command_line_prints_one_line_not_a_traceback(runner, tmp_path):
    source = tmp_path / "deep.json"
    source.write_text("[" * 100_000)
    result = runner.invoke(args=["cardpool", "import", "dcg", str(source)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output.strip().count("\n") == 0 and "nested too deeply" in result.output


# -- a server that drips ---------------------------------------------------------


HEADS = {
    "body": b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n",
    "headers": b"HTTP/1.1 200 OK\r\nX-Slow: ",  # the headers themselves drip
}


@pytest.fixture(params=sorted(HEADS))
def dripping_server(request):
    """A real server on 127.0.0.1 that sends a start and then one byte every 50 ms:
    no single read ever times out, so only an overall deadline ends the download."""
    head = HEADS[request.param]

    def drip(conn: socket.socket, stop: threading.Event) -> None:
        conn.sendall(head)
        while not stop.wait(0.05):
            try:
                conn.sendall(b"x")
            except OSError:
                return

    with raw_server(drip) as url:
        yield url


def test_a_dripping_download_gives_up_at_the_deadline(db, dripping_server, monkeypatch):
    monkeypatch.setenv("DECKCHECK_DOWNLOAD_DEADLINE", "0.5")
    started = time.monotonic()
    with pytest.raises(FetchError, match=r"gave up after 0.5 s \(DECKCHECK_DOWNLOAD_DEADLINE\)"):
        import_pool(db, "digibattle", dripping_server, retries=0)
    assert time.monotonic() - started < 5
    assert count(db, "digibattle") == 0


def test_a_bad_deadline_setting_is_a_message(monkeypatch):
    monkeypatch.setenv("DECKCHECK_DOWNLOAD_DEADLINE", "soon")
    with pytest.raises(FetchError, match="not a number of seconds"):
        fetch("http://127.0.0.1:9/x")


# -- redirects -------------------------------------------------------------------


def chain(httpserver, hops: int) -> str:
    for hop in range(hops):
        httpserver.expect_request(f"/r{hop}").respond_with_data(
            "", status=302, headers={"Location": f"/r{hop + 1}"}
        )
    httpserver.expect_request(f"/r{hops}").respond_with_data(CSV_HEADER + GOOD_ROW)
    return httpserver.url_for("/r0")


def test_five_redirects_are_followed(db, httpserver):
    assert import_pool(db, "digibattle", chain(httpserver, 5), retries=0) == 1


def test_a_sixth_redirect_is_refused(db, httpserver):
    with pytest.raises(FetchError, match="more than 5 redirects"):
        import_pool(db, "digibattle", chain(httpserver, 6), retries=0)


@pytest.mark.parametrize("target", ["file:///etc/passwd", "ftp://127.0.0.1/cards.csv"])
def test_a_redirect_off_http_is_refused(db, httpserver, target):
    httpserver.expect_request("/x").respond_with_data("", status=301, headers={"Location": target})
    with pytest.raises(FetchError, match="only http\\(s\\) is followed"):
        import_pool(db, "digibattle", httpserver.url_for("/x"), retries=0)


def test_a_refused_connection_is_one_plain_line(db):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(FetchError) as raised:
        import_pool(db, "digibattle", f"http://127.0.0.1:{port}/x", retries=0)
    assert "Connection refused" in str(raised.value) and "object at 0x" not in str(raised.value)
