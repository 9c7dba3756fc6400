"""marshmallow schemas of the events API: they validate requests and make the
OpenAPI document (deckcheck.openapi)."""

from __future__ import annotations

from marshmallow import EXCLUDE, Schema, fields
from marshmallow.validate import Length

from deckcheck.schemas import DeckInputSchema, UnresolvedSchema, ViolationSchema


class EventRequestSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    name = fields.String(required=True, validate=Length(min=1, max=200))
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


class EventChangeSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    deadline = fields.String(validate=Length(min=1, max=40))
    name = fields.String(validate=Length(min=1, max=200))
    description = fields.String(validate=Length(max=2000))


class EventSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    format = fields.String(required=True)
    date = fields.String(required=True)
    deadline = fields.String(required=True)
    deadline_utc = fields.String(required=True)
    description = fields.String(required=True)
    locked = fields.Boolean(required=True)
    open = fields.Boolean(required=True)
    submit_url = fields.String(required=True)
    players = fields.Integer()


class CreatedEventSchema(EventSchema):
    admin_url = fields.String(required=True)
    admin_token = fields.String(required=True)


class SubmissionRequestSchema(DeckInputSchema):
    player = fields.String(required=True, validate=Length(min=1, max=200))
    player_id = fields.String(load_default="", validate=Length(max=100))


class SubmissionSchema(Schema):
    id = fields.String(required=True)
    player = fields.String(required=True)
    player_id = fields.String(required=True)
    submitted_at = fields.String(required=True)
    fingerprint = fields.String(required=True)
    legal = fields.Boolean(required=True)
    violations = fields.List(fields.Nested(ViolationSchema), required=True)
    warnings = fields.List(fields.Nested(ViolationSchema), required=True)
    receipt_url = fields.String(required=True)
    unresolved = fields.List(fields.Nested(UnresolvedSchema))


class SubmittedSchema(Schema):
    submission = fields.Nested(SubmissionSchema, required=True)


class JudgedSubmissionSchema(SubmissionSchema):
    submitted_legal = fields.Boolean(required=True)
    changed = fields.Boolean(required=True)
    new_violations = fields.List(fields.Nested(ViolationSchema), required=True)
    version = fields.Integer(required=True)
    error = fields.String()


class SubmissionListSchema(Schema):
    data = fields.List(fields.Nested(JudgedSubmissionSchema), required=True)
