"""A software passkey for the API tests: real P-256 keys and ES256 signatures (the
`cryptography` package), real CBOR and COSE, so the server's py_webauthn verifies them
exactly as it verifies a phone's. Nothing of the server is mocked.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from base64 import urlsafe_b64decode, urlsafe_b64encode

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa

UP, UV, AT = 0x01, 0x04, 0x40


def b64(data: bytes) -> str:
    return urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftPasskey:
    """One credential, made by `create` and used by `get`."""

    def __init__(
        self, origin: str = "http://localhost", rp_id: str = "localhost", rsa_key: bool = False
    ) -> None:
        """An ES256 (P-256) credential, or with `rsa_key` an RS256 (RSA 2048) one."""
        self.origin, self.rp_id = origin, rp_id
        self.rsa = rsa_key
        if rsa_key:
            self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        else:
            self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = secrets.token_bytes(16)
        self.user_handle: bytes | None = None
        self.count = 0

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        data = {"type": kind, "challenge": challenge, "origin": origin or self.origin,
                "crossOrigin": False}  # fmt: skip
        return json.dumps(data).encode()

    def _cose(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        if self.rsa:
            n = numbers.n.to_bytes(256, "big")
            e = numbers.e.to_bytes(3, "big")
            return cbor2.dumps({1: 3, 3: -257, -1: n, -2: e})
        x, y = numbers.x.to_bytes(32, "big"), numbers.y.to_bytes(32, "big")
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: x, -3: y})

    def _auth_data(self, flags: int, rp_id: str | None, attested: bytes = b"") -> bytes:
        rp_hash = hashlib.sha256((rp_id or self.rp_id).encode()).digest()
        return rp_hash + bytes([flags]) + self.count.to_bytes(4, "big") + attested

    def create(self, options: dict, origin: str | None = None, rp_id: str | None = None) -> dict:
        """A RegistrationResponseJSON answering `options`."""
        self.user_handle = unb64(options["user"]["id"])
        client = self._client_data("webauthn.create", options["challenge"], origin)
        attested = (
            bytes(16) + len(self.credential_id).to_bytes(2, "big") + self.credential_id
            + self._cose()
        )  # fmt: skip
        auth = self._auth_data(UP | UV | AT, rp_id, attested)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth})
        return {
            "id": b64(self.credential_id),
            "rawId": b64(self.credential_id),
            "type": "public-key",
            "response": {"clientDataJSON": b64(client), "attestationObject": b64(attestation),
                         "transports": ["internal"]},
            "clientExtensionResults": {},
        }  # fmt: skip

    def get(self, options: dict, origin: str | None = None, rp_id: str | None = None) -> dict:
        """An AuthenticationResponseJSON answering `options` (the counter goes up)."""
        self.count += 1
        client = self._client_data("webauthn.get", options["challenge"], origin)
        auth = self._auth_data(UP | UV, rp_id)
        signed = auth + hashlib.sha256(client).digest()
        if self.rsa:
            signature = self.key.sign(signed, padding.PKCS1v15(), hashes.SHA256())
        else:
            signature = self.key.sign(signed, ec.ECDSA(hashes.SHA256()))
        return {
            "id": b64(self.credential_id),
            "rawId": b64(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(client),
                "authenticatorData": b64(auth),
                "signature": b64(signature),
                "userHandle": b64(self.user_handle or b""),
            },
            "clientExtensionResults": {},
        }
