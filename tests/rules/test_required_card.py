"""required-card: a Rookie (Digi-Battle), a Level III Digimon (DMCG)."""

from datetime import date

import pytest
from fixture_cards import make_deck

from rules.builtin import BUILT_IN
from rules.model import Context

CTX = Context(date(2024, 1, 1))


@pytest.mark.parametrize(
    ("game", "main", "ok"),
    [
        ("digibattle", {"ST-01": 1, "ST-02": 1}, True),
        ("digibattle", {"ST-02": 1, "ST-44": 1}, False),
        ("dmcg", {"St-1": 1}, True),
        ("dmcg", {"St-2": 3}, False),
    ],
    ids=["rookie", "no-rookie", "level-iii", "no-level-iii"],
)
def test_required_card(game, main, ok):
    check = BUILT_IN[game].check_of("required-card")  # the shipped format's check
    found = list(check.check(make_deck(game, main=main), CTX))
    assert (found == []) is ok
    if not ok:
        assert found[0].code == "required-card" and "Add one" in found[0].message
