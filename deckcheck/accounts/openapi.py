"""The accounts API in the OpenAPI document (added by deckcheck.openapi)."""

from __future__ import annotations

from apispec import APISpec

from deckcheck.accounts import schemas as s
from deckcheck.openapi_operation import Route, add_routes

ERRORS = {
    "400": "malformed JSON; passkey-failed (the answer could not be verified, nothing "
    "changed), code-not-valid or link-not-valid (used, expired or wrong)",
    "401": "not-signed-in",
    "403": "cross-site: a request with a session that did not come from this site",
    "404": "passkey-not-found or session-not-found",
    "409": "last-passkey: an account keeps at least one passkey",
    "422": "invalid request (details in error.details)",
    "429": "too-many-attempts: sign-in attempts from one address or for one account",
}
A = "/account"
SIGN_IN = ("400", "403", "422", "429")
SIGNED = ("400", "401", "403")

# Route(path, method, summary, request schema, success status, success schema, errors)
ROUTES = [
    Route(A + "/register/options", "post", "Options to create an account's first passkey",
          s.NameSchema, "200", s.OptionsSchema, SIGN_IN),
    Route(A + "/register/verify", "post", "Create the account: its 10 recovery codes, shown once",
          s.CredentialSchema, "201", s.RegisteredSchema, SIGN_IN),
    Route(A + "/login/options", "post", "Options to sign in with a passkey", s.EmptySchema,
          "200", s.OptionsSchema, SIGN_IN),
    Route(A + "/login/verify", "post", "Sign in with a passkey", s.CredentialSchema, "200",
          s.SignedInSchema, SIGN_IN),
    Route(A + "/login/recovery", "post", "Sign in with a recovery code (each works once)",
          s.CodeSchema, "200", s.SignedInSchema, SIGN_IN),
    Route(A + "/links", "post", "A one-time sign-in link for another device (10 minutes)",
          s.EmptySchema, "201", s.LinkSchema, SIGNED),
    Route(A + "/links/use", "post", "Sign in with a one-time link's secret", s.SecretSchema,
          "200", s.SignedInSchema, SIGN_IN),
    Route(A, "get", "The signed-in account and its passkeys", None, "200",
          s.AccountAnswerSchema, ("401",)),
    Route(A, "delete", "Delete the account; its decks deleted or handed back with new tokens",
          s.DeleteSchema, "204", None, (*SIGNED, "422")),
    Route(A + "/passkeys/options", "post", "Options to add a passkey", s.EmptySchema, "200",
          s.OptionsSchema, SIGNED),
    Route(A + "/passkeys/verify", "post", "Add a passkey", s.CredentialSchema, "201",
          s.AccountAnswerSchema, SIGNED),
    Route(A + "/passkeys/{passkey_id}", "delete", "Remove a passkey (not the last)", None,
          "204", None, ("401", "403", "404", "409")),
    Route(A + "/sessions", "get", "The devices signed in", None, "200", s.SessionListSchema,
          ("401",)),
    Route(A + "/sessions", "delete", "Sign out every other device", None, "204", None,
          ("401", "403")),
    Route(A + "/sessions/{session_id}", "delete", "Sign one device out", None, "204", None,
          ("401", "403", "404")),
    Route(A + "/logout", "post", "Sign this device out", s.EmptySchema, "204", None,
          ("400", "403")),
]  # fmt: skip


def add_paths(api: APISpec) -> None:
    add_routes(api, ROUTES, "accounts", ERRORS)


__all__ = ["add_paths"]
