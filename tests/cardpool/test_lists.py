"""List histories updated without a release: `cardpool lists import / sync / show`, checked
whole, swapped in all or nothing, served by a running app within a second, and shown as
JSON (GET /api/v1/formats/dcg/lists) and as an Atom feed."""

from __future__ import annotations

import copy
import json
import time
import xml.etree.ElementTree as ET
from datetime import UTC, date, datetime

import pytest

from rules.lists import change_from_dict, shipped_raw

ST1 = {
    "main": [
        {"card": "ST1-02", "count": 4},
        {"card": "ST1-03", "count": 4},
        {"card": "BT1-010", "count": 4},
    ]
}
NEW_CHANGE = {
    "effective": "2026-05-01",
    "announced": "2026-04-20",
    "limits": [{"card": "BT1-010", "name": "Agumon", "status": "restricted"}],
    "choice_restrictions": [],
    "sources": ["test: an announcement made up for this test"],
}
ATOM = "{http://www.w3.org/2005/Atom}"
# The shipped history's length: a test's own change is the one after it.
N = len(shipped_raw()["changes"])


def history(*extra: dict) -> dict:
    raw = copy.deepcopy(shipped_raw())
    raw["changes"].extend(copy.deepcopy(list(extra)))
    return raw


def write(tmp_path, raw, name="lists.json"):
    path = tmp_path / name
    path.write_text(raw if isinstance(raw, str) else json.dumps(raw))
    return str(path)


def restricted(client, day="2026-06-01"):
    body = {"format": "dcg", "date": day, "deck": ST1}
    data = client.post("/api/v1/decks/validate", json=body).get_json()
    return [v for v in data["violations"] if v["code"] == "restricted"]


def test_an_import_reaches_a_running_app_within_a_second(app, client, runner, tmp_path):
    assert restricted(client) == []  # the app is up and has its formats cached
    result = runner.invoke(
        args=["cardpool", "lists", "import", "dcg", write(tmp_path, history(NEW_CHANGE))]
    )
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == f"imported {N + 1} list changes for dcg"
    deadline = time.monotonic() + 3
    while not restricted(client) and time.monotonic() < deadline:
        time.sleep(0.1)
    [violation] = restricted(client)
    assert violation["cards"] == ["BT1-010"] and "2026-05-01" in violation["message"]
    assert restricted(client, "2026-04-30") == []


def test_show_names_the_current_and_the_previous_history(runner, tmp_path):
    shown = runner.invoke(args=["cardpool", "lists", "show", "dcg"]).output
    assert "current:  shipped with deckcheck (rules/data/dcg_lists.json)" in shown
    assert "previous: none" in shown
    first = write(tmp_path, history(NEW_CHANGE), "first.json")
    second = write(tmp_path, history(NEW_CHANGE, {**NEW_CHANGE, "effective": "2026-06-01"}))
    assert runner.invoke(args=["cardpool", "lists", "import", "dcg", first]).exit_code == 0
    shown = runner.invoke(args=["cardpool", "lists", "show", "dcg"]).output
    assert f"current:  {first}" in shown and "previous: shipped with deckcheck" in shown
    assert runner.invoke(args=["cardpool", "lists", "import", "dcg", second]).exit_code == 0
    shown = runner.invoke(args=["cardpool", "lists", "show", "dcg"]).output
    assert f"current:  {second}" in shown and f"previous: {first}" in shown
    assert f"{N + 2} changes, the latest effective 2026-06-01" in shown


def test_the_api_and_the_format_say_where_the_history_came_from(client, runner, tmp_path):
    shipped = client.get("/api/v1/formats/dcg/lists").get_json()
    assert shipped == shipped_raw()
    source = write(tmp_path, history(NEW_CHANGE))
    assert runner.invoke(args=["cardpool", "lists", "import", "dcg", source]).exit_code == 0
    time.sleep(1.1)  # the format registry looks again at most once a second
    assert client.get("/api/v1/formats/dcg/lists").get_json() == history(NEW_CHANGE)
    detail = client.get("/api/v1/formats/dcg").get_json()
    assert detail["lists_source"] == {"source": source, "updated": date.today().isoformat()}
    page = client.get("/formats/dcg").get_data(as_text=True)
    assert f"List history: {source}, updated" in page


def changed(path: str, value) -> dict:
    """The shipped history with one value replaced (`path`: keys and indexes, dotted)."""
    raw = history(NEW_CHANGE)
    *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
    target = raw
    for part in parents:
        target = target[part]
    target[last] = value
    return raw


def nested(levels: int) -> dict:
    """The shipped history with a kept-and-ignored key, so the file nests `levels` deep."""
    value: object = 1
    for _ in range(levels - 1):
        value = {"a": value}
    return {**history(NEW_CHANGE), "about": value}


DEEP = "nested more than 8 deep (a list history needs 7 levels at most)"
BAD = [
    ("not-json", '{"changes": [', "not valid JSON"),
    # Was a RecursionError traceback from json (issue 32).
    ("deep-lists", '{"changes": ' + "[" * 10_000 + "]" * 10_000 + "}", DEEP),
    ("deep-objects", '{"changes": [' + '{"a": ' * 10_000 + "1" + "}" * 10_000 + "]}", DEEP),
    ("nine-deep", nested(9), DEEP),
    ("no-changes", {"about": "x"}, 'a JSON object with a "changes" list'),
    ("empty", {"changes": []}, '"changes" is empty'),
    ("bad-date", changed(f"changes.{N}.effective", "2026-02-30"), f"changes[{N}]"),
    (
        "out-of-order",
        changed(f"changes.{N}", {**NEW_CHANGE, "effective": "2020-01-01", "announced": None}),
        f"changes[{N}] (effective 2020-01-01): out of order",
    ),
    (
        "announced-after",
        changed(f"changes.{N}.announced", "2026-06-01"),
        f"changes[{N}] (effective 2026-05-01): announced 2026-06-01",
    ),
    (
        "bad-number",
        changed(f"changes.{N}.limits.0.card", "BT1 010"),
        f"changes[{N}] (effective 2026-05-01): limits[0]: 'BT1 010' is not a card number",
    ),
    (
        "bad-status",
        changed(f"changes.{N}.limits.0.status", "limited"),
        "limits[0]: status 'limited' is not one of banned, restricted, unrestricted",
    ),
    (
        "twice",
        changed(
            f"changes.{N}.limits",
            [*NEW_CHANGE["limits"], {**NEW_CHANGE["limits"][0], "status": "banned"}],
        ),
        f"changes[{N}] (effective 2026-05-01): limits[1]: BT1-010 is listed twice in one change "
        "(restricted and banned)",
    ),
    (
        "both-sides",
        changed(
            f"changes.{N}.choice_restrictions",
            [{"a": [{"card": "BT1-010"}], "b": [{"card": "BT1-10"}]}],
        ),
        "choice_restrictions[0]: BT1-10 is on both sides",
    ),
    (
        "ends-before",
        changed(
            f"changes.{N}.choice_restrictions",
            [{"a": [{"card": "BT1-010"}], "b": [{"card": "ST1-03"}], "ends": "2026-01-01"}],
        ),
        "choice_restrictions[0]: ends 2026-01-01, before it takes effect (2026-05-01)",
    ),
]


@pytest.mark.parametrize(("source", "says"), [(b[1], b[2]) for b in BAD], ids=[b[0] for b in BAD])
def test_a_bad_history_changes_nothing_and_names_the_entry(client, runner, tmp_path, source, says):
    good = write(tmp_path, history(NEW_CHANGE), "good.json")
    assert runner.invoke(args=["cardpool", "lists", "import", "dcg", good]).exit_code == 0
    before = client.get("/api/v1/formats/dcg/lists").get_json()
    result = runner.invoke(args=["cardpool", "lists", "import", "dcg", write(tmp_path, source)])
    assert result.exit_code != 0
    assert "lists not imported, nothing changed" in result.output and says in result.output
    assert client.get("/api/v1/formats/dcg/lists").get_json() == before
    shown = runner.invoke(args=["cardpool", "lists", "show", "dcg"]).output
    assert f"current:  {good}" in shown


def test_a_file_eight_deep_is_read(runner, tmp_path):
    result = runner.invoke(args=["cardpool", "lists", "import", "dcg", write(tmp_path, nested(8))])
    assert result.exit_code == 0, result.output


def test_a_deep_file_from_a_url_is_a_failed_sync(app, httpserver):
    body = '{"changes": ' + "[" * 10_000 + "]" * 10_000 + "}"
    httpserver.expect_request("/lists.json").respond_with_data(body)
    app.config["LISTS_URL"] = httpserver.url_for("/lists.json")
    result = app.test_cli_runner().invoke(args=["cardpool", "lists", "sync"])
    assert result.exit_code == 1 and DEEP in result.output, result.output


