"""An event's time zone: the organizer's sheets and table write times in it, and say
which zone that is (a printed sheet has no browser to convert it).

A zone is an IANA name (`Europe/Paris`, which knows its summer time) or a fixed offset
(`+01:00`, `UTC`). An event created without one gets its deadline's offset, and so do
events stored before zones were (their column is NULL): the zone their deadline was
written in.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from deckcheck.server.names import FieldError
from deckcheck.words import MONTHS

MAX_LENGTH = 64
OFFSET = re.compile(r"([+-])([01][0-9]|2[0-3]):([0-5][0-9])")
EXAMPLE = "a time zone such as Europe/Paris, America/New_York or +01:00"


@cache
def _names() -> frozenset[str]:
    """The IANA names this machine knows: read once (a few hundred file names)."""
    return frozenset(available_timezones())


def read_zone(text: object) -> str:
    """A zone as given, checked: a 422 for anything that is not one (SQLite and
    PostgreSQL store only what this lets through, so both accept the same)."""
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_LENGTH:
        raise FieldError("time_zone", f"Not {EXAMPLE}.")
    text = text.strip()
    if text.upper() in ("UTC", "Z"):
        return "UTC"
    if OFFSET.fullmatch(text) or text in _names():
        return text
    raise FieldError("time_zone", f"Not {EXAMPLE}.")


def of_deadline(deadline: str) -> str:
    """The zone a deadline was written in, as an offset (`+01:00`; `UTC` for zero)."""
    offset = datetime.fromisoformat(deadline).utcoffset() or timedelta(0)
    if not offset:
        return "UTC"
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes > 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"{sign}{hours:02d}:{rest:02d}"


def zone_name(row: dict) -> str:
    """The event's zone: its own, else its deadline's offset (events stored before zones)."""
    return row.get("time_zone") or of_deadline(row["deadline"])


def _tz(name: str) -> tzinfo:
    if name == "UTC":
        return UTC
    found = OFFSET.fullmatch(name)
    if found:
        sign = 1 if found[1] == "+" else -1
        return timezone(sign * timedelta(hours=int(found[2]), minutes=int(found[3])))
    return ZoneInfo(name)


def moment(when: str | None, zone: str, year: bool = False) -> str:
    """A stored UTC moment in the event's zone: `5 December at 08:45`; `year=True` adds
    the year. The zone is said once per page (`label`), not after every time."""
    if not when:
        return ""
    try:
        moment = datetime.fromisoformat(when)
    except ValueError:
        return when
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    local = moment.astimezone(_tz(zone))
    on = f"{local.day} {MONTHS[local.month - 1]}" + (f" {local.year}" if year else "")
    return f"{on} at {local:%H:%M}"


def label(zone: str) -> str:
    """The zone in words for a page: `Europe/Paris`, `UTC+01:00`, `UTC`."""
    return f"UTC{zone}" if OFFSET.fullmatch(zone) else zone
