"""`flask cardpool add`: one product's cards merged in, all or nothing (issue 43)."""

import json
import time

from cardpool.db import connect

# Test-only cards: invented names for EX-13 numbers, never shipped (the product ships
# real cards only). One Digi-Egg, one Digimon, one of the promos that came with EX-13.
EX13_CSV = (
    "number,name,kind,level,types\n"
    "EX13-001,Testmon Egg (test only),digi-egg,2,Red\n"
    "EX13-010,Testmon (test only),digimon,4,Red\n"
    "P-246,Test Option (test only),option,,Red\n"
)
EX13_JSON = [
    {"cardId": "EX13-002", "set": "EX13", "nameEn": "Jsonmon (test only)", "kinds": ["Digimon"],
     "colors": ["Blue"], "level": 3, "playCost": 3, "dp": 3000, "maxCountInDeck": 4},
]  # fmt: skip
DAY = "2026-12-04"
DECK = "Digi-Egg deck:\n4 BT1-001\n1 EX13-001\nMain deck:\n42 BT11-061\n4 EX13-010\n4 P-246"


def add(runner, source, *more):
    return runner.invoke(args=["cardpool", "add", "dcg", source, *more])


def pools(client):
    return {p["game"]: p for p in client.get("/api/v1/pools").get_json()["data"]}


def validate(client, text=DECK):
    body = {"format": "dcg", "decklist": text, "date": DAY}
    return client.post("/api/v1/decks/validate", json=body).get_json()


def served(client, verdict, text=DECK):
    """The service reads a changed pool within a second (deckcheck.db.PoolCache)."""
    for _ in range(40):
        report = validate(client, text)
        if report["verdict"] == verdict:
            return report
        time.sleep(0.1)
    raise AssertionError(f"never {verdict}: {report['violations']}")


def test_add_from_a_url_merges_the_product_and_lists_it(runner, client, httpserver):
    httpserver.expect_request("/ex13.csv").respond_with_data(EX13_CSV)
    before = pools(client)["dcg"]["cards"]
    result = add(runner, httpserver.url_for("/ex13.csv"))
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == "added 3 cards"
    dcg = pools(client)["dcg"]
    assert dcg["cards"] == before + 3
    assert dcg["added"] == [
        {"product": "EX13", "source": httpserver.url_for("/ex13.csv"), "cards": 3,
         "added_at": dcg["added"][0]["added_at"]}
    ]  # fmt: skip
    assert "shipped with deckcheck" in dcg["source"]  # the rest of the list is as it was
    assert served(client, "legal")["legal"] is True


def test_the_community_json_shape_adds_too(runner, client, tmp_path):
    source = tmp_path / "ex13.json"
    source.write_text(json.dumps(EX13_JSON))
    result = add(runner, str(source))
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == "added 1 cards"
    card = client.get("/api/v1/cards/dcg/EX13-002").get_json()
    assert card["name"] == "Jsonmon (test only)"


def test_held_cards_are_kept_unless_replace(runner, client, tmp_path):
    source = tmp_path / "mixed.csv"
    source.write_text("number,name,kind,level\nBT1-010,Not Agumon (test only),digimon,3\n")
    kept = add(runner, str(source))
    assert kept.exit_code == 0 and kept.output.strip().splitlines()[-1] == "added 0 cards"
    assert client.get("/api/v1/cards/dcg/BT1-010").get_json()["name"] == "Agumon"
    replaced = add(runner, str(source), "--replace")
    assert replaced.output.strip().splitlines()[-1] == "added 1 cards"
    with connect(runner.app.config["DATABASE"]) as db:
        (name,) = db.execute("SELECT name FROM cards WHERE number = 'BT1-010'").fetchone()
    assert name == "Not Agumon (test only)"


def test_a_bad_file_changes_nothing(runner, client, tmp_path):
    before = pools(client)["dcg"]
    source = tmp_path / "bad.csv"
    source.write_text(EX13_CSV + "EX13-011,Broken,not-a-kind,4,Red\n")
    result = add(runner, str(source))
    assert result.exit_code != 0 and "add failed, nothing changed" in result.output
    after = pools(client)["dcg"]
    assert after["cards"] == before["cards"] and after["added"] == []
    assert served(client, "unconfirmed")["legal"] is False


def test_an_import_keeps_added_cards_until_it_holds_their_numbers(runner, client, tmp_path):
    source = tmp_path / "ex13.csv"
    source.write_text(EX13_CSV)
    assert add(runner, str(source)).exit_code == 0
    # An import of a list without EX-13 keeps the added product.
    plain = tmp_path / "plain.csv"
    plain.write_text("number,name,kind,level\nBT1-010,Agumon,digimon,3\n")
    assert runner.invoke(args=["cardpool", "import", "dcg", str(plain)]).exit_code == 0
    dcg = pools(client)["dcg"]
    assert dcg["cards"] == 4 and [a["product"] for a in dcg["added"]] == ["EX13"]
    # A list holding the same numbers takes their place.
    whole = tmp_path / "whole.csv"
    whole.write_text(EX13_CSV.replace("(test only)", "(upstream; test only)"))
    assert runner.invoke(args=["cardpool", "import", "dcg", str(whole)]).exit_code == 0
    dcg = pools(client)["dcg"]
    assert dcg["cards"] == 3 and dcg["added"] == []
    card = client.get("/api/v1/cards/dcg/EX13-010").get_json()
    assert card["name"] == "Testmon (upstream; test only)"


def test_a_saved_deck_with_an_ex13_egg_is_judged_by_the_rules_after_add(runner, client, tmp_path):
    """Issue 43, "Done when": saved before (its EX-13 Digi-Egg under its egg header), it
    can't be confirmed; after `cardpool add` the rules judge it, with the same fingerprint."""
    saved = client.post("/api/v1/decks", json={"format": "dcg", "decklist": DECK}).get_json()
    deck = saved["deck"]
    assert deck["verdict"] == "unconfirmed" and deck["legal"] is False
    eggs = {c["number"]: c for c in deck["sections"]["eggs"]["cards"]}
    assert eggs["EX13-001"]["confirmed"] is False and deck["sections"]["eggs"]["count"] == 5
    before = validate(client)
    assert before["verdict"] == "unconfirmed"
    source = tmp_path / "ex13.csv"
    source.write_text(EX13_CSV)
    assert add(runner, str(source)).exit_code == 0
    after = served(client, "legal")
    assert after["deck"]["fingerprint"] == before["deck"]["fingerprint"]
    assert after["deck"]["fingerprint"] == deck["fingerprint"]
    for _ in range(40):
        now = client.get(f"/api/v1/decks/{deck['id']}").get_json()
        if now["verdict"] == "legal":
            break
        time.sleep(0.1)
    assert now["verdict"] == "legal" and now["legal"] is True
    assert now["fingerprint"] == deck["fingerprint"]
    eggs = {c["number"]: c for c in now["sections"]["eggs"]["cards"]}
    assert eggs["EX13-001"]["name"] == "Testmon Egg (test only)"
