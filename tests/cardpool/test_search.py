"""Card search over the shared pools: names and numbers in every game, filters, pages."""

import pytest

from cardpool.db import connect
from cardpool.search import Query, search


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
