"""The one cache of `rules`: a dict that starts again when it is full, and `@memo`, which
keeps a pure function's answers in one.

Every cache here (number and name keys, token kinds, line shapes and readings, sets,
sections) is a `@memo` of a pure function of hashable values, so all are bounded the
same way: at most `size` entries, and a string key longer than `KEY_MAX` (no card's
name, number or name word is) is worked out but never kept. No object of `rules`
carries a cache: what it would keep per object is worked out when the object is built.
A full cache is emptied rather than trimmed: what comes back on every request is soon
back in it, and nothing is kept in order.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")
F = TypeVar("F", bound=Callable[..., Any])

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


def _too_long(key: object) -> bool:
    """A string key longer than KEY_MAX, or a tuple key holding one (at any depth: a
    line's readings hold its words)."""
    if isinstance(key, str):
        return len(key) > KEY_MAX
    return isinstance(key, tuple) and any(_too_long(part) for part in key)


def memo(size: int = SIZE) -> Callable[[F], F]:
    """A pure function of hashable positional arguments, its answers kept in a `Bounded`
    of `size` (the one argument is the key; two or more, their tuple). A string argument
    longer than KEY_MAX is worked out every time, never kept. The kept answers are the
    function's `.kept`, for tests and a bench to see."""

    def wrap(func: F) -> F:
        kept: Bounded[Any, Any] = Bounded(size)
        get = kept.get

        def make(key: Any, args: tuple) -> Any:
            value = func(*args)
            return value if _too_long(key) else kept.keep(key, value)

        def one(arg: Any) -> Any:
            found = get(arg, _MISSING)
            return make(arg, (arg,)) if found is _MISSING else found

        def many(*args: Any) -> Any:
            found = get(args, _MISSING)
            return make(args, args) if found is _MISSING else found

        # One argument (the common case) is its own key: no tuple made per call.
        wrapper: Any = one if func.__code__.co_argcount == 1 else many
        functools.update_wrapper(wrapper, func)
        wrapper.kept = kept
        return wrapper  # type: ignore[no-any-return]

    return wrap
