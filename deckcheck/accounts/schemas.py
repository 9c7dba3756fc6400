"""The accounts API's bodies and answers, for the OpenAPI document (the views read their
bodies with plain checks: a WebAuthn answer is verified by py_webauthn, not here)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate


class NameSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=60))


class EmptySchema(Schema):
    """No field is read."""


class CredentialSchema(Schema):
    """A RegistrationResponseJSON or AuthenticationResponseJSON (WebAuthn Level 3)."""

    id = fields.String(required=True)
    rawId = fields.String(required=True)  # noqa: N815 - the WebAuthn name
    type = fields.String(required=True)
    response = fields.Dict(required=True)
    clientExtensionResults = fields.Dict()  # noqa: N815


class OptionsSchema(Schema):
    """PublicKeyCredentialCreationOptions / RequestOptions as WebAuthn JSON."""

    challenge = fields.String(required=True, metadata={"description": "base64url"})
    timeout = fields.Integer(required=True)
    rp = fields.Dict()
    user = fields.Dict()
    pubKeyCredParams = fields.List(fields.Dict())  # noqa: N815
    attestation = fields.String()
    authenticatorSelection = fields.Dict()  # noqa: N815
    excludeCredentials = fields.List(fields.Dict())  # noqa: N815
    allowCredentials = fields.List(fields.Dict())  # noqa: N815
    rpId = fields.String()  # noqa: N815
    userVerification = fields.String()  # noqa: N815


class AccountSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    created_at = fields.String(required=True)


class PasskeySchema(Schema):
    id = fields.String(required=True)
    created_at = fields.String(required=True)
    last_used_at = fields.String(required=True, allow_none=True)


class AccountWithPasskeysSchema(AccountSchema):
    passkeys = fields.List(fields.Nested(PasskeySchema), required=True)


class SignedInSchema(Schema):
    account = fields.Nested(AccountSchema, required=True)


class RegisteredSchema(SignedInSchema):
    recovery_codes = fields.List(fields.String(), required=True)


class AccountAnswerSchema(Schema):
    account = fields.Nested(AccountWithPasskeysSchema, required=True)


class CodeSchema(Schema):
    code = fields.String(required=True, validate=validate.Length(min=1, max=200))


class SecretSchema(Schema):
    secret = fields.String(required=True, validate=validate.Length(min=1, max=200))


class LinkSchema(Schema):
    url = fields.String(required=True, metadata={"description": "/account/link#<secret>"})
    expires_at = fields.String(required=True)


class SessionSchema(Schema):
    id = fields.String(required=True)
    created_at = fields.String(required=True)
    last_seen_at = fields.String(required=True)
    current = fields.Boolean(required=True)


class SessionListSchema(Schema):
    data = fields.List(fields.Nested(SessionSchema), required=True)


class DeleteSchema(Schema):
    decks = fields.String(required=True, validate=validate.OneOf(["delete", "keep"]))


class HandedSchema(Schema):
    id = fields.String(required=True)
    edit_token = fields.String(required=True)


class HandedBackSchema(Schema):
    decks = fields.List(fields.Nested(HandedSchema), required=True)
    collections = fields.List(fields.Nested(HandedSchema), required=True)
