"""The day a deck is checked for, as players write it: `2024-03-01` or a product, `BT13`.

"Legal as of the BT13 format" is one word: a DCG product code means the day that
product came out in English (rules.releases). Days outside 1970-2999 are refused: no
card game is judged before its cards exist, and far years only break date arithmetic.
"""

from __future__ import annotations

from datetime import date

from marshmallow import ValidationError, fields

from rules.releases import dcg_releases

FIRST_DAY = date(1970, 1, 1)
LAST_DAY = date(2999, 12, 31)


def read_day(text: str) -> date:
    """`2024-03-01` or a DCG product code (`BT13`, `bt-13`, `EX5`) -> a day; ValueError else."""
    text = text.strip()
    if text[:1].isalpha():
        product = dcg_releases().product(text)
        if product is None:
            raise ValueError(
                f"{text[:40]!r} is not a date like 2024-03-01 nor a DCG product deckcheck "
                f"knows the release date of (like BT13 or EX5)."
            )
        return product.in_stores
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{text[:40]!r} is not a date like 2024-03-01.") from None
    if not FIRST_DAY <= day <= LAST_DAY:
        raise ValueError(f"{day} is outside the years 1970 to 2999.")
    return day


class CheckDay(fields.Date):
    """A marshmallow Date that also reads a product code, and refuses far years."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or len(value) > 40:
            raise ValidationError("Not a valid date: write it like 2024-03-01 or BT13.")
        try:
            return read_day(value)
        except ValueError as err:
            raise ValidationError(str(err)) from None
