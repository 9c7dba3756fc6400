"""`GET /api/v1/cards` over the query language of the contract ("Card search syntax"),
on the full shared pools; and the card browser answering the same as the API."""

from __future__ import annotations

import re

import pytest

from cardpool.search import natural_key, tokenize


def numbers(client, query: str, game: str = "dcg", **params) -> list[str]:
    response = client.get("/api/v1/cards", query_string={"game": game, "q": query, **params})
    assert response.status_code == 200, response.get_json()
    return [card["number"] for card in response.get_json()["data"]]


def cards(client, query: str, game: str = "dcg", **params) -> list[dict]:
    params = {"game": game, "q": query, "per_page": 200, **params}
    return client.get("/api/v1/cards", query_string=params).get_json()["data"]


@pytest.mark.parametrize(
    ("query", "wanted"),
    [
        ("greymon", {"BT1-015", "BT1-021", "BT1-025"}),  # Greymon, MetalGreymon, WarGreymon
        ("metal greymon", {"BT1-021"}),
        ('"x antibody"', {"BT9-008"}),
        ("BT1-01", {"BT1-010", "BT1-015"}),
        ("bt1-10", {"BT1-010"}),
        ("BT1-010_P1", {"BT1-010"}),
    ],
)
def test_words_phrases_and_numbers(full_client, query, wanted):
    assert wanted <= set(numbers(full_client, query, per_page=200))


def test_all_words_must_match(full_client):
    found = cards(full_client, "metal greymon")
    assert found and all(
        "metal" in c["name"].lower() and "greymon" in c["name"].lower() for c in found
    )


def test_dmcg_number_prefix(full_client):
    found = numbers(full_client, "St-1", game="dmcg", per_page=200)
    assert found[0] == "St-1" and all(n.upper().startswith("ST-1") for n in found)


@pytest.mark.parametrize(
    ("query", "holds"),
    [
        ("k:tamer", lambda c: c["kind"] == "tamer"),
        ("kind:option", lambda c: c["kind"] == "option"),
        ("lv:6", lambda c: c["level"] == "6"),
        ("lv>=5", lambda c: int(c["level"]) >= 5),
        ("level<4", lambda c: int(c["level"]) < 4),
        ("c:red", lambda c: "Red" in c["colors"]),
        ("c:red c:blue", lambda c: {"Red", "Blue"} <= set(c["colors"])),
        ("t:vaccine", lambda c: any("vaccine" in t.lower() for t in c["traits"])),
        ('t:"royal knight"', lambda c: any("royal knight" in t.lower() for t in c["traits"])),
        ("cost<=3 k:digimon", lambda c: c["cost"] is not None and c["cost"] <= 3),
        ("pc=5", lambda c: c["cost"] == 5),
        ("dp>=7000", lambda c: c["dp"] >= 7000),
        ("set:EX9", lambda c: c["number"].startswith("EX9-")),
        ("-k:digimon set:BT1", lambda c: c["kind"] != "digimon" and c["number"].startswith("BT1-")),
        ("greymon -metal", lambda c: "metal" not in c["name"].lower()),
    ],
)
def test_keyed_terms(full_client, query, holds):
    found = cards(full_client, query)
    assert found and all(holds(c) for c in found)


def test_level_words_in_other_games(full_client):
    assert all(c["level"] == "III" for c in cards(full_client, "lv:III", game="dmcg"))
    assert all(c["level"] == "rookie" for c in cards(full_client, "lv:rookie", game="digibattle"))
    assert {c["level"] for c in cards(full_client, "lv:3", game="dmcg")} == {"III"}


def test_colour_or_type_in_other_games(full_client):
    found = cards(full_client, "c:vaccine", game="dmcg")
    assert found and all("Vaccine" in c["types"] for c in found)


def test_set_in_digibattle(full_client):
    found = cards(full_client, "set:BO", game="digibattle")
    assert found and all(c["number"].startswith("BO-") for c in found)


def test_is_banned_and_restricted_follow_the_date(full_client):
    restricted = numbers(full_client, "is:restricted", date="2025-01-01", per_page=200)
    assert "ST2-13" in restricted
    assert "ST2-13" not in numbers(full_client, "is:restricted", date="2024-01-01", per_page=200)
    for card in cards(full_client, "is:banned"):
        assert any(limit["status"] == "banned" for limit in card["limits"])


