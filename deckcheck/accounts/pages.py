"""The account pages: /account (create, sign in, passkeys, devices, a one-time link with
its QR code, sign out, delete) rendered on the server; static/account.js adds the
WebAuthn calls (a passkey needs script) and the buttons that call the API.

/account/link is where a one-time link opens: its secret is in the fragment, which never
reaches the server in an address; the script sends it to /api/v1/account/links/use.
"""

from __future__ import annotations

import io
import ipaddress
import re

import segno
from flask import Blueprint, Flask, render_template, request
from markupsafe import Markup

from deckcheck.accounts import api
from deckcheck.server import http, sessions

bp = Blueprint("account_pages", __name__)
# An origin the browser says it is at (the form's hidden field, set by the script).
ORIGIN = re.compile(r"https?://[A-Za-z0-9.-]{1,200}(:[0-9]{1,5})?")


def _on_an_ip() -> bool:
    """Is the page opened by an IP address (where browsers refuse passkeys)?"""
    host = (request.host or "").rsplit(":", 1)[0].strip("[]")
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _page(link: dict | None = None, status: int = 200):
    session = sessions.current() if sessions.COOKIE in request.cookies else None
    row = api.store().account(session.account_id) if session is not None else None
    context: dict[str, object] = {"ip_host": _on_an_ip(), "account": row, "link": link}
    if row is not None and session is not None:
        context["passkeys"] = api.store().passkeys(row["id"])
        context["sessions"] = [
            {**s, "current": s["id"] == session.id} for s in sessions.listed(row["id"])
        ]
        context["codes_left"] = api.store().codes_left(row["id"])
    return render_template("account.html", **context), status


@bp.get("/account")
def account():
    return _page()


@bp.post("/account/links")
def make_link():
    """A one-time link for another device, shown with its QR code (no script needed)."""
    account_id = sessions.required().account_id
    secret, expires = api.store().new_link(account_id)
    path = f"/account/link#{secret}"
    base = http.base_url()
    origin = request.form.get("origin", "")
    address = base + path if base else (origin + path if ORIGIN.fullmatch(origin) else path)
    return _page({"url": address, "expires_at": expires, "qr": _qr(address)})


def _qr(address: str) -> Markup:
    out = io.BytesIO()
    segno.make(address, error="m").save(
        out, kind="svg", border=2, xmldecl=False, svgns=True, omitsize=True, title="QR code"
    )
    return Markup(out.getvalue().decode())  # noqa: S704 - segno's own SVG, not user text


@bp.get("/account/link")
def use_link():
    return render_template("account_link.html")


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
