"""Cards deckcheck cannot confirm (issue 43): a number of a known product the list lacks."""

from datetime import date

import pytest

from rules.builtin import BUILT_IN
from rules.model import Card
from rules.pool import CardIndex
from rules.products import dcg_products
from rules.validate import check_structured, check_text
from rules.verdict import verdict_of

DECEMBER = date(2026, 12, 4)
HELD = [
    Card("dcg", "EX12-001", "Test Twelve", "digimon", "3"),
    Card("dcg", "EX12-002", "Test Egg", "digi-egg", "2"),
    Card("dcg", "BT11-061", "Test Fifty", "digimon", "3", max_copies=50),
    Card("dcg", "P-244", "Test Promo", "tamer"),
]
# The same cards once the list holds EX-13 (and its promos).
CAUGHT_UP = [
    *HELD,
    Card("dcg", "EX13-001", "Test Egg Thirteen", "digi-egg", "2"),
    Card("dcg", "EX13-010", "Test Thirteen", "digimon", "4"),
    Card("dcg", "P-246", "Test Promo Thirteen", "option"),
]
UPDATED = "2026-08-20T00:00:00+00:00"
BEHIND = CardIndex("dcg", HELD, updated=UPDATED)
DECK = "Digi-Egg deck:\n4 EX12-002\n1 EX13-001\nMain deck:\n42 BT11-061\n4 ex13-10\n4 P-246"


def judge(text, index=BEHIND, on=DECEMBER):
    return check_text(BUILT_IN["dcg"], index, text, on)


def test_an_ex13_deck_is_unconfirmed_not_illegal():
    report = judge(DECK)
    assert not report.legal and verdict_of(report.violations) == "unconfirmed"
    assert [v.code for v in report.violations] == ["unknown-card"] * 3
    first = report.violations[0]
    assert first.hint == "newer-set" and (first.product, first.released) == ("EX13", "2026-10-02")
    assert first.message.startswith(
        "Line 3: EX13-001 is from EX-13, out 2026-10-02; this card list ends at EX12"
    )
    promo = report.violations[2]
    assert promo.product == "EX13" and "P-246 is from EX-13" in promo.message


def test_unconfirmed_cards_stay_in_their_section_and_count():
    deck = judge(DECK).deck
    assert deck.size("eggs") == 5 and deck.size("main") == 50
    eggs = {s.card.number: s.card for s in deck.stacks("eggs")}
    assert not eggs["EX13-001"].confirmed and eggs["EX13-001"].name == ""
    assert "EX13-010" in {s.card.number for s in deck.stacks("main")}  # written ex13-10


def test_they_count_toward_the_copy_limit_and_deck_size():
    report = judge("Main deck:\n41 BT11-061\n5 EX13-010\n4 P-246")
    assert {v.code for v in report.violations} == {"unknown-card", "copy-limit"}
    assert verdict_of(report.violations) == "illegal"
    short = judge("Main deck:\n40 BT11-061\n4 EX13-010")
    assert "deck-size" in {v.code for v in short.violations}


def test_the_fingerprint_is_the_one_the_caught_up_list_gives():
    before = judge(DECK)
    after = judge(DECK, CardIndex("dcg", CAUGHT_UP, updated=UPDATED))
    assert after.legal and before.fingerprint == after.fingerprint
    assert before.deck.size("eggs") == after.deck.size("eggs") == 5


def test_structured_decks_keep_their_sections_too():
    sections = {
        "eggs": [{"card": "EX13-001", "count": 1}],
        "main": [{"card": "BT11-061", "count": 46}, {"card": "EX13-010", "count": 4}],
    }
    before = check_structured(BUILT_IN["dcg"], BEHIND, sections, None, DECEMBER)
    after = check_structured(BUILT_IN["dcg"], CardIndex("dcg", CAUGHT_UP), sections, None, DECEMBER)
    assert verdict_of(before.violations) == "unconfirmed"
    assert after.legal and before.fingerprint == after.fingerprint


def test_an_announced_product_is_not_released_before_its_day():
    report = judge("Main deck:\n46 BT11-061\n4 EX14-001", on=date(2026, 12, 4))
    assert [v.code for v in report.violations] == ["not-released"]
    assert "2027-01-22" in report.violations[0].message
    assert report.deck.size("main") == 50
    later = judge("Main deck:\n46 BT11-061\n4 EX14-001", on=date(2027, 2, 1))
    assert verdict_of(later.violations) == "unconfirmed"
    assert later.violations[0].released == "2027-01-22"


def test_a_product_with_no_english_day_says_so():
    report = judge("Main deck:\n46 BT11-061\n4 BT27-001")
    (found,) = report.violations
    assert found.product == "BT27" and found.released is None
    assert "BT27-001 is from BT-27, no English release date yet" in found.message


@pytest.mark.parametrize("number", ["XX9-999", "BT99-001", "EX12-999", "P-251", "EX13-0000"])
def test_a_number_of_no_known_product_stays_an_unknown_card(number):
    report = judge(f"Main deck:\n46 BT11-061\n4 {number}")
    (found,) = report.violations[:1]
    assert found.code == "unknown-card" and found.product is None
    assert verdict_of(report.violations) == "illegal"
    assert report.deck.size("main") == 46 and len(report.deck.unresolved) == 1


def test_a_set_the_list_holds_has_no_unconfirmed_cards():
    """Once EX13 is in the list, an EX13 number it lacks is a typo again."""
    index = CardIndex("dcg", CAUGHT_UP)
    (found,) = judge("Main deck:\n46 BT11-061\n4 EX13-099", index).violations[:1]
    assert found.product is None and found.hint is None


def test_products_list_every_named_product_with_its_source():
    products = dcg_products()
    days = {
        p.code: (p.released and p.released.isoformat(), p.announced, p.rests_on)
        for p in products.items
    }
    assert days["EX13"] == ("2026-10-02", False, "in-stores")
    assert days["EX14"] == ("2027-01-22", True, "announced")
    assert days["BT28"] == ("2027-03-12", True, "announced")
    assert days["BT27"] == (None, True, "announced")
    assert days["PB24"] == (None, True, "announced")
    assert days["LM8"][0] is None and days["LM9"][0] is None
    assert all(p.source for p in products.items)
    assert products.by_code["EX13"].numbers == ("EX13-*", "P-245..P-250")
    assert products.of_number("P-250").code == "EX13" and products.of_number("P-251") is None


def test_a_promo_of_a_product_not_yet_out_is_not_released():
    """P-245 to P-250 came with EX-13: before 2026-10-02 they are not released."""
    report = judge("Main deck:\n46 BT11-061\n4 P-246", on=date(2026, 9, 20))
    assert [v.code for v in report.violations] == ["not-released"]
    assert "2026-10-02" in report.violations[0].message
