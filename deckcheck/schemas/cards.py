"""What the API says of cards and card pools: a card, a search's query and page,
each game's pool and its list syncs, health, and the API's index."""

from __future__ import annotations

from marshmallow import EXCLUDE, Schema, fields
from marshmallow.validate import Length, OneOf, Range

from cardpool.search import MAX_QUERY, ORDERS
from deckcheck.days import CheckDay
from rules.games import GAMES
from rules.numbers import MAX_TOKEN

# Numbers one card search may name (`number=`): a page's worth, the most `per_page` allows.
MAX_NUMBERS = 200

IMAGE_URL = (
    "the card's image, present when its game has an image URL template (DECKCHECK_CARD_IMAGES)"
)
# Deprecated (issue 33), kept for one release: a DCG card's `types` is a copy of its
# `colors`, and `play_cost` a copy of `cost`. Read `colors` and `cost`.
TYPES = (
    "Digi-Battle, DMCG and DBE: the card's types. DCG: a copy of `colors`, deprecated: "
    "read `colors` (DCG cards carry no `types` from the next release)"
)
PLAY_COST = "a copy of `cost`, deprecated: read `cost` (removed in the next release)"


class CardLimitSchema(Schema):
    format = fields.String(required=True)
    status = fields.String(required=True)
    effective = fields.Date(allow_none=True)
    announced = fields.Date(allow_none=True)
    doubt = fields.String(allow_none=True)


class CardSchema(Schema):
    game = fields.String(required=True)
    number = fields.String(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True)
    level = fields.String(allow_none=True, required=True)
    types = fields.List(fields.String(), metadata={"description": TYPES})
    aliases = fields.List(fields.String())
    evo_names = fields.List(fields.String())
    flags = fields.List(fields.String())
    max_copies = fields.Integer(allow_none=True)
    set = fields.String(allow_none=True)
    name_ja = fields.String(allow_none=True)
    colors = fields.List(fields.String())
    traits = fields.List(fields.String())
    play_cost = fields.Integer(
        allow_none=True, metadata={"deprecated": True, "description": PLAY_COST}
    )
    dp = fields.Integer(allow_none=True)
    rarity = fields.String(allow_none=True)
    cost = fields.Integer(allow_none=True, metadata={"description": "DCG: the play cost"})
    text = fields.String(allow_none=True)
    treated_as = fields.String(allow_none=True)
    limits = fields.List(fields.Nested(CardLimitSchema))
    image_url = fields.String(metadata={"description": IMAGE_URL})


class CardListSchema(Schema):
    data = fields.List(fields.Nested(CardSchema), required=True)
    total = fields.Integer(required=True)
    page = fields.Integer(required=True)
    has_more = fields.Boolean(required=True)
    did_you_mean = fields.String(allow_none=True)
    note = fields.String(
        metadata={
            "description": "why the search may find less than expected, e.g. a text term"
            " (o:, text:) on a card list that has no card text"
        }
    )


class CardQuerySchema(Schema):
    """`GET /api/v1/cards` and the card browser (contract "Card search syntax")."""

    class Meta:
        unknown = EXCLUDE

    # The registry itself, not a copy taken at import: every registered game is searched.
    game = fields.String(load_default=None, validate=OneOf(GAMES))
    q = fields.String(
        load_default=None,
        validate=Length(max=MAX_QUERY),
        metadata={
            "description": 'the query language of the contract: words, "phrases", '
            "numbers, k: lv: c: t: cost dp set: is:, -term"
        },
    )
    kind = fields.String(load_default=None, validate=Length(max=40))
    level = fields.String(load_default=None, validate=Length(max=40))
    color = fields.List(
        fields.String(validate=Length(max=40)),
        load_default=None,
        validate=Length(max=8),
        metadata={"description": "repeat for several colours; all must match"},
    )
    order = fields.String(load_default="number", validate=OneOf(ORDERS))
    date = CheckDay(
        load_default=None, metadata={"description": "for is:banned / is:restricted; default today"}
    )
    page = fields.Integer(load_default=1, validate=Range(1, 100000))
    per_page = fields.Integer(load_default=50, validate=Range(1, 200))
    number = fields.List(
        fields.String(validate=Length(min=1, max=MAX_TOKEN)),
        load_default=None,
        validate=Length(max=MAX_NUMBERS),
        metadata={
            "description": f"repeat for several (at most {MAX_NUMBERS}): only the cards of "
            "these numbers, each card once, as the builder learns a whole deck's cards in one "
            "request; needs `game`; a number no card has is left out"
        },
    )
    collection = fields.String(
        load_default=None,
        validate=Length(min=1, max=64),
        metadata={
            "description": "a collection's id (POST /api/v1/collections): only the cards it "
            "holds, any printing of each; `total` and paging count those. An unknown id is "
            "a 404 `collection-not-found`"
        },
    )


class LastSyncSchema(Schema):
    at = fields.String(required=True)
    result = fields.String(required=True, validate=OneOf(["ok", "unchanged", "failed"]))
    message = fields.String(required=True)


class ListsStatusSchema(Schema):
    source = fields.String(required=True, metadata={"description": "where the history came from"})
    updated = fields.String(required=True, allow_none=True)
    changes = fields.Integer(required=True)
    last_sync = fields.Nested(
        LastSyncSchema,
        required=True,
        allow_none=True,
        metadata={"description": "the last `cardpool lists sync` (DECKCHECK_LISTS_URL)"},
    )


class AddedProductSchema(Schema):
    product = fields.String(required=True)
    source = fields.String(required=True)
    added_at = fields.String(required=True)
    cards = fields.Integer(required=True)


class PoolSchema(Schema):
    game = fields.String(required=True)
    cards = fields.Integer(required=True)
    newest_sets = fields.List(fields.String(), required=True)
    source = fields.String(required=True, allow_none=True)
    imported_at = fields.String(required=True, allow_none=True)
    list_date = fields.String(allow_none=True, metadata={"description": "the date the list is of"})
    last_sync = fields.Nested(LastSyncSchema, required=True, allow_none=True)
    added = fields.List(
        fields.Nested(AddedProductSchema),
        metadata={"description": "products merged in with `cardpool add`, with their sources"},
    )
    lists = fields.Nested(
        ListsStatusSchema,
        metadata={"description": "DCG: its banned / restricted history, beside the cards"},
    )


class PoolListSchema(Schema):
    data = fields.List(fields.Nested(PoolSchema), required=True)


class HealthSchema(Schema):
    status = fields.String(required=True)
    version = fields.String(required=True)


class ApiOperationSchema(Schema):
    method = fields.String(required=True)
    path = fields.String(required=True)
    summary = fields.String(required=True)


class ApiIndexSchema(Schema):
    """`GET /api/v1` asked for JSON: where the OpenAPI document is and what it holds."""

    openapi = fields.String(required=True)
    title = fields.String(required=True)
    version = fields.String(required=True)
    operations = fields.List(fields.Nested(ApiOperationSchema), required=True)
