"""gunicorn's own error answers, made before the app sees a request, are JSON on /api/
(issue 32: a too-long address or a bad header got gunicorn's HTML page there). Against
the real production server: gunicorn -c gunicorn.conf.py, one worker."""

from __future__ import annotations

import json
import socket

import pytest
import requests
from production_server import serving

APP = "from deckcheck import create_app\n\napp = create_app()\n"
LONG = "x" * 9_000  # past limit_request_line (8,190)


@pytest.fixture(scope="module")
def production(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("server-errors"), "plainapp", APP, 30) as (base, _):
        yield base


def raw(base: str, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """(status, headers, body) of one request sent as these bytes."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(request)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


def json_error(response_headers: dict, body: bytes) -> dict:
    assert response_headers["Content-Type"] == "application/json"
    error = json.loads(body)["error"]
    assert set(error) == {"code", "message", "details"}
    return error


def test_a_too_long_address_on_the_api_is_json(production):
    response = requests.get(f"{production}/api/v1/cards?q={LONG}", timeout=10)
    assert response.status_code == 414
    error = json_error(response.headers, response.content)
    assert error["code"] == "uri-too-long" and "8,190 characters" in error["message"]


def test_the_absolute_form_and_a_leading_empty_line_are_read_too(production):
    status, headers, body = raw(
        production, b"\r\nGET http://x/api/v1/cards?q=" + LONG.encode() + b" HTTP/1.1\r\n\r\n"
    )
    assert status == 414 and json_error(headers, body)["code"] == "uri-too-long"


@pytest.mark.parametrize(
    ("header", "status", "code"),
    [
        (b"Bad Name: x", 400, "bad-request"),
        (b"X-Long: " + b"y" * 9_000, 431, "headers-too-large"),
    ],
    ids=["bad-header", "long-header"],
)
def test_a_header_gunicorn_refuses_on_the_api_is_json(production, header, status, code):
    got, headers, body = raw(
        production, b"GET /api/v1/health HTTP/1.1\r\nHost: x\r\n" + header + b"\r\n\r\n"
    )
    assert got == status and json_error(headers, body)["code"] == code


def test_pages_keep_gunicorns_page(production):
    response = requests.get(f"{production}/cards?q={LONG}", timeout=10)
    assert response.status_code == 414 and response.headers["Content-Type"] == "text/html"
    status, headers, _ = raw(production, b"GET /cards HTTP/1.1\r\nHost: x\r\nBad Name: x\r\n\r\n")
    assert status == 400 and headers["Content-Type"] == "text/html"


def test_the_api_still_answers(production):
    assert requests.get(f"{production}/api/v1/health", timeout=10).json()["status"] == "ok"
