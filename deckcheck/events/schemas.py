"""marshmallow schemas of the events API: they validate requests and make the
OpenAPI document (deckcheck.openapi)."""

from __future__ import annotations

from marshmallow import EXCLUDE, Schema, fields
from marshmallow.validate import Length, OneOf

from deckcheck.schemas import VERDICT, DeckInputSchema, UnresolvedSchema, ViolationSchema

PUBLISH = ("none", "all", "marked")
CUTOFF = ("none", "mark", "drop")


def venue_fields() -> tuple:
    """What an organizer sets for an event at a venue (create and PATCH alike)."""
    return (
        fields.String(
            validate=OneOf(PUBLISH),
            metadata={"description": "which lists /e/<id>/lists shows once lists close"},
        ),
        fields.String(
            validate=OneOf(CUTOFF),
            metadata={"description": "at lock, illegal lists are marked (mark) or dropped (drop)"},
        ),
        fields.Dict(
            metadata={
                "description": 'raise the per-address limits: {"address_limit": "1000/600", '
                '"new_players_limit": "600/600"}'
            }
        ),
    )


class EventRequestSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    publish, cutoff, venue = venue_fields()

    # Length and characters are checked after normalising (deckcheck.server.names).
    name = fields.String(required=True, metadata={"description": "at most 200 characters"})
    format = fields.String(required=True, validate=Length(min=1, max=80))
    date = fields.Date(
        load_default=None, allow_none=True, metadata={"description": "default: the deadline's day"}
    )
    deadline = fields.String(
        required=True,
        validate=Length(min=1, max=40),
        metadata={"description": "ISO 8601 with its offset, e.g. 2026-12-05T09:00:00+01:00"},
    )
    description = fields.String(load_default="", validate=Length(max=2000))
    time_zone = fields.String(
        load_default=None,
        metadata={
            "description": "an IANA name (Europe/Paris) or an offset (+01:00); the sheets "
            "and the organizer's table write times in it. Default: the deadline's offset"
        },
    )
    early = fields.List(
        fields.String(validate=Length(min=1, max=20)),
        load_default=None,
        validate=Length(min=1, max=20),
        metadata={
            "description": "DCG: products legal early (a pre-release event), e.g. "
            '["BT24"]: their cards count as released from the event\'s date'
        },
    )


class EventChangeSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    deadline = fields.String(validate=Length(min=1, max=40))
    name = fields.String(metadata={"description": "at most 200 characters"})
    description = fields.String(validate=Length(max=2000))
    time_zone = fields.String(metadata={"description": "an IANA name or an offset"})
    publish, cutoff, venue = venue_fields()


class EventSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    format = fields.String(required=True)
    date = fields.String(required=True)
    deadline = fields.String(required=True)
    deadline_utc = fields.String(required=True)
    description = fields.String(required=True)
    time_zone = fields.String(required=True)
    early = fields.List(fields.String(), metadata={"description": "products legal early"})
    locked = fields.Boolean(required=True)
    open = fields.Boolean(required=True)
    submit_url = fields.String(required=True)
    players = fields.Integer()
    publish = fields.String(required=True)
    cutoff = fields.String(required=True)
    venue = fields.Dict(required=True, metadata={"description": "the per-address limits"})
    lists_url = fields.String(required=True)


class CreatedEventSchema(EventSchema):
    admin_url = fields.String(required=True)
    admin_token = fields.String(required=True)


class SubmissionRequestSchema(DeckInputSchema):
    # Length and characters are checked after normalising (deckcheck.server.names).
    player = fields.String(required=True, metadata={"description": "at most 100 characters"})
    player_id = fields.String(load_default="", metadata={"description": "at most 100 characters"})
    edit_token = fields.String(
        load_default=None,
        validate=Length(max=200),
        metadata={"description": "the token of the player's first list: replaces it"},
    )


class SubmissionSchema(Schema):
    id = fields.String(required=True)
    player = fields.String(required=True)
    player_id = fields.String(required=True)
    submitted_at = fields.String(required=True)
    fingerprint = fields.String(required=True)
    legal = fields.Boolean(required=True)
    verdict = fields.String(required=True, metadata={"description": VERDICT})
    violations = fields.List(fields.Nested(ViolationSchema), required=True)
    warnings = fields.List(fields.Nested(ViolationSchema), required=True)
    receipt_url = fields.String(required=True)
    unresolved = fields.List(fields.Nested(UnresolvedSchema))
    verdict = fields.String(
        required=True, metadata={"description": "legal, illegal or unconfirmed"}
    )
    checked_in = fields.Boolean(required=True)


