"""Static files at addresses that change with their contents, kept by browsers a year.

Every page links its styles and scripts through `url_for("static", ...)`; each such
address carries `?v=` and the first characters of the file's SHA-256. A browser keeps a
file fetched so for a year without asking again (`immutable`), so a player moving from
page to page on a slow phone sends one request per page, not one per file; a new
release changes the digest, so the new file is fetched at once. An address without the
current digest (an old page, a hand-typed link) is answered with the file as before,
checked again on each use.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from flask import Flask, request

YEAR = 365 * 24 * 3600
KEY = "deckcheck.assets"


class Digests:
    """The digest of each static file, read once per process (a release restarts the
    workers: gunicorn.conf.py)."""

    def __init__(self, folder: str | None) -> None:
        self.folder = Path(folder) if folder else None
        self.known: dict[str, str] = {}

    def of(self, filename: str) -> str:
        """`filename`'s digest; "" when it is no file of the folder. Only files are
        kept: any address may ask, and a name kept per miss would let a client grow
        the process without end."""
        found = self.known.get(filename)
        if found is None:
            found = self._read(filename)
            if found:
                self.known[filename] = found
        return found

    def _read(self, filename: str) -> str:
        if self.folder is None:
            return ""
        try:
            path = (self.folder / filename).resolve()
            if not path.is_relative_to(self.folder.resolve()) or not path.is_file():
                return ""
            return hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        except (OSError, ValueError):
            # Any address reaches here: a NUL byte, a name too long for the file
            # system. Not a file of the folder, so no digest (and Flask answers 404).
            return ""


def init_app(app: Flask) -> None:
    digests = Digests(app.static_folder)
    app.extensions[KEY] = digests

    @app.url_defaults
    def _versioned(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "v" not in values:
            digest = digests.of(values.get("filename", ""))
            if digest:
                values["v"] = digest

    def max_age(filename: str | None) -> int | None:
        # Only an address naming the file's current digest is kept: an old page's
        # address answers the current file, which must not be kept under that name.
        digest = digests.of(filename or "")
        return YEAR if digest and request.args.get("v") == digest else None

    app.get_send_file_max_age = max_age  # type: ignore[method-assign]

    @app.after_request
    def _immutable(response):
        if request.endpoint == "static" and response.cache_control.max_age == YEAR:
            response.cache_control.immutable = True
        return response
