"""The one reader of request bodies for every JSON endpoint: the raw body (held to its
limit by `deckcheck.security` before any view runs), strict JSON into a dict (400
`malformed-json`, or 415 when the body was sent as something else), and a schema load
(422 with the fields' errors). Views of every product call these, so a body is read
the same way everywhere."""

from __future__ import annotations

import orjson
from flask import request
from marshmallow import Schema, ValidationError
from werkzeug.wsgi import get_content_length

from deckcheck.errors import ApiError


def raw_body() -> bytes:
    """The request body, read straight from the server's stream.

    `deckcheck.security` held the length to its limit before the view ran (a chunked
    body was read and given a length there), so werkzeug's stream wrappers, which cost
    more than the read itself, add nothing here. No usable length: no body, as werkzeug
    would give. A body shorter than its length reads short and fails as JSON (400).
    """
    environ = request.environ
    # Read from the environ as it stands now (`request.content_length` is cached from
    # before a chunked body was given its length): None when missing, malformed or chunked.
    length = get_content_length(environ)
    if not length:
        return b""
    return environ["wsgi.input"].read(length)


def json_body(raw: bytes | None = None) -> dict:
    if raw is None:
        raw = raw_body()
    try:
        data = orjson.loads(raw)
    except (orjson.JSONDecodeError, RecursionError) as err:
        _refuse_unless_declared_json()
        raise ApiError(400, "malformed-json", f"The body is not valid JSON: {err}") from err
    if not isinstance(data, dict):
        _refuse_unless_declared_json()
        raise ApiError(400, "malformed-json", "The body must be a JSON object.")
    return data


def _refuse_unless_declared_json() -> None:
    """415 for a body that is not a JSON object and was sent as something else (a form
    post, a file upload, text): the sender used the wrong kind of body, and a JSON
    parser's complaint ("invalid literal") would only confuse them. A body sent as JSON,
    or with no type at all, that does not parse stays a 400 malformed-json. A JSON object
    sent under another type (`curl -d '{...}'` says form-encoded) is read: it is JSON."""
    mimetype = request.mimetype
    if not mimetype or mimetype == "application/json" or mimetype.endswith("+json"):
        return
    raise ApiError(
        415,
        "unsupported-media-type",
        "This address reads a JSON object only: send JSON (Content-Type: application/json).",
        {"content_type": mimetype or None},
    )


def load(
    schema: Schema,
    data: dict,
    code: str = "invalid-request",
    message: str = "Some fields are missing or wrong.",
) -> dict:
    try:
        return schema.load(data)
    except ValidationError as err:
        raise ApiError(422, code, message, {"fields": err.messages}) from err
