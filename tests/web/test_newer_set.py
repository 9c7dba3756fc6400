"""A card number of a set newer than the card list says so, with the list's own date."""


def test_a_newer_set_names_the_list_date_not_the_import_day(client):
    """The shipped list is of its own day; loading it today does not make it today's."""
    pools = {p["game"]: p for p in client.get("/api/v1/pools").get_json()["data"]}
    shipped = pools["dcg"]["list_date"]
    assert shipped and shipped < pools["dcg"]["imported_at"][:10]
    body = {"format": "dcg", "decklist": "4 EX99-001\n4 EX9-013"}
    report = client.post("/api/v1/decks/validate", json=body).get_json()
    (unknown,) = [v for v in report["violations"] if v["code"] == "unknown-card"]
    assert unknown["hint"] == "newer-set"
    assert f"(list updated {shipped})" in unknown["message"]
    assert "EX99-001 is not in this card list yet" in unknown["message"]


def test_a_server_builds_its_card_indexes_as_it_starts(tmp_path):
    """Not on the first player's request: a 4,000-card index takes a noticeable moment."""
    from deckcheck import create_app
    from rules.games import GAME_IDS

    app = create_app(
        {
            "DATABASE": str(tmp_path / "cards.db"),
            "EVENTS_DATABASE": str(tmp_path / "events.db"),
            "FORMATS_DIR": str(tmp_path / "formats"),
        }
    )
    built = app.extensions["deckcheck.pools"]._indexes
    assert sorted(built) == sorted(GAME_IDS)
    assert len(built["dcg"][1]) > 4000


def test_the_report_says_the_list_may_be_behind(client):
    page = client.post("/report", data={"format": "dcg", "decklist": "4 EX99-001\n4 EX9-013"})
    assert page.status_code == 200
    assert b'id="list-behind"' in page.data and b"a line names a card of a set newer" in page.data
    typo = client.post("/report", data={"format": "dcg", "decklist": "4 Agumonn\n4 EX9-013"})
    assert b'id="list-behind"' not in typo.data
