"""rules.lock.compare_decks: the one comparison both deck checks use."""

from datetime import date

import pytest
from fixture_cards import POOLS

from rules.builtin import BUILT_IN
from rules.lock import HEADLINES, compare_decks
from rules.validate import check_text


def _deck(text, game="dcg"):
    return check_text(BUILT_IN[game], POOLS[game], text, date(2024, 1, 1)).deck


ST1_TEXT = "// Digimon Deck List\n4 Koromon ST1-01\n4 ST1-02\n4 ST1-03\n2 ST1-07\n2 ST1-16"
REORDERED = "\n".join(reversed(ST1_TEXT.splitlines()))
DBE = "Partner: ACC-001\n// Destiny Zone\n1 ACC-002\n// Main\n4 ACC-001\n4 ACC-023"


@pytest.mark.parametrize(
    ("presented", "verdict"),
    [
        (REORDERED, "same"),
        (ST1_TEXT + "\n2 Notacardmon Zzz", "same-cards"),  # an extra unread line
        (ST1_TEXT.replace("4 ST1-03", "3 ST1-03"), "differ"),  # a count
        (ST1_TEXT.replace("4 ST1-03", "3 ST1-03\n1 ST1-02"), "differ"),
    ],
    ids=["reordered", "extra-unread-line", "count", "swap"],
)
def test_a_difference_is_never_the_same_deck(presented, verdict):
    comparison = compare_decks(_deck(ST1_TEXT), _deck(presented))
    assert comparison.verdict == verdict
    assert comparison.headline == HEADLINES[verdict]
    assert comparison.same == (verdict == "same")


def test_an_unread_line_in_the_stored_list_alone_is_not_the_same_deck_either():
    comparison = compare_decks(_deck(ST1_TEXT + "\n2 Notacardmon Zzz"), _deck(ST1_TEXT))
    assert comparison.verdict == "same-cards" and comparison.note
    assert [u.text for u in comparison.registered_unread] == ["2 Notacardmon Zzz"]


def test_a_card_moved_to_another_section_is_listed_in_both():
    moved = DBE.replace("// Destiny Zone\n1 ACC-002\n// Main\n", "// Main\n1 ACC-002\n")
    comparison = compare_decks(_deck(DBE, "dbe"), _deck(moved, "dbe"))
    assert comparison.verdict == "differ"
    assert {(d.section, d.card.number, d.change) for d in comparison.differences} == {
        ("destiny", "ACC-002", -1),
        ("main", "ACC-002", 1),
    }


def test_a_different_partner_is_a_difference():
    other = DBE.replace("Partner: ACC-001", "Partner: ACC-023")
    comparison = compare_decks(_deck(DBE, "dbe"), _deck(other, "dbe"))
    assert comparison.verdict == "differ"
    assert {(d.section, d.card.number, d.change) for d in comparison.differences} == {
        ("partner", "ACC-001", -1),
        ("partner", "ACC-023", 1),
    }
