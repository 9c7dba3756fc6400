"""The formats the service knows: built-in ones plus organizer TOML files.

The folder is looked at again when its files change, so an organizer can drop a
file in without restarting; a broken file is listed, never fatal.
"""

from __future__ import annotations

import threading
from pathlib import Path

from flask import current_app

from rules.builtin import BUILT_IN
from rules.custom import LoadedFormats, load_dir
from rules.format import Format

_lock = threading.Lock()
_cache: dict[str, tuple[tuple, LoadedFormats, float]] = {}
RECHECK_SECONDS = 1.0


def _signature(folder: Path) -> tuple:
    if not folder.is_dir():
        return ()
    stats = ((p.name, p.stat()) for p in sorted(folder.glob("*.toml")))
    return tuple((name, stat.st_mtime_ns, stat.st_size) for name, stat in stats)


def registry() -> LoadedFormats:
    folder = Path(current_app.config["FORMATS_DIR"])
    signature = _signature(folder)
    cached = _cache.get(str(folder))
    if cached and cached[0] == signature:
        return cached[1]
    with _lock:
        loaded = load_dir(folder, BUILT_IN)
        for problem in loaded.errors:
            current_app.logger.warning(
                "format file %s skipped: %s", problem["file"], problem["message"]
            )
        _cache[str(folder)] = (signature, loaded)
    return loaded


def get_format(format_id: str) -> Format | None:
    return registry().formats.get(format_id)