def test_number_order_is_natural(full_client):
    found = numbers(full_client, "set:BT1", per_page=200)
    assert found.index("BT1-002") < found.index("BT1-010") < found.index("BT1-100")
    every = numbers(full_client, "", per_page=200, page=3)
    assert every == sorted(every, key=natural_key)
    bt = [c for c in numbers(full_client, "agumon", per_page=200) if c.startswith("BT")]
    set_numbers = [int(re.match(r"BT(\d+)", n).group(1)) for n in bt]
    assert set_numbers == sorted(set_numbers)


@pytest.mark.parametrize(
    ("order", "key"),
    [
        ("name", lambda c: c["name"].casefold()),
        ("level", lambda c: int(c["level"])),
        ("cost", lambda c: c["cost"]),
    ],
)
def test_other_orders(full_client, order, key):
    found = cards(full_client, "k:digimon set:BT1", order=order)
    assert len(found) > 20 and [key(c) for c in found] == sorted(key(c) for c in found)


def test_did_you_mean(full_client):
    body = full_client.get("/api/v1/cards?game=dcg&q=metl+greymon").get_json()
    assert body["total"] == 0 and body["did_you_mean"]
    assert numbers(full_client, body["did_you_mean"])
    assert "did_you_mean" not in full_client.get("/api/v1/cards?game=dcg&q=agumon").get_json()


@pytest.mark.parametrize(
    ("query", "term"),
    [
        ("agumon foo:bar", "foo:bar"),
        ("k>3", "k>3"),
        ("c<red", "c<red"),
        ("lv>=rookie", "lv>=rookie"),
        ("cost:cheap", "cost:cheap"),
        ("is:legal", "is:legal"),
        ("k:", "k:"),
        ("lv!=3", "lv!=3"),
    ],
)
def test_bad_query_names_the_term(full_client, query, term):
    response = full_client.get("/api/v1/cards", query_string={"game": "dcg", "q": query})
    body = response.get_json()
    assert response.status_code == 422 and body["error"]["code"] == "bad-query"
    assert body["error"]["details"]["term"] == term and term in body["error"]["message"]


def test_other_bad_parameters(full_client):
    assert full_client.get("/api/v1/cards?order=price").status_code == 422
    assert full_client.get("/api/v1/cards?q=" + "a" * 201).status_code == 422
    assert full_client.get("/api/v1/cards?date=yesterday").status_code == 422


def test_two_colours_both_kept(full_client):
    both = cards(full_client, "", color=["Blue", "Black"])
    assert both and all({"Blue", "Black"} <= set(c["colors"]) for c in both)
    assert len(both) < len(cards(full_client, "", color=["Blue"]))


def test_card_objects_carry_what_the_list_has(full_client):
    card = full_client.get("/api/v1/cards/dcg/BT1-010").get_json()
    assert card["colors"] == ["Red"] and card["cost"] == 3 and card["dp"] == 2000
    assert "Vaccine" in card["traits"] and card["name_ja"] and "[On Play]" in card["text"]
    assert isinstance(card["limits"], list)
    restricted = full_client.get("/api/v1/cards/dcg/ST2-13").get_json()
    assert [limit["status"] for limit in restricted["limits"]] == ["restricted"]


@pytest.mark.parametrize("order", ["number", "relevance"])
def test_browser_and_api_agree(full_client, order):
    # In the same order (the page's default is relevance, the API's number: the page
    # lists as the builder does, the API keeps the contract's default).
    for query in ["greymon", "k:tamer c:red", "lv>=6 -c:red", "bt1-1", "metl greymon"]:
        params = {"game": "dcg", "q": query, "per_page": 50, "order": order}
        api = [
            c["number"]
            for c in full_client.get("/api/v1/cards", query_string=params).get_json()["data"]
        ]
        page = full_client.get("/cards", query_string=params).get_data(as_text=True)
        shown = re.findall(r'<tr data-number="([^"]+)"', page)
        assert shown == api
    page = full_client.get("/cards", query_string={"q": "foo:bar"})
    assert page.status_code == 422 and "no search key" in page.get_data(as_text=True)


