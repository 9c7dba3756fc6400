"""One OpenAPI operation from a route's row: the document's three parts (deckcheck/openapi.py,
deckcheck/events/openapi.py, deckcheck/decks/openapi.py) describe their routes as rows of
a table and build each operation here, the same way."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from apispec import APISpec

# What a 503 means on an operation that reads or writes the events database (events,
# saved decks, collections), beside the watchdog's request-timeout.
STORE_503 = (
    "events-busy: the database is busy or does not take writes right now (nothing was "
    "stored: send it again, Retry-After); or request-timeout (the request ran past the "
    "server's timeout)"
)
HEALTH_503 = (
    "database-not-writable: the events database takes no writes right now (why in "
    "error.details.cause); or request-timeout"
)


@dataclass(frozen=True)
class Route:
    """One operation: `success` is a response schema, a media type ("text/csv"), or None
    for an answer with no body; `errors` the error statuses it may answer (405 always);
    `query` names of string query parameters, or `query_schema` a schema of them."""

    path: str
    method: str
    summary: str
    body: object | None
    status: str
    success: object | None
    errors: tuple[str, ...]
    secured: bool = False
    query: tuple[str, ...] = field(default=())
    query_schema: object | None = None


def _string_parameters(where: str, names: Iterable[str], required: bool) -> list[dict]:
    return [
        {"in": where, "name": name, "required": required, "schema": {"type": "string"}}
        for name in names
    ]


def _success(success: object | None) -> dict:
    if success is None:
        return {"description": "Done"}
    if isinstance(success, str):
        return {"description": "OK", "content": {success: {"schema": {"type": "string"}}}}
    return {"description": "OK", "content": {"application/json": {"schema": success}}}


def operation(
    route: Route, tag: str | None, error_words: Mapping[str, str], scheme: str | None
) -> dict:
    """The operation of `route`, tagged `tag` (if any); an error status's description
    from `error_words`; a secured route asks for the bearer `scheme`."""
    in_path = [part[1:-1] for part in route.path.split("/") if part.startswith("{")]
    parameters = [
        *_string_parameters("path", in_path, True),
        *_string_parameters("query", route.query, False),
    ]
    if route.query_schema is not None:
        parameters.append({"in": "query", "schema": route.query_schema})
    built: dict = {"summary": route.summary}
    if tag is not None:
        built["tags"] = [tag]
    built["parameters"] = parameters
    built["responses"] = {route.status: _success(route.success)}
    for code in (*route.errors, "405"):
        built["responses"][code] = {
            "description": error_words.get(code, "wrong method"),
            "content": {"application/json": {"schema": "Error"}},
        }
    if route.secured:
        built["security"] = [{scheme: []}]
    if route.body is not None:
        built["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": route.body}},
        }
    return built


def add_routes(
    api: APISpec,
    routes: Iterable[Route],
    tag: str | None,
    errors: Mapping[str, str],
    scheme: str | None = None,
    stored: bool = False,
) -> None:
    """Every route in `api`, the operations of one path together (apispec takes a path
    once); `scheme`, when given, is declared as a bearer token. `stored`: the routes read
    or write the events database, so each may answer 503 `events-busy` (STORE_503)."""
    if scheme is not None:
        api.components.security_scheme(scheme, {"type": "http", "scheme": "bearer"})
    if stored:
        errors = {**errors, "503": STORE_503}
    paths: dict[str, dict] = {}
    for route in routes:
        if stored and "503" not in route.errors:
            route = replace(route, errors=(*route.errors, "503"))
        paths.setdefault(route.path, {})[route.method] = operation(route, tag, errors, scheme)
    for path, operations in paths.items():
        api.path(path=path, operations=operations)
