"""The events API in the OpenAPI document (added by deckcheck.openapi)."""

from __future__ import annotations

from apispec import APISpec

from deckcheck.events import schemas

BEARER: list[dict[str, list[str]]] = [{"adminToken": []}]
ERRORS = {
    "400": "malformed JSON",
    "404": "no such event (or submission)",
    "401": "no admin token (Authorization: Bearer <token>), or no key to create events",
    "403": "the admin token is not this event's (or the edit token no current list's), or "
    "the key to create events is wrong",
    "409": "event-locked (past the deadline or locked), player-exists (send the edit "
    "token), player-dropped, event-full",
    "413": "body too large, or a list over 64 KB (list-too-large)",
    "422": "invalid request (details in error.details)",
    "429": "too many submissions (or new events) from one address",
}
EVENT = "/events/{event_id}"

# path, method, summary, request schema, success status, success schema or media type,
# error statuses, organizer only
ROUTES = [
    ("/events", "post", "Create an event", schemas.EventRequestSchema, "201",
     schemas.CreatedEventSchema, ("400", "401", "403", "413", "422", "429"), False),
    (EVENT, "get", "An event (no token; players = how many sent a list)", None, "200",
     schemas.EventSchema, ("404",), False),
    (EVENT, "patch", "Change an event (move its deadline, set its time zone)",
     schemas.EventChangeSchema, "200",
     schemas.EventSchema, ("400", "401", "403", "404", "422"), True),
    (EVENT, "delete", "Delete an event with all its lists", None, "204", None,
     ("401", "403", "404"), True),
    (EVENT + "/submissions", "post", "Submit a player's list", schemas.SubmissionRequestSchema,
     "201", schemas.SubmittedSchema, ("400", "403", "404", "409", "413", "422", "429"), False),
    (EVENT + "/submissions", "get", "Every player's latest list, judged again now", None, "200",
     schemas.SubmissionListSchema, ("401", "403", "404"), True),
    (EVENT + "/submissions/mine", "get", "The list an edit token (Authorization: Bearer "
     "<edit_token>) belongs to, with its text: a private link fills the form with it", None,
     "200", schemas.OwnSubmissionSchema, ("401", "403", "404"), False),
    (EVENT + "/submissions.csv", "get", "The same as CSV (with a decklist column)", None,
     "200", "text/csv", ("401", "403", "404"), True),
    (EVENT + "/lock", "post", "Lock the event (no more lists)", None, "200",
     schemas.EventSchema, ("401", "403", "404"), True),
    (EVENT + "/unlock", "post", "Unlock the event", None, "200", schemas.EventSchema,
     ("401", "403", "404"), True),
    (EVENT + "/submissions/{submission_id}", "delete", "Drop a player", None, "204", None,
     ("401", "403", "404"), True),
    (EVENT + "/submissions/{submission_id}", "get", "One player's current list, with its "
     "text (the organizer's table shows it on demand)", None, "200",
     schemas.OwnSubmissionSchema, ("401", "403", "404"), True),
    (EVENT + "/submissions/{submission_id}/merge", "post", "One player written twice: this "
     "row's list stays, the other row's lists (from) join its history",
     schemas.MergeRequestSchema, "200", schemas.RestoredSchema,
     ("400", "401", "403", "404", "422"), True),
    (EVENT + "/submissions/{submission_id}/restore", "post", "Take a dropped player back",
     None, "200", schemas.RestoredSchema, ("401", "403", "404", "409"), True),
]  # fmt: skip


def _operation(summary, body, status, success, errors, admin) -> dict:
    if success is None:
        ok: dict = {"description": "Done"}
    elif isinstance(success, str):
        ok = {"description": "OK", "content": {success: {"schema": {"type": "string"}}}}
    else:
        ok = {"description": "OK", "content": {"application/json": {"schema": success}}}
    operation: dict = {
        "summary": summary,
        "tags": ["events"],
        "parameters": [
            {"in": "path", "name": name, "required": True, "schema": {"type": "string"}}
            for name in ("event_id", "submission_id")
        ],
        "responses": {status: ok},
    }
    for code in (*errors, "405"):
        operation["responses"][code] = {
            "description": ERRORS.get(code, "wrong method"),
            "content": {"application/json": {"schema": "Error"}},
        }
    if admin:
        operation["security"] = BEARER
    if body is not None:
        operation["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": body}},
        }
    return operation


def add_paths(api: APISpec) -> None:
    api.components.security_scheme("adminToken", {"type": "http", "scheme": "bearer"})
    paths: dict[str, dict] = {}
    for path, method, summary, body, status, success, errors, admin in ROUTES:
        operation = _operation(summary, body, status, success, errors, admin)
        operation["parameters"] = [p for p in operation["parameters"] if f"{{{p['name']}}}" in path]
        paths.setdefault(path, {})[method] = operation
    for path, operations in paths.items():
        api.path(path=path, operations=operations)
