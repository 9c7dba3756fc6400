"""The account's decks and collections in the OpenAPI document (deckcheck.decks.owned)."""

from __future__ import annotations

from apispec import APISpec
from marshmallow import Schema, fields

from deckcheck.decks.owned import ClaimSchema
from deckcheck.decks.schemas import DeckSummarySchema
from deckcheck.openapi_operation import Route, add_routes

ERRORS = {
    "400": "malformed JSON",
    "401": "not-signed-in",
    "403": "cross-site: a request with a session that did not come from this site",
    "422": "invalid request (details in error.details)",
}


class OwnedDecksSchema(Schema):
    data = fields.List(fields.Nested(DeckSummarySchema), required=True)


class OwnedCollectionSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    game = fields.String(required=True)
    entries = fields.Integer(required=True)
    created_at = fields.String(required=True)
    updated_at = fields.String(required=True)


class OwnedCollectionsSchema(Schema):
    data = fields.List(fields.Nested(OwnedCollectionSchema), required=True)


class ClaimedSchema(Schema):
    type = fields.String(required=True, metadata={"description": "deck or collection"})
    id = fields.String(required=True)
    reason = fields.String(metadata={"description": "refused: not-found, bad-token or owned"})


class ClaimResultSchema(Schema):
    claimed = fields.List(fields.Nested(ClaimedSchema), required=True)
    refused = fields.List(fields.Nested(ClaimedSchema), required=True)


ROUTES = [
    Route("/account/decks", "get", "The signed-in account's decks", None, "200",
          OwnedDecksSchema, ("401",)),
    Route("/account/collections", "get", "The signed-in account's collections", None, "200",
          OwnedCollectionsSchema, ("401",)),
    Route("/account/claim", "post", "Make decks and collections this browser holds tokens "
          "of the account's", ClaimSchema, "200", ClaimResultSchema, ("400", "401", "403", "422")),
]  # fmt: skip


def add_paths(api: APISpec) -> None:
    add_routes(api, ROUTES, "accounts", ERRORS)
