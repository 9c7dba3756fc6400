"""Every CSV the service writes goes through here, so no cell can become a
spreadsheet formula: a player named `=HYPERLINK(...)` must stay a name in Excel.

Every cell is quoted: a spreadsheet in a locale that splits on `;` would otherwise read
`Bob;=cmd|...` as two cells, the second a formula. A cell that starts with `=`, `+`,
`-`, `@`, a tab or a carriage return gets a leading `'` (contract, "Limits").
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator

from flask import Response, stream_with_context

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
FLUSH_BYTES = 64 * 1024


def neutralise(value: object) -> str:
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_lines(header: Iterable[object], rows: Iterable[Iterable[object]]) -> Iterator[str]:
    """The CSV text in pieces of about FLUSH_BYTES: rows are written as they come."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL)
    writer.writerow([neutralise(cell) for cell in header])
    for row in rows:
        writer.writerow([neutralise(cell) for cell in row])
        if out.tell() >= FLUSH_BYTES:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()


def to_csv(header: Iterable[object], rows: Iterable[Iterable[object]]) -> str:
    return "".join(csv_lines(header, rows))


def csv_response(
    header: Iterable[object], rows: Iterable[Iterable[object]], filename: str
) -> Response:
    """A CSV download, streamed: `rows` may be a generator over a large event."""
    return Response(
        stream_with_context(csv_lines(header, rows)),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )
