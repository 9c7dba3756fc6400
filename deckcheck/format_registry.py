"""The formats the service knows: built-in ones plus organizer TOML files.

The folder is looked at again when its files change, so an organizer can drop a
file in without restarting, and so is the DCG list history in use (`cardpool lists
import` swaps it in the database; the formats are rebuilt over it); a broken file is
listed, never fatal. The folder is stat-ed (and the list history's generation read) at
most once every RECHECK_SECONDS per process, not on every request.
Only regular files are read (a FIFO or a device named `x.toml` would block the
reader forever) and at most MAX_FILE_BYTES of each; rules.custom.parse holds each to
the contract's limits (size, nesting, types, list lengths), so one bad file is listed
under `errors` and every other format keeps working.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
import time
from dataclasses import replace
from pathlib import Path

from flask import current_app

from cardpool import list_store
from cardpool.list_store import Stored
from deckcheck.db import get_db
from rules.builtin import BUILT_IN
from rules.custom import MAX_FILE_BYTES, FormatFileError, LoadedFormats, build, parse
from rules.format import Format
from rules.games import LISTS_GAME

RECHECK_SECONDS = 1.0
_lock = threading.Lock()
# folder -> (signature, formats, when the folder was last stat-ed: time.monotonic())
_cache: dict[str, tuple[tuple, LoadedFormats, float]] = {}


def _signature(folder: Path) -> tuple:
    """(name, kind, mtime, size) of each `*.toml`."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return ()
    found = []
    for entry in entries:
        if not entry.name.endswith(".toml"):
            continue
        try:
            info = entry.stat()
        except OSError:
            # Gone or a dangling link: listed, and reading it says why.
            found.append((entry.name, 0, 0, 0))
            continue
        found.append((entry.name, stat.S_IFMT(info.st_mode), info.st_mtime_ns, info.st_size))
    return tuple(sorted(found))


def read_format_file(path: Path) -> bytes:
    """The bytes of a regular file, at most MAX_FILE_BYTES + 1; anything else is refused
    without blocking (O_NONBLOCK: opening a FIFO returns at once)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FormatFileError("not a regular file (a pipe, device or folder), skipped")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    finally:
        os.close(fd)
    return data  # parse() refuses it when over MAX_FILE_BYTES


def built_in(stored: Stored | None) -> dict[str, Format]:
    """The built-in formats, the DCG ones over the list history in use (an imported one
    replaces the shipped one: `cardpool lists import`)."""
    if stored is None or stored.generation == 0:
        return dict(BUILT_IN)
    return {
        fid: replace(fmt, lists=stored.history) if fmt.game == LISTS_GAME and fmt.lists else fmt
        for fid, fmt in BUILT_IN.items()
    }


def _lists() -> Stored | None:
    """The DCG list history in use; None (the shipped one) when the database cannot say."""
    try:
        db = get_db()
        return list_store.current(db) if list_store.generation(db) else None
    except sqlite3.Error as err:
        current_app.logger.warning("list history not read: %s", err)
        return None


def _load(folder: Path, signature: tuple, stored: Stored | None = None) -> LoadedFormats:
    """The files of `signature`, in name order, over the built-in formats (as
    rules.custom.load_dir, but reading only what read_format_file allows)."""
    formats = built_in(stored)
    errors: list[dict] = []
    for name, *_ in signature:
        try:
            fmt = build(parse(read_format_file(folder / name)), formats, BUILT_IN, name)
        except OSError as err:
            # strerror only: str(err) would show the server's path to the file.
            errors.append({"file": name, "message": f"cannot be read ({err.strerror})"})
        except FormatFileError as err:
            errors.append({"file": name, "message": str(err)})
        else:
            formats[fmt.id] = fmt
    return LoadedFormats(formats, errors)


def registry() -> LoadedFormats:
    # Every request asks this: the cached answer comes before any Path is built.
    # Per folder and card database: each database holds its own list history.
    key = f"{current_app.config['FORMATS_DIR']}\0{current_app.config['DATABASE']}"
    now = time.monotonic()
    cached = _cache.get(key)
    if cached and now - cached[2] < RECHECK_SECONDS:
        return cached[1]
    folder = Path(current_app.config["FORMATS_DIR"])
    # The folder's files and the list history in use (its generation): either changing
    # rebuilds the formats.
    stored = _lists()
    signature = (stored.generation if stored else 0, _signature(folder))
    if cached and cached[0] == signature:
        _cache[key] = (signature, cached[1], now)
        return cached[1]
    with _lock:
        loaded = _load(folder, signature[1], stored)
        for problem in loaded.errors:
            current_app.logger.warning(
                "format file %s skipped: %s", problem["file"], problem["message"]
            )
        _cache[key] = (signature, loaded, now)
    return loaded


def get_format(format_id: str) -> Format | None:
    return registry().formats.get(format_id)
