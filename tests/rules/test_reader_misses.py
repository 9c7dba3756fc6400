"""Lines read wrong before (issue 23, a review), each read right now; the newer-set hint."""

from datetime import date

import pytest

from rules.builtin import BUILT_IN
from rules.model import Card
from rules.pool import CardIndex
from rules.read import parse, parse_structured
from rules.resolve import resolve
from rules.validate import check_text

ON = date(2024, 1, 1)


def test_a_dcg_style_padded_number_finds_a_dmcg_card():
    """`st-010` (three digits, as DCG numbers have) is DMCG's St-10 in dmcg-tournament."""
    pool = CardIndex(
        "dmcg",
        [
            Card("dmcg", "St-1", "Agumon", "digimon", "III"),
            Card("dmcg", "St-10", "Togemon", "digimon", "IV"),
        ],
    )
    report = check_text(BUILT_IN["dmcg-tournament"], pool, "3 st-010\n1 st-001", ON)
    assert [(s.card.number, s.count) for s in report.deck.stacks("main")] == [
        ("St-10", 3),
        ("St-1", 1),
    ]
    assert "unknown-card" not in {v.code for v in report.violations}


def test_a_run_padded_past_three_digits_is_still_another_number():
    pool = CardIndex("dcg", [Card("dcg", "BT1-100", "Test Card", "digimon")])
    assert pool.by_number("BT1-0100") is None and pool.by_number("bt1-100") is not None


SHOUTMON = CardIndex(
    "dcg",
    [
        Card("dcg", "BT10-012", "Shoutmon X4B", "digimon"),
        Card("dcg", "BT10-015", "Shoutmon X5B", "digimon"),
        Card("dcg", "BT19-014", "Shoutmon EX6", "digimon"),
        Card("dcg", "P-200", "Agumon", "digimon"),
    ],
)


@pytest.mark.parametrize(
    ("text", "number"),
    [("4 Shoutmon X5B BT10-012", "BT10-012"), ("2 Shoutmon EX5 BT19-014", "BT19-014")],
)
def test_a_name_differing_only_in_digits_is_a_name_mismatch(text, number):
    resolved = resolve(parse(text), SHOUTMON)
    assert [e.card.number for e in resolved.deck.entries] == [number]  # the number decides
    assert [n.code for n in resolved.notes] == ["name-mismatch"]


def test_a_structured_entry_differing_only_in_digits_is_a_name_mismatch():
    resolved = resolve(
        parse_structured({"main": [{"card": "Shoutmon X5B BT10-012", "count": 4}]}), SHOUTMON
    )
    assert [n.code for n in resolved.notes] == ["name-mismatch"]


@pytest.mark.parametrize("text", ["4 Shoutmon X4B BT10-012", "4 Shoutmom X4B BT10-012"])
def test_the_same_digits_misspelt_or_not_are_no_mismatch(text):
    assert resolve(parse(text), SHOUTMON).notes == ()


LINK_POOL = CardIndex(
    "dcg",
    [
        Card("dcg", "BT24-005", "Test Meta One", "digimon"),
        Card("dcg", "BT14-056", "Test Meta Two", "digimon"),
    ],
)


@pytest.mark.parametrize(
    "link",
    [
        "https://digimonmeta.com/deckinfo2?dn=Blue%20Flare&dg=4nBT24-005a2nBT14-056a&lang=en",
        "https://digimonmeta.com/#/deckinfo2?dn=Blue%20Flare&dg=4nBT24-005a2nBT14-056",
        "https://digimonmeta.com/deckinfo2%3Fdn%3DBlue%26dg%3D4nBT24-005a2nBT14-056",
        "<https://www.digimonmeta.com/deckinfo2?dg=4nBT24-005a2nBT14-056&dn=Blue>",
        "http://digimonmeta.com/deckinfo2?dg=4nBT24-005a2nBT14-056",
        "www.digimonmeta.com/deckinfo2?dg=4nBT24-005a2nBT14-056",
    ],
    ids=["other-params", "hash-route", "percent-encoded", "angle-brackets", "http", "www"],
)
def test_digimonmeta_links_as_shared_are_read(link):
    resolved = resolve(parse(link), LINK_POOL)
    assert [(e.card.number, e.count) for e in resolved.deck.entries] == [
        ("BT24-005", 4),
        ("BT14-056", 2),
    ]
    assert not resolved.problems


