"""Each format end to end: text or structured input -> verdict (test-only card pools)."""

from datetime import date

import pytest
from fixture_cards import POOLS, entries

from rules.builtin import BUILT_IN
from rules.validate import check_structured, check_text

ON = date(2024, 1, 1)
ST1 = {"main": entries([("ST1-03", 4), ("BT11-061", 46)]), "eggs": entries([("ST1-01", 4)])}


def text_report(fmt_id, text, on=ON):
    fmt = BUILT_IN[fmt_id]
    return check_text(fmt, POOLS[fmt.game], text, on)


def codes(report):
    return sorted({v.code for v in report.violations})


def test_dcg_structured_legal():
    report = check_structured(BUILT_IN["dcg"], POOLS["dcg"], ST1, None, ON)
    assert report.legal, report.violations


def test_dcg_text_sorts_by_kind_whatever_the_headers():
    report = text_report(
        "dcg", "// Egg Deck\n4 Agumon ST1-03\n46 BT11-061\n// Main\n4 Koromon ST1-01"
    )
    assert report.legal, report.violations
    assert [s.card.number for s in report.deck.stacks("eggs")] == ["ST1-01"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4 Notamon", ["unknown-card"]),
        ("4 XYZ9-999", ["unknown-card"]),
        ("4 Agumon", ["ambiguous-card"]),
        ("4", ["unparsed-line"]),
        ("Partner: ST1-03", ["unparsed-line"]),
    ],
    ids=["unknown-name", "unknown-number", "ambiguous-name", "bare-count", "partner-outside-dbe"],
)
def test_dcg_input_problems(text, expected):
    report = text_report("dcg", "4 ST1-03\n46 BT11-061\n4 ST1-01\n" + text)
    assert codes(report) == expected
    [problem] = report.violations
    assert problem.line == 4 and problem.message.startswith("Line 4:")


def test_unknown_card_suggests():
    report = text_report("dcg", "4 Agumn")
    [problem] = [v for v in report.violations if v.code == "unknown-card"]
    assert "ST1-03 Agumon" in problem.suggestions and "Did you mean" in problem.message


def test_ambiguous_lists_candidates():
    report = text_report("dcg", "4 Agumon")
    [problem] = report.violations[:1]
    assert set(problem.cards) == {"BT1-010", "ST1-03"}


def test_number_beats_name():
    report = text_report("dcg", "4 Greymon ST1-03")
    assert report.deck.stacks("main")[0].card.name == "Agumon"


def test_number_spellings():
    report = text_report("dcg", "1 st01-03\n1 ST1-3\n1 st1-03_P2\n1 BT01-10")
    assert {s.card.number: s.count for s in report.deck.stacks("main")} == {
        "ST1-03": 3,
        "BT1-010": 1,
    }


def test_side_deck_is_a_warning():
    report = text_report("dcg", "46 BT11-061\n4 ST1-03\nSideboard\n2 ST1-16")
    assert report.legal and [w.code for w in report.warnings] == ["side-deck"]


def test_dbe_text_without_headers_puts_level_m_and_mastery_in_destiny():
    report = text_report("dbe", "1 ACC-007\n1 ACC-017\n4 ACC-001")
    assert {s.card.number for s in report.deck.stacks("destiny")} == {"ACC-007", "ACC-017"}


def test_dbe_partner_line():
    report = text_report(
        "dbe", "Partner: Agumon ACC-001\n// Destiny Zone\n1 ACC-002\n// Main\n4 ACC-001"
    )
    assert report.deck.partner.number == "ACC-001"
    assert "partner" not in codes(report)


def test_dmcg_tournament_refuses_promos():
    report = text_report("dmcg-tournament", "3 St-1\n1 P-1")
    assert "set-not-allowed" in codes(report)


def test_digibattle_holo_is_another_code():
    report = text_report("digibattle", "1 ST-44\n1 ST-44S\n1 ST-01")
    assert "copy-limit" not in codes(report)


def test_an_empty_pool_says_so():
    from rules.pool import CardIndex

    report = check_text(BUILT_IN["dbe"], CardIndex("dbe", []), "4 ACC-001", ON)
    [problem] = report.violations[:1]
    assert (
        problem.code == "unknown-card"
        and "no Digimon Battle Evolution cards are loaded" in problem.message
    )
