"""Card numbers as players type them.

Players write `bt1-10`, `ST01-01`, `BT1-010_P1` or `st-44s` for the cards printed
`BT1-010`, `ST1-01`, `BT1-010` and `ST-44S`. A *key* folds those spellings together:
upper case, no alternate-art suffix, no leading zeros in a numeric run. The pool maps
keys back to the number as printed, so the key never has to guess padding widths.
"""

from __future__ import annotations

import re
from functools import lru_cache

# A number-shaped token: set letters (maybe with digits), a dash, digits, maybe one
# suffix letter (Digi-Battle holo `S`), maybe an alternate-art tail (`_P1`).
NUMBER_TOKEN = re.compile(
    r"(?<![\w-])([A-Za-z]{1,5}\d{0,3}-\d{1,4}[A-Za-z]?(?:_[A-Za-z0-9]+)*)(?![\w-])"
)
_ALT_ART = re.compile(r"_[A-Z0-9_]*$")
_DIGITS = re.compile(r"\d+")


@lru_cache(maxsize=65536)
def number_key(text: str) -> str:
    """The spelling-independent key of a card number (`bt1-010_p1` -> `BT1-10`).

    Cached: the same few thousand numbers are looked up on every request.
    """
    upper = _ALT_ART.sub("", text.strip().upper())
    return _DIGITS.sub(lambda m: str(int(m.group())), upper)


def find_numbers(text: str) -> list[str]:
    """Every number-shaped token in a line, left to right."""
    return NUMBER_TOKEN.findall(text)


def looks_like_number(text: str) -> bool:
    return NUMBER_TOKEN.fullmatch(text.strip()) is not None