def test_a_number_the_pool_lacks_is_a_warning(runner, tmp_path):
    extra = {**NEW_CHANGE, "limits": [{"card": "EX13-001", "name": "New", "status": "banned"}]}
    result = runner.invoke(
        args=["cardpool", "lists", "import", "dcg", write(tmp_path, history(extra))]
    )
    assert result.exit_code == 0
    assert (
        f"warning: changes[{N}] (effective 2026-05-01): limits[0]: EX13-001 New is not in the "
        "card list (yet)" in result.output
    )


def test_sync_from_a_url_skips_an_unchanged_history(app, httpserver):
    body = json.dumps(history(NEW_CHANGE))
    httpserver.expect_request("/lists.json").respond_with_data(
        body, headers={"ETag": '"v1"'}, content_type="application/json"
    )
    app.config["LISTS_URL"] = httpserver.url_for("/lists.json")
    runner = app.test_cli_runner()
    first = runner.invoke(args=["cardpool", "lists", "sync"])
    assert first.exit_code == 0 and f"dcg lists: imported {N + 1} changes" in first.output
    httpserver.clear()
    httpserver.expect_request("/lists.json", headers={"If-None-Match": '"v1"'}).respond_with_data(
        "", status=304
    )
    second = runner.invoke(args=["cardpool", "lists", "sync"])
    assert second.exit_code == 0 and "unchanged since the last sync" in second.output


def test_sync_without_a_url_says_so(runner):
    result = runner.invoke(args=["cardpool", "lists", "sync"])
    assert result.exit_code != 0 and "DECKCHECK_LISTS_URL" in result.output


def test_a_choice_restriction_can_end():
    pair = {"a": [{"card": "BT1-010"}], "b": [{"card": "ST1-03"}], "ends": "2026-07-01"}
    change = change_from_dict({**NEW_CHANGE, "limits": [], "choice_restrictions": [pair]})
    from rules.lists import ListHistory

    lists = ListHistory([change])
    assert len(lists.pairs_on(date(2026, 5, 1))) == 1
    assert len(lists.pairs_on(date(2026, 6, 30))) == 1
    assert lists.pairs_on(date(2026, 7, 1)) == []


def test_the_atom_feed_has_one_entry_per_change(client):
    response = client.get("/formats/dcg/changes.atom")
    assert response.status_code == 200 and response.mimetype == "application/atom+xml"
    feed = ET.fromstring(response.data)
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == len(shipped_raw()["changes"])  # the undated change too
    ids = [e.find(f"{ATOM}id").text for e in entries]
    assert len(set(ids)) == len(entries) and not any(" " in i for i in ids)
    undated = [e for e in entries if "date unknown" in e.find(f"{ATOM}title").text]
    assert len(undated) == sum(1 for c in shipped_raw()["changes"] if not c["effective"])
    # The newest is the change known from one source only (issue 43): "reported", never
    # "banned"; the newest rule comes after it.
    reported = entries[0].find(f"{ATOM}title").text
    assert reported.startswith("Reported list change (one source), effective 2026-09-01")
    assert "banned" not in reported and "BT15-003 Nyaromon: reported: no copies" in reported
    newest = entries[1]
    assert "2026-04-04" in newest.find(f"{ATOM}title").text
    content = newest.find(f"{ATOM}content").text
    for text in ("BT3-092 MaloMyotismon: restricted", "Announced: 2026-03-16", "Source: "):
        assert text in content


def test_the_feed_is_never_dated_in_the_future(client, runner, tmp_path):
    """Issue 32: a change effective in 2999 made the feed's <updated> 2999-01-01."""
    far = {**NEW_CHANGE, "effective": "2999-01-01", "announced": None}
    source = write(tmp_path, history(far))
    assert runner.invoke(args=["cardpool", "lists", "import", "dcg", source]).exit_code == 0
    feed = ET.fromstring(client.get("/formats/dcg/changes.atom").data)
    today = datetime.now(UTC).date().isoformat()  # the import's day, in UTC
    # When the lists last changed: today's import.
    assert feed.find(f"{ATOM}updated").text == f"{today}T00:00:00Z"
    entries = feed.findall(f"{ATOM}entry")
    assert "2999-01-01" in entries[0].find(f"{ATOM}title").text
    assert all(e.find(f"{ATOM}updated").text <= f"{today}T00:00:00Z" for e in entries)
