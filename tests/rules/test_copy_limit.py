"""copy-limit: per card number and section, per kind and flag, and a card's own rule."""

from datetime import date

import pytest
from fixture_cards import make_deck

from rules.checks import CopyLimit
from rules.model import Context

CTX = Context(date(2024, 1, 1))
DCG = CopyLimit("rule", default=4, sections=("main", "eggs"))
DBE = CopyLimit(
    "rule",
    default=4,
    by_kind={"option": 3, "evolution": 2, "data": 1},
    by_flag={"ace": 1, "firewall": 3},
    card_rule=False,
)


@pytest.mark.parametrize(
    ("check", "game", "sections", "over"),
    [
        (DCG, "dcg", {"main": {"ST1-03": 4}}, []),
        (DCG, "dcg", {"main": {"ST1-03": 5}}, ["ST1-03"]),
        (DCG, "dcg", {"eggs": {"ST1-01": 5}}, ["ST1-01"]),
        (DCG, "dcg", {"main": {"BT11-061": 46}}, []),
        (DCG, "dcg", {"main": {"BT11-061": 51}}, ["BT11-061"]),
        (DCG, "dcg", {"main": {"ST1-03": 4, "BT1-010": 4}}, []),
        (DBE, "dbe", {"main": {"ACC-001": 5}}, ["ACC-001"]),
        (DBE, "dbe", {"main": {"ACC-015": 4}}, ["ACC-015"]),
        (DBE, "dbe", {"main": {"ACC-015": 3}}, []),
        (DBE, "dbe", {"main": {"ACC-016": 3}}, ["ACC-016"]),
        (DBE, "dbe", {"main": {"ACC-019": 2}}, ["ACC-019"]),
        (DBE, "dbe", {"main": {"ACC-021": 3}}, []),
        (DBE, "dbe", {"main": {"ACC-021": 4}}, ["ACC-021"]),
        (DBE, "dbe", {"main": {"ACC-009": 2}}, ["ACC-009"]),
        (DBE, "dbe", {"destiny": {"ACC-002": 9}}, []),
    ],
    ids=[
        "dcg-four",
        "dcg-five",
        "dcg-five-eggs",
        "dcg-50-copy-card",
        "dcg-50-copy-card-over",
        "dcg-same-name-other-number",
        "dbe-digimon-5",
        "dbe-option-4",
        "dbe-option-3",
        "dbe-evolution-3",
        "dbe-ace-2",
        "dbe-firewall-3",
        "dbe-firewall-4",
        "dbe-data-2",
        "dbe-destiny-not-counted",
    ],
)
def test_copy_limit(check, game, sections, over):
    found = list(check.check(make_deck(game, **sections), CTX))
    assert [v.cards[0] for v in found] == over
    for violation in found:
        assert violation.code == "copy-limit"
        assert "Remove" in violation.message and violation.cards[0] in violation.message


def test_copies_of_one_number_add_up_over_lines():
    from rules.model import Deck, Entry

    agumon = make_deck("dcg", main={"ST1-03": 1}).entries[0].card
    deck = Deck("dcg", (Entry(agumon, 3, "main", 1), Entry(agumon, 2, "main", 7)))
    [violation] = DCG.check(deck, CTX)
    assert "5 copies of ST1-03 Agumon" in violation.message and violation.line == 1


def test_no_limit():
    assert (
        list(CopyLimit("rule", default=None).check(make_deck("dcg", main={"ST1-03": 40}), CTX))
        == []
    )
