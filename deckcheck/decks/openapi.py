"""The saved decks and collections API in the OpenAPI document (added by deckcheck.openapi)."""

from __future__ import annotations

from apispec import APISpec

from deckcheck.decks import schemas

TOKEN: list[dict[str, list[str]]] = [{"editToken": []}]
ERRORS = {
    "400": "malformed JSON",
    "403": "bad-token: the edit token is missing or not this deck's (collection's)",
    "404": "deck-not-found, version-not-found or collection-not-found",
    "413": "body too large, or a list over 64 KB (list-too-large)",
    "422": "invalid request (details in error.details)",
    "429": "too many new decks (or collections) from one address",
}
DECK = "/decks/{deck_id}"
COLLECTION = "/collections/{collection_id}"

# path, method, summary, request schema, success status, success schema, query parameters,
# error statuses, needs the edit token
ROUTES = [
    ("/decks", "post", "Save a deck (version 1); the answer holds its edit token",
     schemas.DeckCreateSchema, "201", schemas.SavedDeckSchema, (),
     ("400", "413", "422", "429"), False),
    (DECK, "get", "A saved deck, judged as of today", None, "200", schemas.StoredDeckSchema, (),
     ("404",), False),
    (DECK, "put", "Replace a deck's list: a new version", schemas.DeckReplaceSchema, "200",
     schemas.StoredDeckSchema, (), ("400", "403", "404", "413", "422"), True),
    (DECK, "delete", "Delete a deck with all its versions", None, "204", None, (),
     ("403", "404"), True),
    (DECK + "/versions", "get", "A deck's versions", None, "200", schemas.VersionListSchema,
     (), ("404",), False),
    (DECK + "/versions/{number}", "get", "One version's list", None, "200",
     schemas.VersionSchema, (), ("404", "422"), False),
    (DECK + "/diff", "get", "Cards added, removed and changed between two versions", None,
     "200", schemas.DiffSchema, ("from", "to"), ("404", "422"), False),
    ("/decks/lookup", "post", "Many decks at once (at most 500 ids)", schemas.LookupSchema,
     "200", schemas.LookupResultSchema, (), ("400", "422"), False),
    (DECK + "/sample", "get", "A sample opening hand (the same seed, the same draw)", None,
     "200", schemas.SampleSchema, ("seed",), ("404", "422"), False),
    (DECK + "/missing", "get", "What a collection lacks for this deck", None, "200",
     schemas.MissingSchema, ("collection",), ("404",), False),
    ("/collections", "post", "Save a collection; the answer holds its edit token",
     schemas.CollectionRequestSchema, "201", schemas.SavedCollectionSchema, (),
     ("400", "413", "422", "429"), False),
    (COLLECTION, "get", "A collection", None, "200", schemas.CollectionSchema, (), ("404",),
     False),
    (COLLECTION, "put", "Replace a collection's cards", schemas.CollectionRequestSchema, "200",
     schemas.CollectionSchema, (), ("400", "403", "404", "413", "422"), True),
]  # fmt: skip


def _operation(path, summary, body, status, success, query, errors, token) -> dict:
    if success is None:
        ok: dict = {"description": "Done"}
    else:
        ok = {"description": "OK", "content": {"application/json": {"schema": success}}}
    names = [part[1:-1] for part in path.split("/") if part.startswith("{")]
    operation: dict = {
        "summary": summary,
        "tags": ["decks"],
        "parameters": [
            *(
                {"in": "path", "name": n, "required": True, "schema": {"type": "string"}}
                for n in names
            ),
            *(
                {"in": "query", "name": n, "required": False, "schema": {"type": "string"}}
                for n in query
            ),
        ],  # fmt: skip
        "responses": {status: ok},
    }
    for code in (*errors, "405"):
        operation["responses"][code] = {
            "description": ERRORS.get(code, "wrong method"),
            "content": {"application/json": {"schema": "Error"}},
        }
    if token:
        operation["security"] = TOKEN
    if body is not None:
        operation["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": body}},
        }
    return operation


def add_paths(api: APISpec) -> None:
    api.components.security_scheme("editToken", {"type": "http", "scheme": "bearer"})
    paths: dict[str, dict] = {}
    for path, method, *rest in ROUTES:
        paths.setdefault(path, {})[method] = _operation(path, *rest)
    for path, operations in paths.items():
        api.path(path=path, operations=operations)


__all__ = ["add_paths"]
