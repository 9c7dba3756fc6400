"""Accounts with passkeys (contract "Accounts"): optional; a display name, passkeys and
recovery codes, signed in on several devices, owning decks and collections.

`init_app` registers the API and the /account pages. Sessions and who may change what
are the server layer's (deckcheck.server), which the decks ask; this package never
imports another product. docs/accounts.md says how it is used and run.
"""

from __future__ import annotations

import os

from flask import Flask


def init_app(app: Flask) -> None:
    from deckcheck.accounts import api, manage, pages  # noqa: F401 - manage adds routes
    from deckcheck.server.limits import parse_rate

    app.config.setdefault(
        "ACCOUNTS_SIGNIN_LIMIT",
        parse_rate("DECKCHECK_SIGNIN_LIMIT", os.environ.get("DECKCHECK_SIGNIN_LIMIT"), "20/300"),
    )
    app.register_blueprint(api.bp)
    pages.init_app(app)
