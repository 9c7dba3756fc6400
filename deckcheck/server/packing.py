"""Stored verdicts, compact: JSON text, compressed when long.

1,000 lines naming no card make a verdict of 480 KB of near-identical sentences; stored
compressed it takes about 20 KB, so a page of the organizer's table stays small in
memory and the database does not grow by half a megabyte a list.
"""

from __future__ import annotations

import base64
import zlib

import orjson

PACK_OVER = 2048  # bytes of JSON stored as they are


def pack(value: object) -> str:
    """JSON text; over PACK_OVER bytes, "z:" + base64 of its zlib compression."""
    data = orjson.dumps(value)
    if len(data) <= PACK_OVER:
        return data.decode()
    return "z:" + base64.b64encode(zlib.compress(data, 6)).decode("ascii")


def unpack(text: str):
    """What `pack` stored (and the plain JSON of rows stored before it)."""
    if text.startswith("z:"):
        return orjson.loads(zlib.decompress(base64.b64decode(text[2:])))
    return orjson.loads(text)
