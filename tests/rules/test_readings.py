"""The table of line shapes, and the resolver's decision on lines that could mean two cards.

Against a pool made to trip the reader (names that hold a count, a number, a bracketed
side; aliases; a card with no name), each line must be read as the contract says.
"""

import pytest

from rules.model import Card
from rules.numbers import bare
from rules.pool import CardIndex
from rules.read import SHAPES, parse, parse_line, shape_readings
from rules.resolve import resolve


def _card(number: str, name: str, kind: str = "digimon", **more) -> Card:
    return Card("dcg", number, name, kind, **more)


POOL = CardIndex(
    "dcg",
    [
        _card("BT1-010", "Agumon"),
        _card("BT1-011", "Agumon"),
        _card("BT1-020", "Gabumon"),
        _card("BT1-030", "Garurumon", aliases=("Gabumon",)),
        _card("BT1-040", "4 Agumon", aliases=("Tokomon", "Agumon")),
        _card("P-999", "Agumon BT1-010"),
        _card("P-998", "4 Gabumon BT1-020"),
        _card("P-997", "4 Gabumon"),
        _card("P-996", "2 Garurumon"),
        _card("BT10-009", "Shoutmon X4"),
        _card("BT10-010", "Shoutmon X5"),
        _card("BT2-001", "Koromon", "digi-egg"),
        _card("BT1-050", ""),
        _card("BT1-060", "Tsunomon", name_ja="ツノモン"),
        _card("BT15-076", "Myotismon ACE"),
        _card("BT9-020", "Gabumon (X Antibody)"),
        _card("EX2-046", "ADR-02 Searcher", max_copies=50),
        # Test-only: two printings whose numbers fold to one key; the later one wins it.
        _card("BT3-001", "Impmon"),
        _card("BT3-01", "Impmon"),
    ],
)


@pytest.mark.parametrize(("shape", "example"), [(s, e) for s, (e, _) in sorted(SHAPES.items())])
def test_every_documented_shape_is_in_the_table_and_its_example_has_it(shape, example):
    assert shape in shape_readings.kept and shape_readings(shape)
    line = parse_line(1, example)
    assert line.kind == "card" and line.readings[0].strain == 0


@pytest.mark.parametrize(
    ("text", "count", "number", "name"),
    [
        ("4 Koromon BT2-001", 4, "BT2-001", "Koromon"),
        ("BT2-001 Koromon 4", 4, "BT2-001", "Koromon"),
        ("2 Gabumon (X Antibody) (BT9-020)", 2, "BT9-020", "Gabumon (X Antibody)"),
        ("3 bt1-60", 3, "bt1-60", None),
        ("1 Tsunomon      (DCG) (BT1-060)", 1, "BT1-060", "Tsunomon"),
        ("BT1-060 (DCG) Tsunomon 3", 3, "BT1-060", "Tsunomon"),
    ],
)
def test_common_lines_read_their_most_natural_reading_first(text, count, number, name):
    first = parse_line(1, text).readings[0]
    assert (first.count, first.number, first.name, first.strain) == (count, number, name, 0)


@pytest.mark.parametrize(
    "text",
    [
        "4 Agumon BT1-040",  # `4 Agumon` is BT1-040's own name: 1 copy, or 4 of Agumon?
        "4 Agumon BT1-010",  # `Agumon BT1-010` is the name of P-999
        "4 Gabumon BT1-020",  # the whole line is the name of P-998
    ],
)
def test_a_line_another_reading_of_which_names_a_card_is_unclear(text):
    problems = resolve(parse(text), POOL).problems
    assert [p.code for p in problems] == ["unparsed-line"]


@pytest.mark.parametrize(
    ("text", "number", "count"),
    [
        ("4 Koromon BT2-001", "BT2-001", 4),
        ("BT2-001 Koromon 4", "BT2-001", 4),
        ("1 Tsunomon (DCG) (BT1-060)", "BT1-060", 1),
        ("2 Myotismon ACE BT15-076", "BT15-076", 2),
        ("BT10-009 Shoutmon X4", "BT10-009", 1),
        ("4 BT3-01", "BT3-01", 4),
        # A bracketed number is the number, never a name's side: BT1-030 (also called
        # Gabumon), though Gabumon alone is BT1-020.
        ("3 Gabumon (BT1-030)", "BT1-030", 3),
        ("2 Garurumon (BT1-030)", "BT1-030", 2),  # though `2 Garurumon` is P-996's name
    ],
)
def test_a_line_whose_readings_agree_is_counted(text, number, count):
    resolved = resolve(parse(text), POOL)
    assert not resolved.problems
    assert [(e.card.number, e.count) for e in resolved.deck.entries] == [(number, count)]


@pytest.mark.parametrize("number", sorted(POOL.cards))
def test_a_number_typed_as_printed_finds_what_any_other_spelling_finds(number):
    # The printed spelling is one look-up; a lower-case one goes by key and width.
    assert POOL.by_number(number) is POOL.by_number(number.lower())


def test_a_structured_partner_is_read_as_one_entry():
    from rules.read import parse_structured

    pool = CardIndex("dbe", [Card("dbe", "ACC-001", "Agumon", "digimon", "R")])
    resolved = resolve(
        parse_structured({"main": [{"card": "ACC-001", "count": 4}]}, "ACC-001"), pool
    )
    assert resolved.problems == () and resolved.deck.partner == pool.by_number("ACC-001")


@pytest.mark.parametrize(
    ("token", "read"),
    [
        ("EX-13-001", "EX13-001"),  # products are written EX-13: their cards so too
        ("bt-1-010", "bt1-010"),
        ("(ST-22-05)", "ST22-05"),
        ("LM-09-001", "LM-09-001"),  # LM-09's cards are LM-001 on: no card is LM09-001
        ("rb-1-004", "rb1-004"),
        ("Mar-10-2025", "Mar-10-2025"),  # a date, not a product: a word
        ("XX-13-001", "XX-13-001"),  # no product series of DCG
        ("St-01", "St-01"),  # DMCG's numbers keep their one dash
        ("BT1-010", "BT1-010"),
        ("EX-13-001" + "_P1" * 20, "EX-13-001" + "_P1" * 20),  # longer than any number
    ],
)
def test_a_products_hyphen_is_dropped_from_a_number_and_only_there(token, read):
    assert bare(token) == read
