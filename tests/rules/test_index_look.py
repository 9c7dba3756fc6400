"""The reader puts a number's key on its reading, and the card index answers a reading's
number in one call (issue 40 item 4): the card, how the name agrees, and for a number
that names no card the name's cards and the newer-set hint."""

import pytest

from rules.model import Card
from rules.pool import CardIndex
from rules.read import parse, parse_structured
from rules.resolve import resolve

AGUMON = Card("dcg", "BT1-010", "Agumon", "digimon")
GABUMON = Card("dcg", "BT1-011", "Gabumon", "digimon")
STARTER_AGUMON = Card("dcg", "ST1-03", "Agumon", "digimon")
INDEX = CardIndex("dcg", [AGUMON, GABUMON, STARTER_AGUMON], updated="2026-11-01T00:00:00")


def first_reading(text: str):
    return parse(text).lines[0].readings[0]


@pytest.mark.parametrize(
    ("text", "key"),
    [("4 Agumon bt1-010", "BT1-10"), ("4 BT1-010_P1", "BT1-10"), ("4 Agumon", None)],
)
def test_a_reading_carries_its_number_key(text, key):
    assert first_reading(text).key == key


def test_every_source_puts_the_key_on_its_readings():
    structured = parse_structured({"main": [{"card": "Agumon st01-03", "count": 4}]}, None)
    assert structured.lines[0].readings[0].key == "ST1-3"
    [partner] = parse("Partner: bt1-010 BT1-011").partners
    assert [r.key for r in partner.readings] == ["BT1-10", "BT1-11"]


@pytest.mark.parametrize(
    ("text", "card", "tier"),
    [
        ("4 Agumon bt1-010", AGUMON, "exact"),
        ("4 BT1-010", AGUMON, "exact"),  # no name: nothing to disagree with
        ("4 Agumn BT1-010", AGUMON, "near"),
        ("4 Gabumon BT1-010", AGUMON, "other"),
        ("4 Agumon BT1-0100", None, ""),  # wider than printed: another number
    ],
)
def test_look_gives_the_card_and_how_its_name_agrees(text, card, tier):
    found = INDEX.look(first_reading(text))
    assert (found.card, found.tier) == (card, tier)
    if card is not None:
        assert found.alternatives == () and found.newer is None


def test_a_number_of_no_card_gives_the_name_s_cards_and_the_newer_set_hint():
    found = INDEX.look(first_reading("4 Agumon BT30-001"))
    assert found.card is None
    assert found.alternatives == (AGUMON, STARTER_AGUMON)
    assert found.newer == "its newest BT set is BT1 (list updated 2026-11-01)"
    typo = INDEX.look(first_reading("4 Gabumon BT1-999"))
    assert typo.alternatives == (GABUMON,) and typo.newer is None


def test_look_uses_the_key_on_the_reading():
    """The key the reader folded is the one looked up: a reading whose key names another
    card finds that card (so the index never folds the number again)."""
    reading = first_reading("4 bt1-010")
    assert INDEX.look(reading).card is AGUMON
    assert INDEX.look(reading._replace(key="BT1-11")).card is GABUMON


def test_the_resolver_asks_each_number_by_look_alone(monkeypatch):
    """The resolver's questions about a number all go through `look` (the card, the
    name's agreement, the alternatives and the newer-set hint), never the old separate
    lookups."""
    asked: list[str | None] = []
    inside: list[bool] = []  # True while `look` works (it asks the index's own helpers)
    real = {
        name: getattr(CardIndex, name)
        for name in ("look", "by_number", "agrees", "agreement", "newer_set")
    }

    def spy(self, reading):
        asked.append(reading.number)
        inside.append(True)
        try:
            return real["look"](self, reading)
        finally:
            inside.pop()

    def guarded(name):
        def call(self, *args):
            assert inside, f"the resolver asked {name} outside `look`"
            return real[name](self, *args)

        return call

    monkeypatch.setattr(CardIndex, "look", spy)
    for name in ("by_number", "agrees", "agreement", "newer_set"):
        monkeypatch.setattr(CardIndex, name, guarded(name))
    index = CardIndex("dcg", [AGUMON, GABUMON], updated="2026-11-01T00:00:00")
    resolved = resolve(parse("4 Gabumon BT1-010\n2 Agumon BT30-001"), index)
    assert {"BT1-010", "BT30-001"} <= set(asked)
    [note] = resolved.notes
    assert note.code == "name-mismatch"
    [problem] = resolved.problems
    assert problem.hint == "newer-set" and "Did you mean BT1-010 Agumon" in problem.message