class OwnSubmissionSchema(Schema):
    submission = fields.Nested(SubmissionSchema, required=True)
    decklist = fields.String(
        required=True, metadata={"description": "the list as text, to fill the form with"}
    )


class SubmittedSchema(Schema):
    submission = fields.Nested(SubmissionSchema, required=True)
    edit_token = fields.String(
        required=True, metadata={"description": "keep it: it replaces this player's list"}
    )


class RestoredSchema(Schema):
    submission = fields.Nested(SubmissionSchema, required=True)


class AlikeSchema(Schema):
    id = fields.String(required=True)
    player = fields.String(required=True)


class JudgedSubmissionSchema(SubmissionSchema):
    needs_look = fields.Boolean(required=True)
    accepted = fields.Boolean(required=True)
    published = fields.Boolean(required=True)
    cut_off = fields.Boolean(required=True)
    submitted_legal = fields.Boolean(required=True)
    changed = fields.Boolean(required=True)
    new_violations = fields.List(fields.Nested(ViolationSchema), required=True)
    version = fields.Integer(required=True)
    error = fields.String()
    alike = fields.List(
        fields.Nested(AlikeSchema),
        required=True,
        metadata={
            "description": "rows that look like the same player (same letters or "
            "player id): the organizer may merge them"
        },
    )


class MarksRequestSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    published = fields.Boolean(metadata={"description": 'shown when the event publishes "marked"'})
    accepted = fields.Boolean(
        metadata={"description": 'a "needs a look" list accepted: legal for the cut-off'}
    )


class MarksSchema(Schema):
    verdict = fields.String(required=True, metadata={"description": "of today"})
    needs_look = fields.Boolean(required=True)
    accepted = fields.Boolean(required=True)
    published = fields.Boolean(required=True)
    checked_in = fields.Boolean(required=True)
    cut_off = fields.Boolean(required=True, metadata={"description": "marked by the cut-off"})


class SubmissionWithMarksSchema(SubmissionSchema, MarksSchema):
    pass


class MarkedSubmissionSchema(Schema):
    submission = fields.Nested(SubmissionWithMarksSchema, required=True)


class MergeRequestSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    merge_from = fields.String(
        required=True,
        data_key="from",
        validate=Length(min=1, max=32),
        metadata={
            "description": "the other row (a submission id): its lists join this "
            "row's history; this row's list stays current"
        },
    )


class SubmissionListSchema(Schema):
    data = fields.List(fields.Nested(JudgedSubmissionSchema), required=True)


class ChangedSubmissionSchema(SubmissionWithMarksSchema):
    status = fields.String(
        required=True, metadata={"description": "current, replaced or dropped (now)"}
    )


class TableChangeSchema(Schema):
    kind = fields.String(
        required=True,
        validate=OneOf(("submitted", "replaced", "dropped", "restored", "checked-in")),
    )
    submission = fields.Nested(ChangedSubmissionSchema, required=True)


class ChangesSchema(Schema):
    data = fields.List(fields.Nested(TableChangeSchema), required=True)
    cursor = fields.String(
        required=True, metadata={"description": "ask again with ?since=<cursor>"}
    )


class OpenListCardSchema(Schema):
    number = fields.String(required=True)
    name = fields.String(required=True)
    count = fields.Integer(required=True)


class OpenListSchema(Schema):
    player = fields.String(required=True)
    legal = fields.Boolean(required=True)
    verdict = fields.String(required=True)
    deck = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Nested(OpenListCardSchema)),
        required=True,
        metadata={"description": "section -> cards"},
    )
    deck_code = fields.String(allow_none=True, required=True)


class OpenListsSchema(Schema):
    data = fields.List(fields.Nested(OpenListSchema), required=True)


class ExportedListSchema(Schema):
    player = fields.String(required=True)
    limitless = fields.Dict(
        required=True,
        metadata={"description": "digimon, tamer, option, egg: [{count, name, set, number}]"},
    )
    deck_code = fields.String(allow_none=True, required=True)


class ExportedListsSchema(Schema):
    data = fields.List(fields.Nested(ExportedListSchema), required=True)
