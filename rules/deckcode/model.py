"""What a DCG deck code holds (`DeckCode`, its `CodeEntry`s) and what each version of
the codec allows (eggs, sideboard, name bytes, copies, languages); the byte layout is
in the package's docstring, reading it in `reading`, writing it in `writing`."""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "DCG"
CURRENT_VERSION = 5
LANGUAGES = ("ja", "en", "zh-Hans", "ko")
DEFAULT_LANGUAGE = "en"
ICON_SIZE = 8

BASE36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_CODE_SHAPE = re.compile(r"DCG[A-Za-z0-9_-]+={0,2}")


class DeckCodeError(ValueError):
    """Not a readable (or writable) DCG deck code; the message says what is wrong."""


@dataclass(frozen=True)
class CodeEntry:
    """One entry of a code: `count` copies of one printing (`parallel` 0 = normal art,
    n = the `_Pn` alternate art)."""

    number: str
    count: int
    parallel: int = 0


@dataclass(frozen=True)
class DeckCode:
    """A decoded deck code.

    `language` is one of LANGUAGES for versions 3+ and None before (those codes carry
    none). `icon` is the card number shown as the deck's icon (versions 4+).

    Entry order is what makes re-encoding exact. The spec leaves the order of set
    groups open (the Clojure encoder writes them in hash-map order), so `decode` keeps
    entries in the order the code holds them and `encode` writes each list as set
    groups keyed by (set, digit width) in order of first appearance, entries inside a
    group by ascending number, ties keeping their order. Any code that holds each
    group once per list, with minimal varints and a UTF-8 name, thus re-encodes to
    itself byte for byte; entries built by hand may come in any order.
    """

    version: int
    language: str | None
    digi_eggs: tuple[CodeEntry, ...]
    deck: tuple[CodeEntry, ...]
    sideboard: tuple[CodeEntry, ...]
    name: str
    icon: str | None = None

    @classmethod
    def new(
        cls,
        deck: tuple[CodeEntry, ...],
        digi_eggs: tuple[CodeEntry, ...] = (),
        sideboard: tuple[CodeEntry, ...] = (),
        name: str = "",
        icon: str | None = None,
    ) -> DeckCode:
        """A code in the current format (version 5, English), the default for new codes."""
        return cls(CURRENT_VERSION, DEFAULT_LANGUAGE, digi_eggs, deck, sideboard, name, icon)


def looks_like_deck_code(text: str) -> bool:
    """Cheap shape test, so callers can route input without decoding it."""
    return _CODE_SHAPE.fullmatch(text.strip()) is not None


# Per-version limits: what the codec of each version can hold.


def header_size(version: int) -> int:
    return 4 if version >= 2 else 3


def max_eggs(version: int) -> int:
    return 7 if version in (3, 4) else 15


def max_sideboard(version: int) -> int:
    if version < 2:
        return 0
    return 255 if version < 4 else 127


def max_name_bytes(version: int) -> int:
    return 63 if version >= 5 else 255


def max_copies(version: int) -> int:
    return 4 if version == 0 else 256


def languages_of(version: int) -> tuple[str, ...]:
    if version < 3:
        return ()
    return LANGUAGES if version >= 5 else LANGUAGES[:2]