def test_tokenizer_is_linear_on_its_worst_case():
    # Unclosed quotes, operators and dashes everywhere: one pass, capped at 200 characters.
    for text in ['"' * 10_000, "-" * 10_000, "a:" * 5_000, 'lv>="' * 2_000, "x " * 50_000]:
        try:
            terms = tokenize(text)
        except ValueError:
            continue
        assert sum(len(t.text) for t in terms) <= 200


# ---------------------------------------------------------------- relevance, text, limits


def test_relevance_puts_the_card_named_exactly_first(full_client):
    found = cards(full_client, "agumon", order="relevance")
    named = [c for c in found if c["name"] == "Agumon"]
    assert found[: len(named)] == named and named[0]["number"] == "BT1-010"
    assert found[0]["kind"] == "digimon"
    # Number order puts "Marcus Damon & Agumon" (AD1-021), a Tamer, first.
    assert cards(full_client, "agumon")[0]["number"] == "AD1-021"


def relevance_table():
    from cardpool.search import build_table

    names = [
        ("AD1-021", "Marcus Damon & Agumon"),  # a word of the name
        ("BT1-001", "ToyAgumon"),  # inside a compound name
        ("BT1-002", "Agumon Expert"),  # the name starts with the query
        ("BT1-010", "Agumon"),  # the name itself
        ("BT1-011", "Agumon"),
        ("BT1-012", "Gabumon"),  # matched by its trait only
    ]
    rows = [
        {"game": "dcg", "key": n, "number": n, "name": name, "aliases": "", "name_ja": "",
         "types": "", "colors": "", "traits": ";Agumon Fan;" if name == "Gabumon" else "",
         "kind": "digimon", "level": "3", "play_cost": 3, "dp": 2000, "set_name": "",
         "text": "When this Digimon is played, draw 1." if name == "Gabumon" else None}
        for n, name in names
    ]  # fmt: skip
    return build_table("dcg", rows)


def test_relevance_order_of_each_kind_of_match():
    from cardpool.search import relevance, tokenize

    table = relevance_table()
    score = relevance(table, tokenize("agumon"))
    ranked = sorted(range(len(table.rows)), key=lambda i: (score(i), i))
    assert [table.rows[i]["number"] for i in ranked] == [
        "BT1-010", "BT1-011", "BT1-002", "AD1-021", "BT1-001", "BT1-012",
    ]  # fmt: skip
    assert [score(i) for i in ranked] == [0, 0, 1, 2, 3, 4]


def test_card_text_is_searchable(full_client):
    drawn = cards(full_client, "o:draw")
    assert drawn and all("draw" in (c["text"] or "").lower() for c in drawn)
    memory = cards(full_client, 'text:"memory +1"')
    # Words in this order at word ends, whatever stands between them ("Memory +1", "memory+1").
    assert memory and all(re.search(r"memory\W*1", c["text"].lower()) for c in memory)
    assert set(numbers(full_client, "-o:draw k:option", per_page=200)).isdisjoint(
        c["number"] for c in drawn
    )


def test_text_on_a_list_without_text_finds_nothing(client):
    body = client.get("/api/v1/cards?game=dcg&q=o:draw").get_json()
    assert body["total"] == 0
    # ...and says why, and how to search text: not a silent 0.
    assert body["note"].startswith("The Digimon Card Game card list here has no card text")
    assert "cardpool import dcg cards.csv" in body["note"]
    page = client.get("/cards?game=dcg&q=o:draw").get_data(as_text=True)
    assert 'id="search-note"' in page and "has no card text" in page
    both = client.get("/api/v1/cards?q=-text:draw k:tamer").get_json()["note"]
    assert "Digi-Battle and Digital Monster Card Game card lists here have" in both


def test_no_text_note_without_a_text_term(client):
    assert "note" not in client.get("/api/v1/cards?game=dcg&q=agumon").get_json()


def test_no_text_note_on_a_list_with_text(full_client):
    # The shared DCG list has card text: its text search needs no note.
    assert "note" not in full_client.get("/api/v1/cards?game=dcg&q=o:draw").get_json()


@pytest.mark.parametrize("query", ["cost<=²", "dp>=٣000", "lv>=²", "cost:１"])
def test_only_ascii_digits_are_numbers(client, query):
    response = client.get("/api/v1/cards", query_string={"game": "dcg", "q": query})
    body = response.get_json()
    assert response.status_code == 422 and body["error"]["code"] == "bad-query", body
    assert body["error"]["details"]["term"] == query
    page = client.get("/cards", query_string={"game": "dcg", "q": query})
    assert page.status_code == 422


