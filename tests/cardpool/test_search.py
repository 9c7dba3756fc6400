"""Card search over the shared pools: names and numbers in every game, filters, pages."""

import re

import pytest

from cardpool.db import connect
from cardpool.imports import seed_starter_pool
from cardpool.search import Query, build_table, matches, run, search, tokenize


@pytest.fixture(scope="module")
def db(full_db):
    database = connect(full_db, migrate=False)
    yield database
    database.close()


@pytest.mark.parametrize(
    ("query", "number"),
    [
        (Query(game="dcg", q="wargreymon"), "BT1-025"),
        (Query(game="dcg", q="bt1-10"), "BT1-010"),
        (Query(game="dcg", q="BT1-010_P1"), "BT1-010"),
        (Query(game="digibattle", q="st-44s"), "ST-44S"),
        (Query(game="digibattle", q="wizardmon"), "ST-44"),
        (Query(game="dmcg", q="st-01"), "St-1"),
        (Query(game="dmcg", q="アグモン"), "St-1"),
        (Query(game="dbe", q="metalgreymon"), "ACC-006"),
    ],
    ids=[
        "dcg-name",
        "dcg-number",
        "dcg-alt-art",
        "digibattle-holo",
        "digibattle-name",
        "dmcg-number",
        "dmcg-japanese",
        "dbe-name",
    ],
)
def test_finds_by_name_and_number(db, query, number):
    found, total = search(db, query)
    assert total >= 1 and number in [row["number"] for row in found]


def test_filters(db):
    found, total = search(db, Query(game="dcg", kind="digi-egg", color="Red", per_page=200))
    assert total > 10 and all(r["kind"] == "digi-egg" and ";Red;" in r["colors"] for r in found)
    found, _ = search(db, Query(game="dmcg", level="iii"))
    assert found and all(r["level"] == "III" for r in found)


def test_pages(db):
    first, total = search(db, Query(game="dcg", per_page=100))
    second, _ = search(db, Query(game="dcg", per_page=100, page=2))
    assert (
        total == 4391
        and len(first) == 100
        and not {r["number"] for r in first} & {r["number"] for r in second}
    )


@pytest.mark.parametrize(
    ("text", "same_as"),
    [
        ("agumon)", "agumon"),
        ("NEAR(", "near"),
        ("AND OR NOT", "and or not"),
        ("'; DROP TABLE cards; --", "drop table cards"),
        ("*", ""),
        ('"', ""),
    ],
)
def test_query_syntax_of_other_tools_is_plain_text(db, text, same_as):
    """SQL and FTS operators are words like any other, and the pool is untouched."""
    _, every = search(db, Query())
    assert search(db, Query(q=text)) == search(db, Query(q=same_as))
    assert search(db, Query())[1] == every


# ------------------------------------------------------- set: and -term on the shipped list


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    """The DCG list deckcheck ships (cardpool/starter/dcg.csv.gz), loaded as a fresh
    database loads it."""
    database = connect(tmp_path_factory.mktemp("shipped") / "cards.db")
    seed_starter_pool(database)
    yield database
    database.close()


def found_numbers(db, q: str, game: str = "dcg") -> set[str]:
    found = run(db, Query(game=game, q=q, per_page=10_000))
    assert found.total == len(found.rows)
    return {row["number"] for row in found.rows}


@pytest.mark.parametrize(
    ("game", "query", "pattern"),
    [
        ("dcg", "set:st", r"ST\d+-"),
        ("dcg", "set:ST", r"ST\d+-"),
        ("dcg", "set:bt", r"BT\d+-"),
        ("dcg", "set:Ex", r"EX\d+-"),
        ("dcg", "set:P", r"P-"),
        ("dcg", "set:BT1", r"BT1-"),
        ("dcg", "set:bt01", r"BT1-"),
        ("dcg", "set:BT1-", r"BT1-"),
        ("dcg", "set:ST10", r"ST10-"),
        ("digibattle", "set:st", r"ST-"),
        ("dmcg", "set:st", r"St-"),
    ],
)
def test_set_is_a_whole_set_code_or_a_whole_series(shipped, game, query, pattern):
    """`set:BT1` is BT1 and not BT10; letters alone are every set of that series."""
    every = found_numbers(shipped, "", game)
    wanted = {n for n in every if re.match(pattern, n)}
    assert wanted and found_numbers(shipped, query, game) == wanted


def test_set_series_holds_every_starter_and_letters_are_whole(shipped):
    starters = found_numbers(shipped, "set:st")
    assert {"ST1-01", "ST10-01", "ST22-01"} <= starters
    assert "BT10-001" not in found_numbers(shipped, "set:BT1")
    assert found_numbers(shipped, "set:B") == set()  # not BT, not a prefix of letters
    assert found_numbers(shipped, "set:S") == set()


def test_set_codes_of_letters_alone_in_dmcg():
    rows = [
        {"game": "dmcg", "key": n.upper(), "number": n, "name": n, "aliases": "", "name_ja": "",
         "types": "", "colors": "", "traits": "", "kind": "digimon", "level": "III",
         "play_cost": None, "dp": None, "set_name": "", "text": None}
        for n in ("St-1", "Bo-1", "Bx-1", "Sx-1")
    ]  # fmt: skip
    table = build_table("dmcg", rows)

    def numbers(q: str) -> list[str]:
        bits = matches(table, tokenize(q), None)
        return [table.rows[i]["number"] for i in range(len(rows)) if bits >> i & 1]

    assert numbers("set:BO") == numbers("set:bo") == ["Bo-1"]
    assert numbers("-set:bo") == ["Bx-1", "St-1", "Sx-1"]
    assert numbers("set:b") == []


NEGATABLE = [
    "set:bt",
    "set:st",
    "set:BT1",
    "set:P",
    "k:tamer",
    "kind:option",
    "lv:6",
    "level:3",
    "lv>=5",
    "lv<4",
    "c:red",
    "t:vaccine",
    "type:dragon",
    't:"royal knight"',
    "cost<=3",
    "pc=5",
    "dp>=7000",
    "greymon",
    '"x antibody"',
    "bt1-01",
    "bt2",
]


@pytest.mark.parametrize("term", NEGATABLE)
@pytest.mark.parametrize("base", ["", "agumon"])
def test_a_negated_term_finds_exactly_what_the_term_does_not(shipped, base, term):
    every = found_numbers(shipped, base)
    positive = found_numbers(shipped, f"{base} {term}")
    if base == "":
        assert positive and positive != every, "the term must find some cards, not all"
    assert found_numbers(shipped, f"{base} -{term}") == every - positive
