"""set-not-allowed: DMCG official tournaments take St-, Sx-, Bo-, Bx- cards only."""

from datetime import date

import pytest
from fixture_cards import make_deck

from rules.builtin import BUILT_IN
from rules.model import Context

CTX = Context(date(2024, 1, 1))


@pytest.mark.parametrize(
    ("main", "bad"),
    [({"St-1": 1, "Bo-1": 1}, []), ({"St-1": 1, "P-1": 2}, ["P-1"])],
    ids=["starter-and-booster", "promo"],
)  # the shipped dmcg-tournament format: St-, Sx-, Bo-, Bx- only
def test_set_allowed(main, bad):
    check = BUILT_IN["dmcg-tournament"].check_of("set-not-allowed")  # the shipped format
    found = list(check.check(make_deck("dmcg", main=main), CTX))
    assert [v.cards[0] for v in found] == bad
    for violation in found:
        assert violation.code == "set-not-allowed" and "Remove it" in violation.message
