"""How current each card list is: GET /api/v1/pools, the line on the pages, /about/data,
and the outcome of each sync against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json

import pytest

from deckcheck.schemas import PoolListSchema

LIST_A = [
    {"cardId": "BT1-010", "set": "BT1", "nameEn": "Agumon", "kinds": ["Digimon"], "level": 3},
    {"cardId": "EX2-007", "set": "EX2", "nameEn": "Mother D-Reaper", "kinds": ["Digimon"]},
]
LIST_B = [
    *LIST_A,
    {"cardId": "BT3-092", "set": "BT3", "nameEn": "MaloMyotismon", "kinds": ["Digimon"]},
]


def pools(client) -> dict[str, dict]:
    data = client.get("/api/v1/pools").get_json()
    assert PoolListSchema().validate(data) == {}
    return {entry["game"]: entry for entry in data["data"]}


def test_a_new_database_tells_the_truth(client):
    found = pools(client)
    assert list(found) == ["dcg", "dbe", "digibattle", "dmcg"]
    dcg = found["dcg"]
    assert dcg["cards"] == 4391 and dcg["source"].startswith("shipped with deckcheck")
    assert {"BT26", "EX12", "ST24", "P"} <= set(dcg["newest_sets"])
    assert "BT25" not in dcg["newest_sets"]
    assert dcg["list_date"] == "2026-08-20" and dcg["last_sync"] is None
    assert found["dbe"] == {
        "game": "dbe",
        "cards": 0,
        "newest_sets": [],
        "source": None,
        "imported_at": None,
        "list_date": None,
        "last_sync": None,
        "added": [],
    }


def test_each_sync_is_recorded_and_a_failure_keeps_the_pool(app, client, httpserver):
    app.config["SYNC_URLS"] = {"dcg": httpserver.url_for("/cards.json")}
    runner = app.test_cli_runner()
    httpserver.expect_oneshot_request("/cards.json").respond_with_data(
        json.dumps(LIST_A), headers={"ETag": '"a"'}
    )
    assert "dcg: imported 2 cards" in runner.invoke(args=["cardpool", "sync", "dcg"]).output
    dcg = pools(client)["dcg"]
    assert dcg["cards"] == 2 and dcg["newest_sets"] == ["BT1", "EX2"]
    assert dcg["last_sync"]["result"] == "ok" and dcg["source"] == app.config["SYNC_URLS"]["dcg"]

    httpserver.expect_oneshot_request(
        "/cards.json", headers={"If-None-Match": '"a"'}
    ).respond_with_data("", status=304)
    assert "unchanged" in runner.invoke(args=["cardpool", "sync", "dcg"]).output
    assert pools(client)["dcg"]["last_sync"]["result"] == "unchanged"

    httpserver.expect_request("/cards.json").respond_with_data("gone", status=404)
    result = runner.invoke(args=["cardpool", "sync", "dcg"])
    assert result.exit_code == 1
    dcg = pools(client)["dcg"]
    assert dcg["cards"] == 2 and dcg["last_sync"]["result"] == "failed"
    assert "HTTP 404" in dcg["last_sync"]["message"]
    line = client.get("/").get_data(as_text=True)
    assert "Card list: 2 DCG cards, newest BT1 / EX2" in line and "failed" in line


def test_a_failed_list_sync_shows_beside_the_card_sync(app, client, httpserver):
    """Issue 32: `cardpool lists sync` recorded its outcome, but /api/v1/pools never said."""
    lists = client.get("/api/v1/formats/dcg/lists").get_json()
    shipped = pools(client)["dcg"]["lists"]
    assert shipped["source"].startswith("shipped with deckcheck") and shipped["last_sync"] is None
    assert shipped["changes"] == len(lists["changes"]) and shipped["updated"] == lists["updated"]
    app.config["LISTS_URL"] = httpserver.url_for("/lists.json")
    runner = app.test_cli_runner()
    httpserver.expect_oneshot_request("/lists.json").respond_with_data(json.dumps(lists))
    assert runner.invoke(args=["cardpool", "lists", "sync"]).exit_code == 0
    synced = pools(client)["dcg"]["lists"]
    assert synced["last_sync"]["result"] == "ok" and synced["source"] == app.config["LISTS_URL"]

    httpserver.expect_request("/lists.json").respond_with_data('{"changes": [', status=200)
    assert runner.invoke(args=["cardpool", "lists", "sync"]).exit_code == 1
    dcg = pools(client)["dcg"]
    assert dcg["lists"]["last_sync"]["result"] == "failed"
    assert "not valid JSON" in dcg["lists"]["last_sync"]["message"]
    assert dcg["lists"]["source"] == app.config["LISTS_URL"]  # the history kept serving
    assert dcg["last_sync"] is None  # the card list's own sync is another line
    assert "lists" not in pools(client)["dmcg"]


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("/", "Card list: 4,391 DCG cards, newest BT26 / EX12, updated 2026-08-20"),
        ("/cards?game=dcg", "Card list: 4,391 DCG cards"),
        ("/cards?game=dmcg", "Card list: 60 Digital Monster Card Game cards"),
        ("/about/data", "Copyright (c) 2026 Vinícius Luiz"),
        ("/about/data", "no card text and no images"),
    ],
)
def test_the_pages_say_how_current_the_list_is(client, path, says):
    page = client.get(path).get_data(as_text=True)
    assert says in page


def test_the_report_says_it_for_its_game(client):
    page = client.post("/report", data={"format": "dcg", "decklist": "4 EX9-013"}).get_data(
        as_text=True
    )
    assert "Card list: 4,391 DCG cards" in page and "Digi-Battle cards" not in page
