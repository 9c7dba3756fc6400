"""marshmallow schemas of the decks and collections API: they validate requests and make
the OpenAPI document (deckcheck.decks.openapi)."""

from __future__ import annotations

from marshmallow import EXCLUDE, Schema, fields
from marshmallow.validate import Length, Range

from deckcheck.schemas import VERDICT, DeckInputSchema, UnresolvedSchema, ViolationSchema
from rules.games import DEFAULT_GAME

LOOKUP_MAX = 500


class DeckCreateSchema(DeckInputSchema):
    # Name and notes are checked after normalising (deckcheck.server.names).
    format = fields.String(required=True, validate=Length(min=1, max=80))
    name = fields.String(
        load_default=None,
        allow_none=True,
        metadata={"description": "at most 200 characters; default: the list's own name"},
    )
    notes = fields.String(
        load_default=None, allow_none=True, metadata={"description": "at most 4 KB"}
    )


class DeckReplaceSchema(DeckInputSchema):
    name = fields.String(metadata={"description": "at most 200 characters"})
    notes = fields.String(metadata={"description": "at most 4 KB"})


class LookupSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    ids = fields.List(
        fields.String(validate=Length(max=64)), required=True, validate=Length(max=LOOKUP_MAX)
    )


class VerdictSchema(Schema):
    legal = fields.Boolean(required=True)
    verdict = fields.String(required=True, metadata={"description": VERDICT})
    violations = fields.List(fields.Nested(ViolationSchema), required=True)
    warnings = fields.List(fields.Nested(ViolationSchema), required=True)
    unresolved = fields.List(fields.Nested(UnresolvedSchema))


