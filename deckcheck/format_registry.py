"""The formats the service knows: built-in ones plus organizer TOML files.

The folder is looked at again when its files change, so an organizer can drop a
file in without restarting; a broken file is listed, never fatal. The folder is
stat-ed at most once every RECHECK_SECONDS per process, not on every request.
Only regular files are read (a FIFO or a device named `x.toml` would block the
reader forever) and at most MAX_FILE_BYTES of each; rules.custom.parse holds each to
the contract's limits (size, nesting, types, list lengths), so one bad file is listed
under `errors` and every other format keeps working.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from pathlib import Path

from flask import current_app

from rules.builtin import BUILT_IN
from rules.custom import MAX_FILE_BYTES, FormatFileError, LoadedFormats, build, parse
from rules.format import Format

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


def _load(folder: Path, signature: tuple) -> LoadedFormats:
    """The files of `signature`, in name order, over the built-in formats (as
    rules.custom.load_dir, but reading only what read_format_file allows)."""
    formats = dict(BUILT_IN)
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
    key = str(current_app.config["FORMATS_DIR"])
    now = time.monotonic()
    cached = _cache.get(key)
    if cached and now - cached[2] < RECHECK_SECONDS:
        return cached[1]
    folder = Path(key)
    signature = _signature(folder)
    if cached and cached[0] == signature:
        _cache[key] = (signature, cached[1], now)
        return cached[1]
    with _lock:
        loaded = _load(folder, signature)
        for problem in loaded.errors:
            current_app.logger.warning(
                "format file %s skipped: %s", problem["file"], problem["message"]
            )
        _cache[key] = (signature, loaded, now)
    return loaded


def get_format(format_id: str) -> Format | None:
    return registry().formats.get(format_id)
