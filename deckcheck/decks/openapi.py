"""The saved decks and collections API in the OpenAPI document (added by deckcheck.openapi)."""

from __future__ import annotations

from apispec import APISpec

from deckcheck.decks import schemas
from deckcheck.openapi_operation import Route, add_routes

ERRORS = {
    "400": "malformed JSON",
    "403": "bad-token: the edit token is missing or not this deck's (collection's)",
    "404": "deck-not-found, version-not-found or collection-not-found",
    "409": "nothing-to-undo: no change left to undo",
    "413": "body too large, or a list over 64 KB (list-too-large)",
    "422": "invalid request (details in error.details); nothing-read: a text that names no card",
    "429": "too many new decks (or collections), or new versions of one deck, from one address",
}
DECK = "/decks/{deck_id}"
COLLECTION = "/collections/{collection_id}"

# Route(path, method, summary, request schema, success status, success schema, error
# statuses, needs the edit token; query=)
ROUTES = [
    Route("/decks", "post", "Save a deck (version 1); the answer holds its edit token",
          schemas.DeckCreateSchema, "201", schemas.SavedDeckSchema,
          ("400", "413", "422", "429")),
    Route(DECK, "get", "A saved deck, judged as of today", None, "200",
          schemas.StoredDeckSchema, ("404",)),
    Route(DECK, "put", "Replace a deck's list: a new version", schemas.DeckReplaceSchema, "200",
          schemas.StoredDeckSchema, ("400", "403", "404", "413", "422", "429"), True),
    Route(DECK, "delete", "Delete a deck with all its versions", None, "204", None,
          ("403", "404"), True),
    Route(DECK + "/edit-token", "get", "204 when the Bearer token is the deck's edit token",
          None, "204", None, ("403", "404"), True),
    Route(DECK + "/versions", "get", "A deck's versions, a page at a time (oldest first)",
          None, "200", schemas.VersionListSchema, ("404", "422"), query=("after", "limit")),
    Route(DECK + "/versions/{number}", "get", "One version's list", None, "200",
          schemas.VersionSchema, ("404", "422")),
    Route(DECK + "/diff", "get", "Cards added, removed and changed between two versions",
          None, "200", schemas.DiffSchema, ("404", "422"), query=("from", "to")),
    Route("/decks/lookup", "post", "Many decks at once (at most 500 ids)", schemas.LookupSchema,
          "200", schemas.LookupResultSchema, ("400", "422")),
    Route(DECK + "/sample", "get", "A sample opening hand (the same seed, the same draw)",
          None, "200", schemas.SampleSchema, ("404", "422"), query=("seed",)),
    Route(DECK + "/missing", "get", "What a collection lacks for this deck", None, "200",
          schemas.MissingSchema, ("404",), query=("collection",)),
    Route("/collections", "post", "Save a collection; the answer holds its edit token",
          schemas.CollectionRequestSchema, "201", schemas.SavedCollectionSchema,
          ("400", "413", "422", "429")),
    Route(COLLECTION, "get", "A collection (names=true: with each card's name)", None, "200",
          schemas.CollectionSchema, ("404",), query=("names",)),
    Route(COLLECTION, "put", "Replace a collection's cards (dry_run=true: say what it would "
          "remove and add, change nothing)", schemas.CollectionRequestSchema,
          "200", schemas.CollectionSchema, ("400", "403", "404", "413", "422"), True,
          query=("dry_run",)),
    Route(COLLECTION, "patch", "Add, remove or set cards (a text that reads no card: 422)",
          schemas.CollectionEditSchema, "200", schemas.CollectionEditedSchema,
          ("400", "403", "404", "413", "422"), True),
    Route(COLLECTION + "/history", "get", "The last 20 changes, the newest first", None, "200",
          schemas.HistorySchema, ("404",)),
    Route(COLLECTION + "/undo", "post", "Undo the last change: the collection before it",
          None, "200", schemas.CollectionSchema, ("403", "404", "409"), True),
    Route(COLLECTION + "/export", "get", "The collection as CSV (number,name,count) or text",
          None, "200", "text/csv", ("404", "422"), query=("style",)),
    Route(COLLECTION + "/sets", "get", "Cards owned and playsets owned per set, newest first",
          None, "200", schemas.SetsSchema, ("404",)),
    Route(COLLECTION + "/products", "post", "Add a starter deck (product) or a playset of a set",
          schemas.ProductRequestSchema, "200", schemas.CollectionEditedSchema,
          ("400", "403", "404", "422"), True),
    Route(COLLECTION + "/buildable", "post", "Which decks it can build; a shopping list",
          schemas.BuildableRequestSchema, "200", schemas.BuildableSchema,
          ("400", "404", "422")),
]  # fmt: skip


def add_paths(api: APISpec) -> None:
    add_routes(api, ROUTES, "decks", ERRORS, "editToken", stored=True)


__all__ = ["add_paths"]