def test_did_you_mean_memory_is_bounded(client):
    """+7 MB per 17,000 unique queries, once: each typo's answer is kept, but at most
    the cache's size of them, and none for a query longer than rules.cache.KEY_MAX."""
    from cardpool.search import TABLES
    from deckcheck.db import get_db

    assert client.get("/api/v1/cards?game=dcg&q=zzqx").get_json()["total"] == 0
    with client.application.app_context():
        memo = next(iter(TABLES.get(get_db()).values())).suggestions
    memo.size = 40  # the same rule as its 16,384, reached sooner
    for i in range(100):
        body = client.get(f"/api/v1/cards?game=dcg&q=zzqx{i}").get_json()
        assert body["total"] == 0
    assert 0 < len(memo) <= 40
    long_query = "qq" * 60
    client.get("/api/v1/cards", query_string={"game": "dcg", "q": long_query})
    assert not any(long_query in key for key in memo)


def test_relevance_places_are_kept_for_a_bounded_number_of_queries(client, monkeypatch):
    from cardpool import search
    from cardpool.search import table
    from deckcheck.db import get_db

    monkeypatch.setattr(table, "MAX_RANKED", 5)
    for word in ("agu", "gre", "mon", "dra", "pal", "tai", "bir", "gar"):
        body = client.get(f"/api/v1/cards?game=dcg&q={word}&order=relevance").get_json()
        assert "data" in body
    with client.application.app_context():
        ranks = search.TABLES.get(get_db())["dcg"].ranks
    assert 0 < len(ranks) <= 5


# ------------------------------------------------------- set: series and -term, shipped list


def total(client, query: str, game: str = "dcg", **params) -> int:
    response = client.get("/api/v1/cards", query_string={"game": game, "q": query, **params})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["total"]


def every_number(client, query: str, game: str = "dcg") -> list[str]:
    """Every card a query finds, page after page."""
    found, page = [], 1
    while True:
        params = {"game": game, "q": query, "per_page": 200, "page": page}
        body = client.get("/api/v1/cards", query_string=params).get_json()
        found += [card["number"] for card in body["data"]]
        if not body["has_more"]:
            return found
        page += 1


@pytest.mark.parametrize(
    ("query", "pattern"),
    [("set:st", r"ST\d+-"), ("set:BT", r"BT\d+-"), ("set:ex", r"EX\d+-"), ("set:BT1", r"BT1-")],
)
def test_set_series_and_whole_set_codes_on_the_shipped_list(client, query, pattern):
    """A fresh database holds the DCG list deckcheck ships: `set:st` is every starter
    deck, `set:BT1` is BT1 alone (not BT10 to BT19)."""
    from deckcheck.db import get_db

    with client.application.app_context():
        pool = [
            row["number"] for row in get_db().query("SELECT number FROM cards WHERE game = 'dcg'")
        ]
    found = every_number(client, query)
    assert found and sorted(found) == sorted(n for n in pool if re.match(pattern, n))


def test_starter_series_reaches_every_starter(client):
    found = set(every_number(client, "set:ST"))
    assert {"ST1-01", "ST10-01", "ST22-01"} <= found
    assert "BT10-001" not in every_number(client, "set:BT1")


@pytest.mark.parametrize(
    "term", ["set:bt", "set:st", "set:BT1", "is:banned", "is:restricted", "lv:6", "type:dragon"]
)
def test_a_negated_term_through_the_api(client, term):
    found = total(client, term)
    assert 0 < found < total(client, "")
    assert found + total(client, f"-{term}") == total(client, "")


def test_agumon_without_bt_cards(client):
    without = every_number(client, "agumon -set:bt")
    assert without and not any(n.startswith("BT") for n in without)
    assert len(without) == total(client, "agumon") - total(client, "agumon set:bt") < 75


def test_each_limited_card_is_left_out_by_its_negation(client):
    for status in ("banned", "restricted"):
        limited = every_number(client, f"is:{status}")
        assert limited
        for number in limited:
            assert number in every_number(client, f"{number} is:{status}")
            assert number not in every_number(client, f"{number} -is:{status}")
