"""The events API in the OpenAPI document (added by deckcheck.openapi)."""

from __future__ import annotations

from apispec import APISpec

from deckcheck.events import schemas
from deckcheck.openapi_operation import Route, add_routes

ERRORS = {
    "400": "malformed JSON",
    "404": "no such event (or submission), or not-published (lists)",
    "401": "no admin token (Authorization: Bearer <token>), or no key to create events",
    "403": "the admin token is not this event's (or the edit token no current list's), or "
    "the key to create events is wrong",
    "409": "event-locked (past the deadline or locked), player-exists (send the edit "
    "token), player-dropped, event-full",
    "413": "body too large, or a list over 64 KB (list-too-large)",
    "422": "invalid request (details in error.details)",
    "429": "too-many-submissions (of one player, or from one address), too-many-new-players "
    "(from one address), too-many-events",
}
EVENT = "/events/{event_id}"

# Route(path, method, summary, request schema, success status, success schema or media
# type, error statuses, organizer only)
ROUTES = [
    Route("/events", "post", "Create an event", schemas.EventRequestSchema, "201",
     schemas.CreatedEventSchema, ("400", "401", "403", "413", "422", "429"), False),
    Route(EVENT, "get", "An event (no token; players = how many sent a list)", None, "200",
     schemas.EventSchema, ("404",), False),
    Route(EVENT, "patch", "Change an event (move its deadline, set its time zone, publish "
     "its lists, its cut-off at lock, raise its per-address limits)",
     schemas.EventChangeSchema, "200",
     schemas.EventSchema, ("400", "401", "403", "404", "422"), True),
    Route(EVENT, "delete", "Delete an event with all its lists", None, "204", None,
     ("401", "403", "404"), True),
    Route(EVENT + "/submissions", "post", "Submit a player's list", schemas.SubmissionRequestSchema,
     "201", schemas.SubmittedSchema, ("400", "403", "404", "409", "413", "422", "429"), False),
    Route(EVENT + "/submissions", "get", "Every player's latest list, judged again now", None,
     "200", schemas.SubmissionListSchema, ("401", "403", "404"), True),
    Route(EVENT + "/submissions/mine", "get", "The list an edit token (Authorization: Bearer "
     "<edit_token>) belongs to, with its text: a private link fills the form with it", None,
     "200", schemas.OwnSubmissionSchema, ("401", "403", "404"), False),
    Route(EVENT + "/submissions.csv", "get", "The same as CSV (with a decklist column)", None,
     "200", "text/csv", ("401", "403", "404"), True),
    Route(EVENT + "/lock", "post", "Lock the event (no more lists); with cutoff drop, players "
     "whose list is illegal are dropped", None, "200",
     schemas.EventSchema, ("401", "403", "404"), True),
    Route(EVENT + "/unlock", "post", "Unlock the event; the cut-off's drops are back", None,
     "200", schemas.EventSchema,
     ("401", "403", "404"), True),
    Route(EVENT + "/submissions/{submission_id}", "delete", "Drop a player", None, "204", None,
     ("401", "403", "404"), True),
    Route(EVENT + "/submissions/{submission_id}", "get", "One player's current list, with its "
     "text (the organizer's table shows it on demand)", None, "200",
     schemas.OwnSubmissionSchema, ("401", "403", "404"), True),
    Route(EVENT + "/submissions/{submission_id}/merge", "post", "One player written twice: this "
     "row's list stays, the other row's lists (from) join its history",
     schemas.MergeRequestSchema, "200", schemas.RestoredSchema,
     ("400", "401", "403", "404", "422"), True),
    Route(EVENT + "/submissions/{submission_id}/restore", "post", "Take a dropped player back",
     None, "200", schemas.RestoredSchema, ("401", "403", "404", "409"), True),
    Route(EVENT + "/submissions/{submission_id}", "patch", "Mark a list: published (for "
     "\"marked\" publishing), accepted (a \"needs a look\" list, legal for the cut-off)",
     schemas.MarksRequestSchema, "200", schemas.MarkedSubmissionSchema,
     ("400", "401", "403", "404", "422"), True),
    Route(EVENT + "/submissions/{submission_id}/check-in", "post", "Check a player in",
     None, "200", schemas.MarkedSubmissionSchema, ("401", "403", "404"), True),
    Route(EVENT + "/submissions/{submission_id}/check-in", "delete", "Undo a check-in",
     None, "200", schemas.MarkedSubmissionSchema, ("401", "403", "404"), True),
    Route(EVENT + "/changes", "get", "What changed since a cursor (submitted, replaced, "
     "dropped, restored, checked-in), oldest first, at most 500; the organizer's page "
     "polls it", None, "200", schemas.ChangesSchema, ("401", "403", "404", "422"), True,
     query=("since",)),
    Route(EVENT + "/lists", "get", "The published lists (names, never player ids), once the "
     "deadline has passed or the event is locked and the organizer publishes",
     None, "200", schemas.OpenListsSchema, ("404",), False),
    Route(EVENT + "/players.csv", "get", "One line per player: name, player_id, legal, "
     "verdict, fingerprint, submitted_at", None, "200", "text/csv", ("401", "403", "404"), True),
    Route(EVENT + "/lists.json", "get", "Every list in Limitless's shape and as a DCG deck code",
     None, "200", schemas.ExportedListsSchema, ("401", "403", "404"), True),
    Route(EVENT + "/cards.csv", "get", "One line per card: player, section, number, name, count",
     None, "200", "text/csv", ("401", "403", "404"), True),
]  # fmt: skip


def add_paths(api: APISpec) -> None:
    add_routes(api, ROUTES, "events", ERRORS, "adminToken", stored=True)
