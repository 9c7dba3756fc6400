"""The fields of an event as it is created or changed, read and checked: its name,
deadline (with its zone, in 1970-2999), date, description and products legal early, and
the format its lists are judged in."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, date, datetime

from deckcheck import service
from deckcheck.errors import ApiError
from deckcheck.events import limits, zones
from deckcheck.server import names
from deckcheck.server.verdicts import format_digest
from rules.cache import Bounded
from rules.custom import FormatFileError, early_codes
from rules.format import Format
from rules.games import has_products

MAX_DESCRIPTION = 2000
FIRST_YEAR, LAST_YEAR = 1970, 2999


def _invalid(field: str, message: str) -> ApiError:
    return names.FieldError(field, message)


def _in_range(field: str, year: int) -> None:
    if not FIRST_YEAR <= year <= LAST_YEAR:
        raise _invalid(field, f"the year must be between {FIRST_YEAR} and {LAST_YEAR}")


def parse_deadline(text: str) -> tuple[str, datetime]:
    """An ISO 8601 moment with its UTC offset (a deadline without a zone is ambiguous),
    in 1970-2999 both where it is written and in UTC."""
    if not isinstance(text, str) or len(text) > 40 or names.FORBIDDEN.search(text):
        raise _invalid("deadline", "not a date and time like 2026-12-05T09:00:00+01:00")
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError as err:
        raise _invalid("deadline", "not a date and time like 2026-12-05T09:00:00+01:00") from err
    if moment.tzinfo is None:
        raise _invalid("deadline", "add the time zone offset, e.g. +01:00 or Z")
    # Checked before the conversion: 9999-12-31T23:00-05:00 is past the last UTC year.
    _in_range("deadline", moment.year)
    utc = moment.astimezone(UTC)
    _in_range("deadline", utc.year)
    return moment.isoformat(), utc


def new_event_fields(data: dict) -> dict:
    """Checked fields of a new event (already loaded by its schema)."""
    name = names.clean("name", data.get("name"), names.EVENT_MAX)
    fmt = service.find_format(data["format"])
    deadline, utc = parse_deadline(data["deadline"])
    day = data.get("date") or datetime.fromisoformat(deadline).date()
    _in_range("date", day.year)
    return {
        "name": name,
        "format": fmt.id,
        "date": day.isoformat(),
        "deadline": deadline,
        "deadline_utc": utc.isoformat(timespec="microseconds"),
        "description": names.text_field("description", data.get("description"), MAX_DESCRIPTION),
        "time_zone": (
            zones.read_zone(data["time_zone"])
            if data.get("time_zone") is not None
            else zones.of_deadline(deadline)
        ),
        "early": _early(fmt, data.get("early")),
        "publish": data.get("publish") or "none",
        "cutoff": data.get("cutoff") or "none",
        **(limits.read_venue(data["venue"]) if data.get("venue") is not None else {}),
    }


def _early(fmt: Format, codes: list[str] | None) -> str | None:
    """The products an event makes legal early, as stored (`BT24,EX9`); None: none."""
    if not codes:
        return None
    if not has_products(fmt.game):
        raise _invalid("early", "products legal early are for DCG formats")
    try:
        return ",".join(early_codes(codes))
    except FormatFileError as err:
        raise _invalid("early", str(err).removeprefix("early: ")) from err


# (the format's id and content digest, the event's early products and date) -> the
# event's format: keyed by what the format says, not by which object says it.
_EVENT_FORMATS: Bounded[tuple[str, str, str, str], Format] = Bounded(256)


def event_format(row: dict, fmt: Format) -> Format:
    """The format an event's lists are judged in: its format, with the products it makes
    legal early counted as released from the event's date (a pre-release event). One
    object per format and event settings, so verdict keys are worked out once."""
    if not row.get("early"):
        return fmt
    key = (fmt.id, format_digest(fmt), row["early"], row["date"])
    found = _EVENT_FORMATS.get(key)
    if found is None:
        early = replace(fmt, early=tuple(row["early"].split(",")), early_from=event_day(row))
        found = _EVENT_FORMATS.keep(key, early)
    return found


def moved_deadline(text: str) -> dict:
    deadline, utc = parse_deadline(text)
    return {"deadline": deadline, "deadline_utc": utc.isoformat(timespec="microseconds")}


def event_day(row: dict) -> date:
    return date.fromisoformat(row["date"])


def player_fields(player: object, player_id: object) -> tuple[str, str]:
    return (
        names.clean("player", player, names.PLAYER_MAX),
        names.clean("player_id", player_id, names.PLAYER_ID_MAX, required=False),
    )
