"""marshmallow schemas: the single description of the JSON API.

Requests are loaded (validated) with them; responses are built as plain dicts
on the hot path and held to these schemas by the tests and by schemathesis; the
OpenAPI document is generated from them.
"""

from __future__ import annotations

from marshmallow import EXCLUDE, INCLUDE, RAISE, Schema, ValidationError, fields, validates_schema
from marshmallow.validate import Length, OneOf, Range

from cardpool.search import MAX_QUERY, ORDERS
from deckcheck.days import CheckDay
from rules.games import GAMES

MAX_COUNT = 1000
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


IMAGE_URL = (
    "the card's image, present when its game has an image URL template (DECKCHECK_CARD_IMAGES)"
)
# Deprecated (issue 33), kept for one release: a DCG card's `types` is a copy of its
# `colors`, and `play_cost` a copy of `cost`. Read `colors` and `cost`.
TYPES = (
    "Digi-Battle, DMCG and DBE: the card's types. DCG: a copy of `colors`, deprecated: "
    "read `colors` (DCG cards carry no `types` from the next release)"
)
UNNAMED = "null for an unconfirmed card (`confirmed` false): the card list lacks it yet"
VERDICT = (
    "`legal` (no violation), `unconfirmed` (every violation is an unknown-card of a card "
    "the list lacks yet, of a product that is out) or `illegal`"
)
PLAY_COST = "a copy of `cost`, deprecated: read `cost` (removed in the next release)"


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


class ListHistoryFileSchema(Schema):
    """The DCG list history in the shape `cardpool lists import` reads (contract); the
    shape grows by adding keys, so other keys are part of it."""

    class Meta:
        unknown = INCLUDE

    changes = fields.List(fields.Dict(), required=True)


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
