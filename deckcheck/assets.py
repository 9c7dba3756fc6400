"""Static files at addresses that change with their contents, kept by browsers a year.

Every page links its styles and scripts through `url_for("static", ...)`; each such
address carries `?v=` and the first characters of the file's SHA-256. A browser keeps a
file fetched so for a year without asking again (`immutable`), so a player moving from
page to page on a slow phone sends one request per page, not one per file; a new
release changes the digest, so the new file is fetched at once. An address without the
current digest (an old page, a hand-typed link, another spelling of the file's name) is
answered with the file as before, checked again on each use.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from flask import Flask, request

YEAR = 365 * 24 * 3600
KEY = "deckcheck.assets"


class Digests:
    """The digest of each file of the static folder, read when the app is made: a
    request only looks a name up, so no address, however spelled, adds to what is kept
    or makes the server read a file."""

    def __init__(self, folder: str | None) -> None:
        self.folder = Path(folder) if folder else None
        # file name -> (digest, modification time in ns, size) as read
        self.known: dict[str, tuple[str, int, int]] = {}
        if self.folder is not None and self.folder.is_dir():
            for path in sorted(self.folder.rglob("*")):
                if path.is_file():
                    self.known[path.relative_to(self.folder).as_posix()] = _read(path)

    def of(self, filename: str) -> str:
        """`filename`'s digest as read; "" when it is no file of the folder."""
        found = self.known.get(filename)
        return found[0] if found else ""

    def current(self, filename: str) -> str:
        """`filename`'s digest while the file is still as read, else "": a file changed
        in place (an upgrade before the restart, an edit while developing) is not the
        one its digest names, and must not be kept a year under that name."""
        found = self.known.get(filename)
        if found is None or self.folder is None:
            return ""
        try:
            stat = os.stat(self.folder / filename)
        except OSError:
            return ""
        return found[0] if (stat.st_mtime_ns, stat.st_size) == found[1:] else ""


def _read(path: Path) -> tuple[str, int, int]:
    stat = path.stat()
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12], stat.st_mtime_ns, stat.st_size


def init_app(app: Flask) -> None:
    digests = Digests(app.static_folder)
    app.extensions[KEY] = digests

    @app.url_defaults
    def _versioned(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "v" not in values:
            digest = digests.of(values.get("filename", ""))
            if digest:
                values["v"] = digest

    flasks = app.get_send_file_max_age  # SEND_FILE_MAX_AGE_DEFAULT, as before

    def max_age(filename: str | None) -> int | None:
        # Only an address naming the file's current digest is kept: an old page's
        # address answers the current file, which must not be kept under that name.
        digest = digests.current(filename or "")
        return YEAR if digest and request.args.get("v") == digest else flasks(filename)

    app.get_send_file_max_age = max_age  # type: ignore[method-assign]

    @app.after_request
    def _immutable(response):
        if request.endpoint == "static" and response.cache_control.max_age == YEAR:
            response.cache_control.immutable = True
        return response
