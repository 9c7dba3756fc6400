"""Unconfirmed verdicts and products by date through the API (issue 43)."""

DECK = "Digi-Egg deck:\n4 BT1-001\n1 EX13-001\nMain deck:\n42 BT11-061\n4 EX13-010\n4 P-246"
DAY = "2026-12-04"


def validate(client, text, day=DAY):
    body = {"format": "dcg", "decklist": text, "date": day}
    response = client.post("/api/v1/decks/validate", json=body)
    assert response.status_code == 200, response.data
    return response.get_json()


def test_an_ex13_deck_today_is_unconfirmed(client):
    report = validate(client, DECK)
    assert report["legal"] is False and report["verdict"] == "unconfirmed"
    first = report["violations"][0]
    assert (first["code"], first["hint"]) == ("unknown-card", "newer-set")
    assert (first["product"], first["released"]) == ("EX13", "2026-10-02")
    assert "EX13-001 is from EX-13, out 2026-10-02; this card list ends at EX12" in first["message"]
    eggs = report["deck"]["sections"]["eggs"]
    assert eggs["count"] == 5
    (unconfirmed,) = [c for c in eggs["cards"] if c["number"] == "EX13-001"]
    assert unconfirmed["confirmed"] is False and unconfirmed["name"] is None
    assert report["deck"]["sections"]["main"]["count"] == 50


def test_numbers_written_with_the_products_hyphen_read_as_printed(client):
    """Products are written EX-13 and BT-27, so players write `EX-13-001`: the same
    card, the same verdict, the same fingerprint as `EX13-001` (it once read as a name:
    an unknown card and a short deck, "illegal")."""
    hyphened = DECK.replace("EX13-", "EX-13-")
    report, printed = validate(client, hyphened), validate(client, DECK)
    assert report["verdict"] == "unconfirmed"
    assert report["deck"]["fingerprint"] == printed["deck"]["fingerprint"]
    assert report["violations"] == printed["violations"]
    main = [{"card": "BT11-061", "count": 46}, {"card": "EX-13-010", "count": 4}]
    structured = {"format": "dcg", "date": DAY, "deck": {"main": main}}
    answer = client.post("/api/v1/decks/validate", json=structured).get_json()
    assert answer["verdict"] == "unconfirmed"
    assert [v["cards"] for v in answer["violations"]] == [["EX13-010"]]


def test_a_typo_stays_illegal_and_a_legal_deck_says_legal(client):
    typo = validate(client, DECK.replace("EX13-010", "XX9-999"))
    assert typo["verdict"] == "illegal"
    legal = validate(client, "Digi-Egg deck:\n4 BT1-001\nMain deck:\n46 BT11-061\n4 BT1-010")
    assert legal["legal"] is True and legal["verdict"] == "legal"


def test_batch_results_carry_the_verdict(client):
    body = {"format": "dcg", "date": DAY, "decks": [{"id": "a", "decklist": DECK}]}
    (result,) = client.post("/api/v1/decks/validate-batch", json=body).get_json()["results"]
    assert result["verdict"] == "unconfirmed" and result["legal"] is False


def test_an_ex14_card_before_its_day_is_not_released(client):
    report = validate(client, "Main deck:\n46 BT11-061\n4 EX14-001")
    assert [v["code"] for v in report["violations"]] == ["not-released"]
    assert "2027-01-22" in report["violations"][0]["message"]
    assert report["verdict"] == "illegal"


def test_the_products_list_every_product_by_date(client):
    data = client.get("/api/v1/formats/dcg/products").get_json()["data"]
    by_code = {p["code"]: p for p in data}
    ex13 = by_code["EX13"]
    assert ex13["released"] == "2026-10-02" and ex13["numbers"] == ["EX13-*", "P-245..P-250"]
    assert ex13["cards_known"] == 0 and ex13["source"]
    assert by_code["BT26"]["cards_known"] > 100
    assert by_code["BT27"]["released"] is None and by_code["BT27"]["announced"] is True
    assert by_code["EX14"]["released"] == "2027-01-22"
    assert by_code["BT28"]["released"] == "2027-03-12"
    assert {"LM8", "LM9", "PB24"} <= set(by_code)


def test_the_report_page_says_cant_confirm_and_what_to_do(client):
    page = client.post("/report", data={"format": "dcg", "decklist": DECK, "date": DAY})
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "Can&#39;t confirm" in text and "Not legal" not in text
    assert "Can&#39;t confirm: EX-13 came out 2026-10-02; this card list ends at EX12" in text
    assert "flask cardpool add dcg" in text
    typo = client.post("/report", data={"format": "dcg", "decklist": "4 XX9-999", "date": DAY})
    assert "Not legal" in typo.get_data(as_text=True)


def test_a_quick_event_says_cant_confirm_for_an_ex13_list(client):
    pasted = f"=== Ann ===\n{DECK}\n=== Bo ===\n{DECK.replace('EX13-010', 'XX9-999')}"
    page = client.post("/event", data={"format": "dcg", "pasted": pasted, "date": DAY})
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "can&#39;t confirm" in text and "not legal" in text


def test_the_format_page_tells_released_from_announced_products(client):
    page = client.get("/formats/dcg").get_data(as_text=True)
    assert "newest EX13 on 2026-10-02" in page
    assert "announced: EX14 for 2027-01-22, BT28 for 2027-03-12" in page
    assert 'href="/api/v1/formats/dcg/products"' in page


def test_saved_deck_lookups_carry_the_verdict(client):
    """The lookup line of a saved deck says legal / illegal / unconfirmed beside `legal`,
    from the verdict it stored (no judging again when its world is current)."""
    legal = "Digi-Egg deck:\n4 BT1-001\nMain deck:\n46 BT11-061\n4 BT1-010"
    ids = {}
    for name, text in (("new", DECK), ("typo", DECK.replace("EX13-010", "XX9-999")), ("ok", legal)):
        saved = client.post("/api/v1/decks", json={"format": "dcg", "decklist": text})
        assert saved.status_code == 201, saved.data
        ids[name] = saved.get_json()["deck"]["id"]
    answer = client.post("/api/v1/decks/lookup", json={"ids": list(ids.values())}).get_json()
    by_id = {line["id"]: line for line in answer["data"]}
    got = {name: (by_id[i]["legal"], by_id[i]["verdict"]) for name, i in ids.items()}
    assert got == {
        "new": (False, "unconfirmed"),
        "typo": (False, "illegal"),
        "ok": (True, "legal"),
    }


def test_a_saved_decks_versions_carry_the_verdict_they_were_saved_with(client):
    saved = client.post("/api/v1/decks", json={"format": "dcg", "decklist": DECK}).get_json()
    deck_id, token = saved["deck"]["id"], saved["edit_token"]
    typo = {"decklist": DECK.replace("EX13-010", "XX9-999")}
    headers = {"Authorization": f"Bearer {token}"}
    assert client.put(f"/api/v1/decks/{deck_id}", json=typo, headers=headers).status_code == 200
    listed = client.get(f"/api/v1/decks/{deck_id}/versions").get_json()["data"]
    assert [(v["legal"], v["verdict"]) for v in listed] == [
        (False, "unconfirmed"),
        (False, "illegal"),
    ]
    first = client.get(f"/api/v1/decks/{deck_id}/versions/1").get_json()
    assert first["verdict"] == "unconfirmed"
