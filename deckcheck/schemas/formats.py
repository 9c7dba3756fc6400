"""What the API says of a format: its checks, its card lists over time (limits,
choice restrictions, the history file an organizer uploads), its release dates and
the products a game's sets come from."""

from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields


class CheckSchema(Schema):
    code = fields.String(required=True)
    rule = fields.String(required=True)


class ListEntrySchema(Schema):
    card = fields.String(required=True)
    name = fields.String()
    status = fields.String(required=True)


class ChoiceSchema(Schema):
    a = fields.List(fields.String(), required=True)
    b = fields.List(fields.String(), required=True)
    ends = fields.Date(metadata={"description": "the day it stops (in force until the day before)"})


class ListChangeSchema(Schema):
    effective = fields.Date(allow_none=True, required=True)
    announced = fields.Date(allow_none=True)
    enforced = fields.Boolean(required=True)
    confidence = fields.String(allow_none=True)
    doubt = fields.String(allow_none=True)
    limits = fields.List(fields.Nested(ListEntrySchema), required=True)
    choice_restrictions = fields.List(fields.Nested(ChoiceSchema), required=True)
    sources = fields.List(fields.String(), required=True)


class ReleaseSchema(Schema):
    set = fields.String(required=True)
    name = fields.String(required=True)
    in_stores = fields.Date(required=True, metadata={"description": "what `date: BT13` means"})
    earliest = fields.Date(
        required=True, metadata={"description": "first day any card of it was out in English"}
    )
    rests_on = fields.String(metadata={"description": "what `earliest` rests on"})


class CardReleaseSchema(Schema):
    product = fields.String(required=True, metadata={"description": "or the tournament list"})
    earliest = fields.Date(required=True, metadata={"description": "first day they were out"})
    rests_on = fields.String(
        required=True,
        metadata={"description": "in-stores, month-start, product-list, event or guess"},
    )
    verified = fields.Boolean(
        required=True,
        metadata={"description": "false: a guess, which warns (release-unverified)"},
    )
    note = fields.String(metadata={"description": "the source, or for a guess its doubt"})
    cards = fields.List(fields.String(), required=True)


class UndatedSetSchema(Schema):
    set = fields.String(required=True)
    why = fields.String(required=True)


class ReleasesSchema(Schema):
    sources = fields.List(fields.String())
    sets = fields.List(fields.Nested(ReleaseSchema))
    cards = fields.List(
        fields.Nested(CardReleaseSchema),
        metadata={"description": "cards dated apart from their set: promos, two-part boosters"},
    )
    undated = fields.List(
        fields.Nested(UndatedSetSchema),
        metadata={"description": "sets in the pool whose cards are not judged on release"},
    )


class ProductSchema(Schema):
    code = fields.String(required=True, metadata={"description": "`EX13`, `LM8`, `BT27`"})
    name = fields.String(required=True)
    label = fields.String(required=True, metadata={"description": "as printed: `EX-13`"})
    released = fields.String(
        required=True, allow_none=True, metadata={"description": "English day, or null"}
    )
    announced = fields.Boolean(required=True)
    rests_on = fields.String(required=True, metadata={"description": "in-stores, announced, guess"})
    when = fields.String(required=True, metadata={"description": "the day in words"})
    source = fields.String(required=True)
    numbers = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "`EX13-*` (every number of the set code) or `P-245..P-250`"},
    )
    cards_known = fields.Integer(required=True)


class ProductListSchema(Schema):
    data = fields.List(fields.Nested(ProductSchema), required=True)


class ListSourceSchema(Schema):
    source = fields.String(required=True)
    updated = fields.String(allow_none=True)


class FormatSchema(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    name = fields.String(required=True)
    extends = fields.String(allow_none=True)
    origin = fields.String()
    date = fields.Date(allow_none=True)
    sections = fields.List(fields.String())
    rules = fields.List(fields.String(), metadata={"description": "the rules in plain words"})
    sources = fields.List(fields.String())
    checks = fields.List(fields.Nested(CheckSchema))
    notes = fields.List(fields.String())
    lists = fields.List(fields.Nested(ListChangeSchema))
    releases = fields.Nested(ReleasesSchema, allow_none=True)
    lists_source = fields.Nested(ListSourceSchema)


class FormatErrorSchema(Schema):
    file = fields.String(required=True)
    message = fields.String(required=True)


class FormatListSchema(Schema):
    data = fields.List(fields.Nested(FormatSchema), required=True)
    errors = fields.List(fields.Nested(FormatErrorSchema), required=True)


class ListHistoryFileSchema(Schema):
    """The DCG list history in the shape `cardpool lists import` reads (contract); the
    shape grows by adding keys, so other keys are part of it."""

    class Meta:
        unknown = INCLUDE

    changes = fields.List(fields.Dict(), required=True)