NEWER = CardIndex(
    "dcg",
    [
        Card("dcg", "EX12-001", "Test Twelve", "digimon"),
        Card("dcg", "BT1-010", "Agumon", "digimon"),
    ],
    updated="2026-05-01T10:00:00+00:00",
)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "4 EX99-001",
            "EX99-001 is not in this card list yet: its newest EX set is EX12 "
            "(list updated 2026-05-01).",
        ),
        (
            "4 ZZ1-001",
            "ZZ1-001 is not in this card list yet: it holds no ZZ set (list updated 2026-05-01).",
        ),
    ],
)
def test_an_unknown_number_of_a_newer_set_says_so(text, words):
    [problem] = resolve(parse(text), NEWER).problems
    assert problem.code == "unknown-card" and problem.hint == "newer-set"
    assert problem.message == f"Line 1: {words}"


@pytest.mark.parametrize("text", ["4 EX12-999", "4 BT1-999", "4 Agumom"])
def test_an_unknown_card_of_a_set_the_list_has_is_no_newer_set(text):
    [problem] = resolve(parse(text), NEWER).problems
    assert problem.code == "unknown-card" and problem.hint is None


def test_without_an_import_date_the_message_leaves_it_out():
    pool = CardIndex("dcg", [Card("dcg", "EX12-001", "Test Twelve", "digimon")])
    [problem] = resolve(parse("4 EX99-001"), pool).problems
    assert problem.message.endswith("its newest EX set is EX12.")


def test_the_hint_is_in_the_violation_json():
    from deckcheck.report_json import violation_json

    [problem] = resolve(parse("4 EX99-001"), NEWER).problems
    assert violation_json(problem)["hint"] == "newer-set"
    [typo] = resolve(parse("4 Agumom"), NEWER).problems
    assert "hint" not in violation_json(typo)


# A bracketed number is the line's number, never a flip card's side: the number decides.
BRACKETS = CardIndex(
    "dcg",
    [
        Card("dcg", "EX12-001", "Test Twelve", "digimon"),
        Card("dcg", "BT1-099", "Hearts Attack", "option"),
        Card("dcg", "BT1-010", "Agumon", "digimon"),
        Card("dcg", "BT2-001", "Agumon", "digimon"),
        Card("dcg", "BT3-001", "Antiramon", "digimon"),
    ],
)


@pytest.mark.parametrize(
    "text",
    [
        "Hearts Attack (EX99-050) x2",
        "Hearts Attack [EX99-050] x2",
        "2 Hearts Attack (EX99-050)",
        "Agumon (EX99-001) x4",  # a name of several cards: still the number's line
    ],
)
def test_a_bracketed_unknown_number_is_unknown_not_the_name_s_card(text):
    resolved = resolve(parse(text), BRACKETS)
    assert resolved.deck.entries == ()
    [problem] = resolved.problems
    assert problem.code == "unknown-card" and problem.hint == "newer-set"


def test_an_untap_line_with_an_unknown_number_is_unknown():
    [problem] = resolve(parse("2 Hearts Attack (DCG) (BT1-999)"), BRACKETS).problems
    assert problem.code == "unknown-card" and "BT1-999" in problem.message


def test_a_structured_entry_with_a_bracketed_unknown_number_is_unknown():
    resolved = resolve(
        parse_structured({"main": [{"card": "Hearts Attack (EX99-050)", "count": 2}]}), BRACKETS
    )
    assert resolved.deck.entries == ()
    assert [p.hint for p in resolved.problems] == ["newer-set"]


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("Agumon (BT1-010) x4", "BT1-010"),
        ("2 Antiramon [Moon]", "BT3-001"),
        ("Antiramon (Moon) x2", "BT3-001"),
    ],
)
def test_a_known_bracketed_number_and_a_flip_side_still_read(text, number):
    resolved = resolve(parse(text), BRACKETS)
    assert [e.card.number for e in resolved.deck.entries] == [number] and not resolved.problems


def test_an_unknown_number_asks_to_check_the_number_not_to_write_one():
    """A contract review: a player who wrote `MP-63` was told "write the card number"."""
    pool = CardIndex("digibattle", [Card("digibattle", "St-01", "Test Rookie", "digimon")])
    [problem] = resolve(parse("1 St-963"), pool).problems  # a series the list holds
    assert problem.message.endswith("Check the card number.")
    [named] = resolve(parse("1 Qwzxv"), pool).problems
    assert named.message.endswith("Check the spelling or write the card number.")


def test_a_series_the_starter_pool_lacks_is_not_in_the_list_yet():
    """A contract review: Digi-Battle `MP-63`, of a series the shipped starter pool never
    held, was "not a Digi-Battle card"; the contract's newer-set hint is for any game."""
    pool = CardIndex("digibattle", [Card("digibattle", "St-01", "Test Rookie", "digimon")])
    [problem] = resolve(parse("1 MP-63"), pool).problems
    assert problem.hint == "newer-set"
    assert problem.message == "Line 1: MP-63 is not in this card list yet: it holds no MP- cards."