class StoredDeckSchema(VerdictSchema):
    """Today's verdict (legal, violations, warnings, unresolved) and the deck's facts."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    format = fields.String(required=True)
    version = fields.Integer(required=True)
    versions = fields.Integer(required=True)
    created_at = fields.String(required=True)
    updated_at = fields.String(required=True)
    notes = fields.String(required=True)
    url = fields.String(required=True)
    feed_url = fields.String(required=True)
    fingerprint = fields.String(required=True)
    checked_on = fields.String(required=True, metadata={"description": "the day judged for"})
    changed = fields.Boolean(
        required=True, metadata={"description": "the verdict differs from the one last shown"}
    )
    was = fields.Nested(
        VerdictSchema, metadata={"description": "when changed: the verdict last shown"}
    )
    sections = fields.Dict(required=True, metadata={"description": "as in a validate answer"})
    partner = fields.String(allow_none=True, required=True)
    error = fields.String(metadata={"description": "format-gone: the format no longer exists"})


class SavedDeckSchema(Schema):
    deck = fields.Nested(StoredDeckSchema, required=True)
    edit_token = fields.String(
        required=True, metadata={"description": "keep it: it changes the deck"}
    )
    edit_url = fields.String(required=True)


class VersionSummarySchema(Schema):
    version = fields.Integer(required=True)
    saved_at = fields.String(required=True)
    fingerprint = fields.String(required=True)
    legal = fields.Boolean(required=True)
    verdict = fields.String(required=True, metadata={"description": VERDICT + " (as saved)"})


class VersionListSchema(Schema):
    data = fields.List(fields.Nested(VersionSummarySchema), required=True)
    has_more = fields.Boolean(metadata={"description": "more versions follow this page"})
    next_after = fields.Integer(
        allow_none=True, metadata={"description": "ask ?after=<this> for the next page"}
    )


class ListedCardSchema(Schema):
    number = fields.String(required=True)
    count = fields.Integer(required=True)


class UnreadSchema(Schema):
    text = fields.String(required=True)
    count = fields.Integer(required=True)


class VersionSchema(VersionSummarySchema):
    decklist = fields.String(metadata={"description": "the text as it was sent"})
    deck = fields.Dict(metadata={"description": "the structured deck as it was sent"})
    cards = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Nested(ListedCardSchema)),
        required=True,
        metadata={"description": "what it was read as: section -> cards"},
    )
    partner = fields.String(allow_none=True, required=True)
    unread = fields.List(fields.Nested(UnreadSchema), required=True)


class DiffCardSchema(Schema):
    number = fields.String(required=True)
    name = fields.String(required=True)
    count = fields.Integer(required=True)


class DiffChangeSchema(Schema):
    number = fields.String(required=True)
    name = fields.String(required=True)
    to = fields.Integer(required=True)
    from_ = fields.Integer(required=True, data_key="from")


# "from" is a Python keyword: this schema is made from a dict.
DiffSchema = Schema.from_dict(
    {
        "from": fields.Integer(required=True),
        "to": fields.Integer(required=True),
        "added": fields.List(fields.Nested(DiffCardSchema), required=True),
        "removed": fields.List(fields.Nested(DiffCardSchema), required=True),
        "changed": fields.List(fields.Nested(DiffChangeSchema), required=True),
    },
    name="DiffSchema",
)


class DeckSummarySchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    format = fields.String(required=True)
    legal = fields.Boolean(required=True)
    verdict = fields.String(required=True, metadata={"description": VERDICT})
    changed = fields.Boolean(required=True)
    updated_at = fields.String(required=True)
    version = fields.Integer(required=True)
    current = fields.Boolean(
        required=True,
        metadata={"description": "false: not judged again within this request's budget"},
    )


class LookupResultSchema(Schema):
    data = fields.List(fields.Nested(DeckSummarySchema), required=True)
    not_found = fields.List(fields.String(), required=True)


class SampleCardSchema(Schema):
    number = fields.String(required=True)
    name = fields.String(required=True)


class SampleSchema(Schema):
    seed = fields.Integer(required=True)
    hand = fields.List(fields.Nested(SampleCardSchema), required=True)
    security = fields.List(fields.Nested(SampleCardSchema), required=True)
    set_aside = fields.List(fields.Nested(SampleCardSchema), required=True)
    rule = fields.String(required=True)
    warnings = fields.List(fields.Dict(), required=True)


class MissingCardSchema(Schema):
    number = fields.String(required=True)
    name = fields.String(required=True)
    need = fields.Integer(required=True)
    have = fields.Integer(required=True)


class MissingSchema(Schema):
    missing = fields.List(fields.Nested(MissingCardSchema), required=True)
    cards_missing = fields.Integer(required=True)


class CollectionRequestSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    name = fields.String(load_default=None, allow_none=True)
    game = fields.String(load_default=DEFAULT_GAME, validate=Length(min=1, max=40))
    cards = fields.String(
        required=True,
        metadata={"description": "a decklist-style text, or `number,count` CSV lines"},
    )


class UnreadLineSchema(Schema):
    line = fields.Integer(required=True)
    text = fields.String(required=True)
    reason = fields.String(required=True)
    why = fields.String(metadata={"description": "the same as reason (the older key)"})


class CollectionSummarySchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    game = fields.String(required=True)
    entries = fields.Integer(required=True)
    url = fields.String(required=True, metadata={"description": "the read-only page /c/<id>"})
    created_at = fields.String(required=True)
    updated_at = fields.String(required=True)


class CollectionSchema(CollectionSummarySchema):
    cards = fields.List(fields.Nested(ListedCardSchema), required=True)
    unread = fields.List(
        fields.Nested(UnreadLineSchema), metadata={"description": "lines that named no card"}
    )


class ImportSchema(Schema):
    style = fields.String(
        required=True, metadata={"description": "text, csv, tcgplayer, cardmarket, digimoncard.app"}
    )
    columns_read = fields.List(fields.String(), required=True)
    columns_not_read = fields.List(fields.String(), required=True)


class SavedCollectionSchema(Schema):
    collection = fields.Nested(CollectionSchema, required=True)
    edit_token = fields.String(required=True)
    read = fields.Integer(required=True)
    unread = fields.List(fields.Nested(UnreadLineSchema), required=True)
    import_ = fields.Nested(ImportSchema, data_key="import", required=True)


class SetCountSchema(Schema):
    number = fields.String(required=True)
    count = fields.Integer(required=True, validate=Range(min=0, max=100_000))


class CollectionEditSchema(Schema):
    """Exactly one of add, remove and set."""

    add = fields.String(metadata={"description": "cards to add, as a collection is read"})
    remove = fields.String(metadata={"description": "cards to take away, read the same way"})
    set = fields.List(
        fields.Nested(SetCountSchema),
        validate=Length(max=20_000),
        metadata={"description": "the count to have per number; 0 removes it"},
    )
    name = fields.String(metadata={"description": "a new name (optional)"})


class EditedCardSchema(Schema):
    number = fields.String(required=True)
    count = fields.Integer(required=True, metadata={"description": "its count now (0: gone)"})


class EditedSummarySchema(CollectionSummarySchema):
    changed = fields.List(fields.Nested(EditedCardSchema), required=True)


class CollectionEditedSchema(Schema):
    collection = fields.Nested(EditedSummarySchema, required=True)
    read = fields.Integer(required=True, metadata={"description": "card lines read"})
    unread = fields.List(fields.Nested(UnreadLineSchema), required=True)
    import_ = fields.Nested(ImportSchema, data_key="import", required=True)


class CollectionChangeSchema(Schema):
    change = fields.String(required=True, metadata={"description": "add, remove, set, ..."})
    at = fields.String(required=True)
    added = fields.Integer(required=True, metadata={"description": "copies added"})
    removed = fields.Integer(required=True, metadata={"description": "copies taken away"})


class HistorySchema(Schema):
    data = fields.List(fields.Nested(CollectionChangeSchema), required=True)


class SetCompletionSchema(Schema):
    set = fields.String(required=True)
    cards = fields.Integer(required=True)
    owned = fields.Integer(required=True)
    playset_owned = fields.Integer(required=True)


class SetsSchema(Schema):
    data = fields.List(fields.Nested(SetCompletionSchema), required=True)


class ProductRequestSchema(Schema):
    """One of product (a starter deck, `ST1`) and playset (a set, `BT24`)."""

    product = fields.String(validate=Length(min=1, max=20))
    playset = fields.String(validate=Length(min=1, max=20))


class BuildableRequestSchema(Schema):
    decks = fields.List(
        fields.String(validate=Length(max=64)),
        validate=Length(max=LOOKUP_MAX),
        metadata={"description": "left out (or no body): the signed-in account's decks"},
    )


class BuildableDeckSchema(Schema):
    deck = fields.String(required=True)
    name = fields.String(required=True)
    complete = fields.Boolean(required=True)
    cards_missing = fields.Integer(required=True)


class BuildableSchema(Schema):
    data = fields.List(fields.Nested(BuildableDeckSchema), required=True)
    shopping_list = fields.List(fields.Nested(DiffCardSchema), required=True)
    shopping_text = fields.String(required=True)
    shopping_csv = fields.String(required=True)
    other_game = fields.List(fields.String(), required=True)
    not_found = fields.List(fields.String(), required=True)
    more_decks = fields.Boolean(
        metadata={"description": "the account has more decks than the newest 500 judged here"}
    )
