"""Card numbers as players type them.

Players write `bt1-10`, `ST01-01`, `BT1-010_P1` or `st-44s` for the cards printed
`BT1-010`, `ST1-01`, `BT1-010` and `ST-44S`. A *key* folds those spellings together:
upper case, no alternate-art suffix, no leading zeros in a numeric run. The pool maps
keys back to the number as printed, so the key never has to guess padding widths.

Nothing here searches user text with a pattern that can backtrack: a line is cut
into tokens with `str.split`, and each token (at most `MAX_TOKEN` characters) is
matched whole by `_NUMBER`, whose parts cannot overlap (letters, digits, one dash,
digits, one letter, `_` groups): each character has one place in the match, so a
match costs time linear in the token.
"""

from __future__ import annotations

import re

from rules.cache import memo

MAX_TOKEN = 40
# A number's card part, after its one dash: digits, a letter, `_` groups.
_CARD_PART = r"[0-9]{1,4}[A-Za-z]?(?:_[A-Za-z0-9]+)*"
_NUMBER = re.compile(r"[A-Za-z]{1,5}[0-9]{0,3}-" + _CARD_PART)
_DIGITS = re.compile(r"[0-9]+")
# `EX-13-001`: a product's code with its hyphen (`EX-13`), then the card's part. Only the
# DCG series whose cards carry their product's number (AD1-001, BT1-010, EX13-001,
# RB1-004, ST1-01): LM-09's cards are LM-001 on, so `LM-09-001` names no card, and a
# date such as `Mar-10-2025` stays a word.
_PRODUCT_STYLE = re.compile(r"([A-Za-z]{2})-([0-9]{1,3}-" + _CARD_PART + ")")
_PRODUCT_SERIES = frozenset({"AD", "BT", "EX", "RB", "ST"})
_EDGES = "()[]{}<>,;:|.!?\"'"


@memo()
def is_number(token: str) -> bool:
    """Is this one token (no spaces) shaped like a card number? (Kept: the same
    numbers and name words come back on every request.)"""
    return len(token) <= MAX_TOKEN and _NUMBER.fullmatch(token) is not None


@memo()
def number_key(text: str) -> str:
    """The spelling-independent key of a card number (`bt1-010_p1` -> `BT1-10`)."""
    upper = text.strip().upper().partition("_")[0]
    return _DIGITS.sub(lambda m: str(int(m.group())), upper)


def digit_runs(text: str) -> list[str]:
    """The numeric runs of a number without its alternate-art tail (`BT1-010` -> 1, 010)."""
    return _DIGITS.findall(text.partition("_")[0])


@memo()
def fits_printed(typed: str, printed: str) -> bool:
    """Does a typed number stay within its printed width (`BT1-0100` is not `BT1-100`)?

    A typed run may drop zeros, and pad a run with zeros to three digits (`ST01-01`,
    `St-01`, and `st-010` for DMCG's `St-10`: DCG numbers have three), but a run longer
    than both its printed form and three digits is another number.
    """
    return all(
        len(mine) <= max(len(theirs), 3)
        for mine, theirs in zip(digit_runs(typed), digit_runs(printed), strict=False)
    )


def bare(token: str) -> str:
    """A token without the brackets and punctuation players put around numbers, and
    without a product's hyphen: products are written `EX-13` and `BT-27`, so players
    write their cards `EX-13-001` for the printed `EX13-001` (no game prints a number
    with two dashes)."""
    token = token.strip(_EDGES)
    if token.count("-") == 2 and len(token) <= MAX_TOKEN:
        match = _PRODUCT_STYLE.fullmatch(token)
        if match is not None and match[1].upper() in _PRODUCT_SERIES:
            return match[1] + match[2]
    return token


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
