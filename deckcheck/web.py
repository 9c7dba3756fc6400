"""The HTML pages (filled in below)."""

from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("web", __name__)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
