"""Passkeys on py_webauthn (warehouse's utils/webauthn.py is the model): options as
WebAuthn JSON, one verify function per ceremony, every failure one exception.

The relying party is the host of DECKCHECK_BASE_URL (`localhost` without it). The
origin a response must come from is DECKCHECK_BASE_URL's; without one, the origin the
browser signed, if its host is the relying party (any port; http only on localhost):
the browser itself refuses a relying party that is not the page's host.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import urlsplit

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, parse_client_data_json
from webauthn.helpers.cose import COSEAlgorithmIdentifier
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AttestationConveyancePreference,
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

ALGORITHMS = [
    COSEAlgorithmIdentifier.ECDSA_SHA_256,
    COSEAlgorithmIdentifier.RSASSA_PKCS1_v1_5_SHA_256,
]
TIMEOUT_MS = 300_000  # the challenge's own lifetime: 5 minutes
# What malformed input makes the library (or its CBOR and base64 readers) raise.
MALFORMED = (WebAuthnException, ValueError, TypeError, KeyError, IndexError, AttributeError)


class PasskeyFailed(Exception):
    """The response proves nothing: malformed, wrong challenge, origin or signature."""


@dataclass(frozen=True)
class NewPasskey:
    credential_id: str  # base64url
    public_key: str  # base64url of the COSE key
    sign_count: int


def rp_id(base_url: str) -> str:
    return (urlsplit(base_url).hostname if base_url else None) or "localhost"


def registration_options(
    base_url: str, user_id: str, name: str, challenge: bytes, exclude: list[str]
) -> dict:
    options = generate_registration_options(
        rp_id=rp_id(base_url),
        rp_name="deckcheck",
        user_name=name,
        user_id=user_id.encode(),
        user_display_name=name,
        challenge=challenge,
        timeout=TIMEOUT_MS,
        attestation=AttestationConveyancePreference.NONE,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in exclude
        ],
        supported_pub_key_algs=ALGORITHMS,
    )
    return json.loads(options_to_json(options))


def authentication_options(base_url: str, challenge: bytes) -> dict:
    options = generate_authentication_options(
        rp_id=rp_id(base_url),
        challenge=challenge,
        timeout=TIMEOUT_MS,
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    return json.loads(options_to_json(options))


def _client_data(credential: dict):
    try:
        raw = base64url_to_bytes(credential["response"]["clientDataJSON"])
        return parse_client_data_json(raw)
    except MALFORMED as err:
        raise PasskeyFailed("unreadable clientDataJSON") from err


def challenge_of(credential: object) -> bytes:
    """The challenge a response answers (to find it among those handed out)."""
    if not isinstance(credential, dict):
        raise PasskeyFailed("not a credential")
    return _client_data(credential).challenge


def _origin(base_url: str, credential: dict) -> str:
    if base_url:
        parts = urlsplit(base_url)
        return f"{parts.scheme}://{parts.netloc}"
    signed = urlsplit(_client_data(credential).origin)
    host, party = signed.hostname or "", rp_id(base_url)
    if (host == party or host.endswith("." + party)) and (
        signed.scheme == "https" or (signed.scheme == "http" and host == "localhost")
    ):
        return f"{signed.scheme}://{signed.netloc}"
    return f"https://{party}"  # what it should have been: the check below fails


def verify_registration(base_url: str, credential: dict, challenge: bytes) -> NewPasskey:
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=rp_id(base_url),
            expected_origin=_origin(base_url, credential),
            supported_pub_key_algs=ALGORITHMS,
        )
    except MALFORMED as err:
        raise PasskeyFailed(str(err)) from err
    return NewPasskey(
        bytes_to_base64url(verified.credential_id),
        bytes_to_base64url(verified.credential_public_key),
        verified.sign_count,
    )


def verify_authentication(
    base_url: str, credential: dict, challenge: bytes, public_key: str, sign_count: int
) -> int:
    """The authenticator's new signature counter."""
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=rp_id(base_url),
            expected_origin=_origin(base_url, credential),
            credential_public_key=base64url_to_bytes(public_key),
            credential_current_sign_count=sign_count,
        )
    except MALFORMED as err:
        raise PasskeyFailed(str(err)) from err
    return verified.new_sign_count


def user_handle(credential: dict) -> str | None:
    """The account id the authenticator names (a discoverable credential does)."""
    handle = (credential.get("response") or {}).get("userHandle")
    if not handle:
        return None
    try:
        return base64url_to_bytes(handle).decode()
    except MALFORMED + (UnicodeDecodeError,) as err:
        raise PasskeyFailed("unreadable userHandle") from err
