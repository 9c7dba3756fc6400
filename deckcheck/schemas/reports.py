"""What the API answers about a deck: a report (its deck, violations and warnings),
a batch's results, an export, the odds of a draw, and the one JSON error shape."""

from __future__ import annotations

from marshmallow import Schema, fields

from deckcheck.schemas.cards import IMAGE_URL, TYPES


class ViolationSchema(Schema):
    code = fields.String(required=True)
    message = fields.String(required=True)
    rule = fields.String(required=True)
    section = fields.String(allow_none=True)
    cards = fields.List(fields.String(), required=True)
    line = fields.Integer(allow_none=True)
    suggestions = fields.List(fields.String())
    candidates = fields.List(fields.String())
    hint = fields.String(
        metadata={"description": "unknown-card: `newer-set` when the card list may be behind"}
    )
    product = fields.String(
        metadata={"description": "unknown-card of an unconfirmed card: its product's code"}
    )
    released = fields.String(
        allow_none=True,
        metadata={"description": "with `product`: its English day, null when not known"},
    )


UNNAMED = "null for an unconfirmed card (`confirmed` false): the card list lacks it yet"
VERDICT = (
    "`legal` (no violation), `unconfirmed` (every violation is an unknown-card of a card "
    "the list lacks yet, of a product that is out) or `illegal`"
)


class DeckCardSchema(Schema):
    number = fields.String(required=True)
    name = fields.String(required=True, allow_none=True, metadata={"description": UNNAMED})
    count = fields.Integer(required=True)
    kind = fields.String(allow_none=True)
    level = fields.String(allow_none=True)
    colors = fields.List(fields.String())
    types = fields.List(fields.String(), metadata={"description": TYPES})
    image_url = fields.String(metadata={"description": IMAGE_URL})
    confirmed = fields.Boolean(
        metadata={"description": "false for an unconfirmed card (absent otherwise)"}
    )
    product = fields.String(metadata={"description": "an unconfirmed card's product"})


class SectionSchema(Schema):
    count = fields.Integer(required=True)
    cards = fields.List(fields.Nested(DeckCardSchema), required=True)


class UnresolvedSchema(Schema):
    """A line (or structured entry, line null) that named no card; count null if unreadable."""

    line = fields.Integer(allow_none=True, required=True)
    text = fields.String(required=True)
    count = fields.Integer(allow_none=True, required=True)


class DeckOutSchema(Schema):
    sections = fields.Dict(keys=fields.String(), values=fields.Nested(SectionSchema), required=True)
    partner = fields.String(allow_none=True, required=True)
    fingerprint = fields.String(required=True)
    name = fields.String(allow_none=True)
    style = fields.String()
    unresolved = fields.List(fields.Nested(UnresolvedSchema))


class FormatRefSchema(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    name = fields.String(required=True)
    date = fields.Date(required=True)


class ReportSchema(Schema):
    legal = fields.Boolean(required=True)
    verdict = fields.String(required=True, metadata={"description": VERDICT})
    format = fields.Nested(FormatRefSchema, required=True)
    deck = fields.Nested(DeckOutSchema, required=True)
    violations = fields.List(fields.Nested(ViolationSchema), required=True)
    warnings = fields.List(fields.Nested(ViolationSchema), required=True)


class ErrorDetailSchema(Schema):
    code = fields.String(required=True)
    message = fields.String(required=True)
    details = fields.Dict(required=True)


class ErrorSchema(Schema):
    error = fields.Nested(ErrorDetailSchema, required=True)


class BatchResultSchema(Schema):
    id = fields.Raw(allow_none=True)
    legal = fields.Boolean(required=True)
    verdict = fields.String(required=True, metadata={"description": VERDICT})
    violations = fields.List(fields.Nested(ViolationSchema), required=True)
    warnings = fields.List(fields.Nested(ViolationSchema), required=True)
    fingerprint = fields.String(allow_none=True, required=True)
    error = fields.Nested(ErrorDetailSchema)


class BatchResponseSchema(Schema):
    results = fields.List(fields.Nested(BatchResultSchema), required=True)
    warnings = fields.List(
        fields.Nested(ErrorDetailSchema),
        metadata={
            "description": "about the whole batch: `over-budget` when decks were left "
            "unchecked because the request used up its time budget (their results say so)"
        },
    )


class LeftOutSchema(Schema):
    """A line the export left out because it named no card (`deck.unresolved`)."""

    code = fields.String(required=True, metadata={"description": "left-out"})
    line = fields.Integer(allow_none=True, required=True)
    text = fields.String(required=True)
    count = fields.Integer(allow_none=True, required=True)
    message = fields.String(required=True)


class ExportResponseSchema(Schema):
    style = fields.String(required=True)
    content = fields.String(required=True)
    warnings = fields.List(
        fields.Nested(LeftOutSchema),
        required=True,
        metadata={"description": "lines that named no card, left out of `content`"},
    )


class OddsGroupSchema(Schema):
    label = fields.String(required=True)
    kind = fields.String(required=True, metadata={"description": "card, level, kind or name"})
    cards = fields.List(fields.String(), required=True)
    copies = fields.Integer(required=True)
    opening = fields.Float(required=True, metadata={"description": "P(at least one) in hand"})
    by_turn = fields.Dict(
        keys=fields.String(),
        values=fields.Float(),
        allow_none=True,
        required=True,
        metadata={"description": "going first / second; null when the hand refills"},
    )


class OddsResponseSchema(Schema):
    hand_size = fields.Integer(required=True)
    deck_size = fields.Integer(required=True)
    turn = fields.Integer(required=True)
    rule = fields.String(required=True)
    seen = fields.Dict(keys=fields.String(), values=fields.Integer(allow_none=True))
    groups = fields.List(fields.Nested(OddsGroupSchema), required=True)
    limits = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(allow_none=True),
        metadata={"description": "each card's copy limit in this format (null: none)"},
    )
