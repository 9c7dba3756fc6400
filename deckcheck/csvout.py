"""Every CSV the service writes goes through here, so no cell can become a
spreadsheet formula: a player named `=HYPERLINK(...)` must stay a name in Excel."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

from flask import Response

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value: object) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def to_csv(header: Iterable[object], rows: Iterable[Iterable[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([neutralise(cell) for cell in header])
    for row in rows:
        writer.writerow([neutralise(cell) for cell in row])
    return out.getvalue()


def csv_response(
    header: Iterable[object], rows: Iterable[Iterable[object]], filename: str
) -> Response:
    return Response(
        to_csv(header, rows),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
