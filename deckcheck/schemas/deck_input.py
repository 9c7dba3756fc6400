"""The decks a request sends: a decklist's text or a structured deck, and the request
bodies of validate, export, odds and batch that carry one.

A structured deck's entries are read by a plain loop when they are exactly what the
nested schema would give (`_plain_entries`, `plain_deck`: organizer software sends
thousands); anything else goes through the schema for marshmallow's own errors.
"""

from __future__ import annotations

from marshmallow import EXCLUDE, RAISE, Schema, ValidationError, fields, validates_schema
from marshmallow.validate import Length, OneOf, Range

from deckcheck.days import CheckDay
from rules.games import GAMES
from rules.model import MAX_COUNT

STYLES = ("text", "tts", "deck-code")
DECK_SECTIONS = tuple(dict.fromkeys(s for game in GAMES.values() for s in game.sections))


class DeckEntrySchema(Schema):
    class Meta:
        unknown = RAISE

    card = fields.String(
        required=True,
        validate=Length(min=1, max=200),
        metadata={"description": "card number or card name"},
    )
    count = fields.Integer(required=True, strict=True, validate=Range(1, MAX_COUNT))


class DeckEntries(fields.List):
    """A section's entries, each as DeckEntrySchema says. A deck holds dozens and a batch
    thousands, so a plain loop checks them; only a list with an entry it refuses goes
    through the nested schema, for marshmallow's own field-by-field errors."""

    def __init__(self, **kwargs) -> None:
        super().__init__(fields.Nested(DeckEntrySchema), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if _plain_entries(value):
            return value  # each exactly {card, count}, as the nested schema would give
        return super()._deserialize(value, attr, data, **kwargs)


def _plain_entries(entries: object) -> bool:
    """Is this a list of entries DeckEntrySchema takes as they are (each exactly a str
    `card` and an int `count` in range)? One loop: a batch asks it of every deck."""
    if type(entries) is not list:
        return False
    for item in entries:
        if type(item) is not dict or len(item) != 2:
            return False
        card, count = item.get("card"), item.get("count")
        if type(card) is not str or not 1 <= len(card) <= 200:
            return False
        if type(count) is not int or not 1 <= count <= MAX_COUNT:
            return False
    return True


class _DeckBase(Schema):
    class Meta:
        unknown = RAISE


# A structured deck: a list of entries per section of any game (the registry's), and a
# partner. Unknown section names are refused (a typo would drop cards).
DeckSchema = _DeckBase.from_dict(
    {
        **{section: DeckEntries(load_default=list) for section in DECK_SECTIONS},
        "partner": fields.String(load_default=None, allow_none=True, validate=Length(max=200)),
    },
    name="DeckSchema",
)


class DeckInputSchema(Schema):
    """Either `decklist` (text) or `deck` (structured), not both."""

    class Meta:
        unknown = EXCLUDE

    decklist = fields.String(metadata={"description": "a decklist as players paste it"})
    deck = fields.Nested(DeckSchema)

    @validates_schema
    def _one_deck(self, data: dict, **kwargs) -> None:
        if ("decklist" in data) == ("deck" in data):
            raise ValidationError("give exactly one of 'decklist' or 'deck'", "_schema")


class ValidateRequestSchema(DeckInputSchema):
    format = fields.String(required=True, validate=Length(min=1, max=80))
    date = CheckDay(
        load_default=None,
        allow_none=True,
        metadata={
            "description": "YYYY-MM-DD, or a DCG product code (BT13: the day it came out "
            "in English); default: today (UTC)"
        },
    )


class ExportRequestSchema(ValidateRequestSchema):
    style = fields.String(required=True, validate=OneOf(STYLES))


class OddsRequestSchema(ValidateRequestSchema):
    turn = fields.Integer(
        strict=True,  # `2.5` is not turn 2: refused, never rounded silently
        load_default=3,
        validate=Range(1, 20),
        metadata={"description": "odds of a card by the start of this turn of yours"},
    )


class BatchRequestSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    format = fields.String(required=True, validate=Length(min=1, max=80))
    date = CheckDay(load_default=None, allow_none=True)
    decks = fields.List(
        fields.Dict(),
        required=True,
        validate=Length(max=20000),
        metadata={"description": "each {id, decklist | deck}"},
    )


class BatchDeckSchema(DeckInputSchema):
    id = fields.Raw(load_default=None, metadata={"description": "the caller's id, echoed"})


_DECK_KEYS = frozenset((*DECK_SECTIONS, "partner"))


def plain_deck(deck: object) -> dict | None:
    """A structured deck as DeckSchema loads it, read by plain checks when the schema
    would take it as it is (every request of organizer software); None for anything
    else, which then goes through the schema for its own errors."""
    if type(deck) is not dict or not deck.keys() <= _DECK_KEYS:
        return None
    partner = deck.get("partner")
    if partner is not None and (type(partner) is not str or len(partner) > 200):
        return None
    loaded: dict = {"partner": partner}
    for section in DECK_SECTIONS:
        entries = deck.get(section, [])
        if not _plain_entries(entries):
            return None
        loaded[section] = entries  # each exactly {card, count}, as the schema would give
    return loaded
