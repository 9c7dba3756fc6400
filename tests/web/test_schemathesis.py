"""schemathesis against the service's own OpenAPI document: no 5xx, every response
matches its schema (the starter pool; a bounded number of examples per operation).

The operations are driven one by one with hypothesis (schemathesis' own pytest
plugin does not load under this pytest version)."""

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from deckcheck.openapi import spec

# Every operation of the document the service serves (the events API included), so an
# endpoint added to the document is fuzzed without touching this file.
OPERATIONS = [
    f"{method.upper()} {path}"
    for path, operations in spec()["paths"].items()
    for method in operations
    if method != "parameters"
]


# schemathesis draws values from literals it finds in the app's source (its "constants
# pool"): it reads every module of the app again for each app it is given, 3.2 s of this
# module's 15.7 s of CPU (py-spy). The source is the same for every test's app, so the
# first pool is lent to the others, through the per-schema cache schemathesis keeps
# (a private field: should it go, each schema simply builds its own again).
_POOL: list[tuple] = []


def load(app) -> schemathesis.schemas.BaseSchema:
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    if _POOL and hasattr(schema, "_constants_pool_cache"):
        version, pool = _POOL[0]
        schema._constants_pool_cache = (app, version, pool)
    return schema


def keep_pool(schema) -> None:
    built = getattr(schema, "_constants_pool_cache", None)
    if built is not None and not _POOL:
        _POOL.append(built[1:])  # not the app: it would live as long as the process


@pytest.mark.parametrize("operation", OPERATIONS)
def test_api_conforms(app, operation):
    schema = load(app)
    method, path = operation.split(" ", 1)
    found = schema[path][method]

    @given(found.as_strategy())
    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
    def run(case):
        # Schema-valid requests may still break a rule the schema cannot state (a
        # deck code for a non-DCG format, over 1,000 lines): a clear 4xx is right then.
        case.call_and_validate(excluded_checks=[positive_data_acceptance])

    run()
    keep_pool(schema)
