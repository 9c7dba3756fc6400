"""A redirect werkzeug's routing makes by itself is never built from the request's Host
(issue 40): `/static//style.css` with `Host: evil.example` got
`Location: http://evil.example/static/style.css`. Sent over a real socket, as an
attacker (or a cache in front) would."""

from __future__ import annotations

import http.client
from urllib.parse import urlsplit

import pytest
from conftest import new_app
from served import served


def _get(base: str, path: str, host: str) -> http.client.HTTPResponse:
    address = urlsplit(base)
    conn = http.client.HTTPConnection(address.hostname, address.port, timeout=10)
    conn.putrequest("GET", path, skip_host=True)
    conn.putheader("Host", host)
    conn.endheaders()
    response = conn.getresponse()
    response.read()
    conn.close()
    return response


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        ("", "/static/style.css"),
        ("https://deckcheck.example", "https://deckcheck.example/static/style.css"),
    ],
    ids=["relative", "base-url"],
)
@pytest.mark.parametrize("path", ["/static//style.css", "//static//style.css"])
def test_a_merged_slashes_redirect_is_not_built_from_host(
    tmp_path, cards_db, setting, expected, path
):
    app = new_app(tmp_path, BASE_URL=setting)
    with served(app) as base:
        response = _get(base, path, "evil.example")
    location = response.getheader("Location")
    assert response.status == 308 and location == expected, (response.status, location)


def test_the_query_is_kept_and_the_host_left_out(tmp_path, cards_db):
    with served(new_app(tmp_path)) as base:
        response = _get(base, "/api/v1//health?x=1", "evil.example:8080")
    assert response.status == 308
    assert response.getheader("Location") == "/api/v1/health?x=1"
