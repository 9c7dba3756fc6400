"""The one cache of `rules`: a dict that starts again when it is full.

Every cache here (number and name keys, token kinds, line shapes, per-card facts of a
pool or a check) is one of these, so all are bounded the same way: at most `size`
entries, and a string key longer than `KEY_MAX` (no card's name, number or name word
is) is worked out but never kept. A full cache is emptied rather than trimmed: what
comes back on every request is soon back in it, and nothing is kept in order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")

SIZE = 16384
KEY_MAX = 64
_MISSING = object()


class Bounded(dict[K, V]):
    """`cache.get(key)` to look up (a plain dict's speed); `cache.keep(key, value)` to add;
    `cache.value(key, make)` for both where a method call per look-up costs nothing."""

    def __init__(self, size: int = SIZE) -> None:
        super().__init__()
        self.size = size

    def keep(self, key: K, value: V) -> V:
        """Keep `value` under `key` (unless the key is a string over KEY_MAX); give it back."""
        if isinstance(key, str) and len(key) > KEY_MAX:
            return value
        if len(self) >= self.size:
            self.clear()
        self[key] = value
        return value

    def value(self, key: K, make: Callable[[K], V]) -> V:
        """The value kept under `key`, made by `make(key)` and kept when it is not there
        yet (a kept None is a value: it is not made again)."""
        found = self.get(key, _MISSING)
        if found is _MISSING:
            return self.keep(key, make(key))
        return found  # type: ignore[return-value]
