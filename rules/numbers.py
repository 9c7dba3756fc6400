"""Card numbers as players type them.

Players write `bt1-10`, `ST01-01`, `BT1-010_P1` or `st-44s` for the cards printed
`BT1-010`, `ST1-01`, `BT1-010` and `ST-44S`. A *key* folds those spellings together:
upper case, no alternate-art suffix, no leading zeros in a numeric run. The pool maps
keys back to the number as printed, so the key never has to guess padding widths.

Nothing here searches user text with a pattern that can backtrack: a line is cut
into tokens with `str.split`, and each token (at most `MAX_TOKEN` characters) is
matched whole by `_NUMBER`, whose parts cannot overlap (letters, digits, one dash,
digits, one letter, `_` groups): each character has one place in the match, so a
match costs time linear in the token. The compiled build asks `_scan_number`, the same
question as one pass over the characters.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final, TypeVar

T = TypeVar("T")
MAX_TOKEN: Final = 40
_NUMBER: Final = re.compile(r"[A-Za-z]{1,5}[0-9]{0,3}-[0-9]{1,4}[A-Za-z]?(?:_[A-Za-z0-9]+)*")
_DIGITS: Final = re.compile(r"[0-9]+")
_EDGES: Final = "()[]{}<>,;:|.!?\"'"


def is_number(token: str) -> bool:
    """Is this one token (no spaces) shaped like a card number?

    Cached (`remember`): the same numbers and name words come back on every request.
    """
    known = _IS_NUMBER.get(token)
    if known is None:
        if _COMPILED:
            known = _scan_number(token)
        else:
            known = len(token) <= MAX_TOKEN and _NUMBER.fullmatch(token) is not None
        remember(_IS_NUMBER, token, known)
    return known


def _scan_number(token: str) -> bool:
    """`_NUMBER.fullmatch(token)`, as one pass over the characters.

    Compiled, this loop runs as C and costs a tenth of a call into `re`; interpreted,
    it costs twice the regex. So each build uses the faster one (`_COMPILED`), and a
    property test holds the two equal on generated tokens.
    """
    size = len(token)
    if size > MAX_TOKEN:
        return False
    at = 0
    while at < size and _letter(ord(token[at])):
        at += 1
    if not 1 <= at <= 5:
        return False
    start = at
    while at < size and _digit(ord(token[at])):
        at += 1
    if at - start > 3 or at == size or token[at] != "-":
        return False
    at += 1
    start = at
    while at < size and _digit(ord(token[at])):
        at += 1
    if not 1 <= at - start <= 4:
        return False
    if at < size and _letter(ord(token[at])):
        at += 1
    while at < size:  # `_` groups of letters and digits
        if token[at] != "_":
            return False
        at += 1
        start = at
        while at < size and (_letter(ord(token[at])) or _digit(ord(token[at]))):
            at += 1
        if at == start:
            return False
    return True


def _letter(code: int) -> bool:
    return 65 <= code <= 90 or 97 <= code <= 122  # A-Z, a-z


def _digit(code: int) -> bool:
    return 48 <= code <= 57  # 0-9


# A compiled module's functions are built-in functions, not Python functions.
_COMPILED: Final = type(_digit).__name__ == "builtin_function_or_method"


# Far more than the names, numbers and words of every card of a game; with keys of at
# most CACHE_KEY_MAX characters a cache holds a few MB at worst, whatever is asked.
CACHE_SIZE: Final = 16384
CACHE_KEY_MAX: Final = 64
_NUMBER_KEYS: Final[dict[str, str]] = {}
_IS_NUMBER: Final[dict[str, bool]] = {}


def remember(cache: dict[str, T], key: str, value: T) -> T:
    """Keep a worked-out value in a cache of at most CACHE_SIZE entries.

    A plain dict in place of lru_cache: compiled, a call through lru_cache's wrapper
    (a generic call) costs more than the lookup it saves. A full cache starts again,
    so it stays bounded whatever is asked, and what comes back on every request is
    soon back in it. A key longer than CACHE_KEY_MAX (no card's name or number is) is
    not kept: a cache's size in bytes is bounded too.
    """
    if len(key) > CACHE_KEY_MAX:
        return value
    if len(cache) >= CACHE_SIZE:
        cache.clear()
    cache[key] = value
    return value


def number_key(text: str) -> str:
    """The spelling-independent key of a card number (`bt1-010_p1` -> `BT1-10`).

    Cached: the same few thousand numbers are looked up on every request.
    """
    key = _NUMBER_KEYS.get(text)
    if key is None:
        upper = text.strip().upper().partition("_")[0]
        key = remember(_NUMBER_KEYS, text, _DIGITS.sub(lambda m: str(int(m.group())), upper))
    return key


def digit_runs(text: str) -> list[str]:
    """The numeric runs of a number without its alternate-art tail (`BT1-010` -> 1, 010)."""
    return _DIGITS.findall(text.partition("_")[0])


@lru_cache(maxsize=65536)
def fits_printed(typed: str, printed: str) -> bool:
    """Does a typed number stay within its printed width (`BT1-0100` is not `BT1-100`)?

    A typed run may drop zeros, and pad a run to two digits (`ST01-01`, `St-01`), but
    a run longer than both its printed form and two digits is another number.
    """
    return all(
        len(mine) <= max(len(theirs), 2)
        for mine, theirs in zip(digit_runs(typed), digit_runs(printed), strict=False)
    )


def bare(token: str) -> str:
    """A token without the brackets and punctuation players put around numbers."""
    return token.strip(_EDGES)


def find_numbers(text: str) -> list[str]:
    """Every number-shaped token in a text, left to right (tokens split at spaces)."""
    found = []
    for token in text.replace("(", " ").replace("[", " ").split():
        token = bare(token)
        if is_number(token):
            found.append(token)
    return found


def looks_like_number(text: str) -> bool:
    return is_number(text.strip())
