"""The OpenAPI 3 document, generated from the marshmallow schemas that validate."""

from __future__ import annotations

from functools import cache

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from deckcheck import __version__, schemas
from deckcheck.accounts import openapi as accounts_openapi
from deckcheck.decks import openapi as decks_openapi
from deckcheck.decks import owned_openapi
from deckcheck.events import openapi as events_openapi
from deckcheck.openapi_operation import HEALTH_503, Route, add_routes

ERRORS = {
    "400": "malformed JSON",
    "404": "not found",
    "405": "wrong method",
    "413": "body too large",
    "415": "not JSON: send JSON (a form post or a body of another type)",
    "422": "invalid request (details in error.details)",
    "429": "too many at once (validate-batch: the server's batch slots are taken); try again",
    "503": "the request ran past the server's timeout and was stopped (request-timeout)",
}


# Route(path, method, summary, request body schema, success status, success schema,
# error statuses; query_schema=)
ROUTES = [
    Route("/decks/validate", "post", "Validate one deck", schemas.ValidateRequestSchema, "200",
          schemas.ReportSchema, ("400", "413", "415", "422")),
    Route("/decks/validate-batch", "post", "Validate many decks in one call",
          schemas.BatchRequestSchema, "200", schemas.BatchResponseSchema,
          ("400", "413", "415", "422", "429")),
    Route("/decks/export", "post", "Export a resolved deck as text, TTS JSON or a deck code",
          schemas.ExportRequestSchema, "200", schemas.ExportResponseSchema,
          ("400", "413", "415", "422")),
    Route("/decks/odds", "post", "Opening-hand odds of each card and group (hypergeometric)",
          schemas.OddsRequestSchema, "200", schemas.OddsResponseSchema,
          ("400", "413", "415", "422")),
    Route("/formats", "get", "List formats (and broken organizer files)", None, "200",
          schemas.FormatListSchema, ()),
    Route("/formats/{format_id}", "get", "One format: rules in words and dated lists", None,
          "200", schemas.FormatSchema, ("404",)),
    Route("/cards", "get", "Search or list cards (a paginated list object)", None, "200",
          schemas.CardListSchema, ("404", "422"), query_schema=schemas.CardQuerySchema),
    Route("/cards/{game}/{number}", "get", "One card", None, "200", schemas.CardSchema,
          ("404",)),
    Route("/", "get", "This API's index: the document's address and every operation "
          "(HTML unless JSON is asked for by name)", None, "200", schemas.ApiIndexSchema, ()),
    Route("/health", "get", "Cheap liveness check (503 while the database takes no writes)",
          None, "200", schemas.HealthSchema, ("503",)),
    Route("/pools", "get", "How current each card list is", None, "200",
          schemas.PoolListSchema, ()),
    Route("/formats/dcg/products", "get",
          "Every DCG product by its English date (released and announced), with sources",
          None, "200", schemas.ProductListSchema, ()),
    Route("/formats/dcg/lists", "get",
          "The DCG list history, in the shape `cardpool lists import` reads", None, "200",
          schemas.ListHistoryFileSchema, ()),
]  # fmt: skip


ONE_DECK = [{"required": ["decklist"]}, {"required": ["deck"]}]
ONE_OF_SCHEMAS = ("ValidateRequest", "ExportRequest", "OddsRequest")


def spec(format_ids: tuple[str, ...] = ()) -> dict:
    """The document; `format_ids` (built-in and organizer formats) become an enum."""
    return _spec(tuple(sorted(format_ids)))


def _refine(document: dict, format_ids: tuple[str, ...]) -> dict:
    """What marshmallow cannot say: exactly one of decklist / deck, the known format ids,
    the index page's HTML beside its JSON, health's own 503."""
    document["paths"]["/"]["get"]["responses"]["200"]["content"]["text/html"] = {
        "schema": {"type": "string"}
    }
    document["paths"]["/health"]["get"]["responses"]["503"]["description"] = HEALTH_503
    components = document["components"]["schemas"]
    for name in ONE_OF_SCHEMAS:
        components[name]["oneOf"] = ONE_DECK
    if format_ids:
        for name in (*ONE_OF_SCHEMAS, "BatchRequest"):
            components[name]["properties"]["format"]["enum"] = list(format_ids)
    return document


@cache
def _spec(format_ids: tuple[str, ...]) -> dict:
    api = APISpec(
        title="deckcheck",
        version=__version__,
        openapi_version="3.0.3",
        plugins=[MarshmallowPlugin()],
        info={"description": "Deck legality for four Digimon card games."},
        servers=[{"url": "/api/v1"}],
    )
    api.components.schema("Error", schema=schemas.ErrorSchema)
    add_routes(api, ROUTES, None, ERRORS)
    events_openapi.add_paths(api)
    decks_openapi.add_paths(api)
    accounts_openapi.add_paths(api)
    owned_openapi.add_paths(api)
    return _refine(_with_common_errors(api.to_dict()), format_ids)


def _with_common_errors(document: dict) -> dict:
    """Every operation that reads a JSON body answers 415 to a body that is not JSON
    (deckcheck.bodies.json_body); any operation may be stopped by the worker's watchdog
    (503, deckcheck.watchdog). The events routes too."""
    for operations in document["paths"].values():
        for operation in operations.values():
            reads_json = "application/json" in operation.get("requestBody", {}).get("content", {})
            for status in ("415", "503") if reads_json else ("503",):
                operation["responses"].setdefault(
                    status,
                    {
                        "description": ERRORS[status],
                        "content": {"application/json": {"schema": {"$ref": _ERROR_REF}}},
                    },
                )
    return document


_ERROR_REF = "#/components/schemas/Error"
