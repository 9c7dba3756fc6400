"""JSON responses through orjson: the validate hot path spends a tenth of its time
encoding the report, and orjson does that several times faster than the standard
library (measured in bench/throughput.py)."""

from __future__ import annotations

from typing import Any

import orjson
from flask.json.provider import DefaultJSONProvider


class OrjsonProvider(DefaultJSONProvider):
    def dumps(self, obj: Any, **kwargs: Any) -> str:
        # marshmallow reports list positions as int keys: allow them.
        try:
            return orjson.dumps(obj, default=self.default, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:
            # Beyond orjson (e.g. an echoed integer over 64 bits): the slow, general path.
            return super().dumps(obj, **kwargs)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)
