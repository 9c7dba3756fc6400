"""The day a deck is checked for, as players write it: `2024-03-01` or a product, `BT13`.

"Legal as of the BT13 format" is one word: a DCG product code means the day that
product came out in English (rules.releases). Days outside 1970-2999 are refused: no
card game is judged before its cards exist, and far years only break date arithmetic.

`?date=` in an address is read here once, before any view, on every route: a date that
cannot be read is a 422 wherever it is sent (the JSON error on the API, the error page
on pages), never ignored while another page refuses it. A view reads it with
`query_day()`. The card search reads its query, date included, with its own schema and
answers for all of its fields at once (`reads_date_itself`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import TypeVar

from flask import Flask, current_app, g, request
from marshmallow import ValidationError, fields

from deckcheck.errors import ApiError
from rules.releases import dcg_releases

FIRST_DAY = date(1970, 1, 1)
LAST_DAY = date(2999, 12, 31)
MAX_TEXT = 40  # characters: the longest day or product code is far shorter
View = TypeVar("View", bound=Callable)


def read_day(text: str) -> date:
    """`2024-03-01` or a DCG product code (`BT13`, `bt-13`, `EX5`) -> a day; ValueError else."""
    if len(text) > MAX_TEXT:
        raise ValueError(f"{text[:MAX_TEXT]!r}... is not a date like 2024-03-01 nor a product.")
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
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise ValidationError("Not a valid date: write it like 2024-03-01 or BT13.")
        try:
            return read_day(value)
        except ValueError as err:
            raise ValidationError(str(err)) from None


def reads_date_itself(view: View) -> View:
    """Mark a view that reads `?date=` with its own schema (and answers for it)."""
    view.reads_date_itself = True  # type: ignore[attr-defined]
    return view


def query_day() -> date | None:
    """The request's `?date=` as a day (checked before the view ran); None when absent."""
    return g.get("query_day")


def _check_query_day() -> None:
    """Read `?date=` before the view: a 422 when it cannot be read, on every route."""
    values = [v for v in request.args.getlist("date") if v.strip()]
    view = current_app.view_functions.get(request.endpoint or "")
    if not values or view is None or request.endpoint == "static" or request.method == "OPTIONS":
        return
    if getattr(view, "reads_date_itself", False):
        return
    try:
        if len(values) > 1:
            raise ValueError("Give one date, not several.")
        g.query_day = read_day(values[0])
    except ValueError as err:
        if request.path.startswith("/api/"):
            # The API's answer for any field it cannot read (as /api/v1/cards?date=).
            raise ApiError(
                422,
                "invalid-request",
                "Some query parameters are wrong.",
                {"fields": {"date": [str(err)]}},
            ) from err
        raise ApiError(422, "bad-date", str(err)) from err


def init_app(app: Flask) -> None:
    app.before_request(_check_query_day)
