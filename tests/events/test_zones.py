"""deckcheck.events.zones: an event's zone read, defaulted and written in words."""

from __future__ import annotations

import pytest

from deckcheck.events.zones import label, moment, read_zone, zone_name
from deckcheck.server.names import FieldError


def test_an_event_stored_before_zones_reads_in_its_deadlines_offset():
    assert zone_name({"time_zone": None, "deadline": "2026-12-05T09:00:00+05:30"}) == "+05:30"
    assert zone_name({"time_zone": None, "deadline": "2026-12-05T09:00:00-03:00"}) == "-03:00"
    assert zone_name({"time_zone": None, "deadline": "2026-12-05T09:00:00+00:00"}) == "UTC"
    assert (
        zone_name({"time_zone": "Asia/Tokyo", "deadline": "2026-12-05T09:00:00Z"}) == "Asia/Tokyo"
    )


@pytest.mark.parametrize(
    ("zone", "words"),
    [
        ("Europe/Paris", "5 December 2026 at 09:30"),  # winter: UTC+1
        ("+05:30", "5 December 2026 at 14:00"),
        ("-03:00", "5 December 2026 at 05:30"),
        ("UTC", "5 December 2026 at 08:30"),
        ("Pacific/Kiritimati", "5 December 2026 at 22:30"),  # UTC+14
    ],
)
def test_a_moment_is_written_in_the_zone(zone, words):
    assert moment("2026-12-05T08:30:00.123456+00:00", zone, year=True) == words


def test_summer_time_is_the_zones_own():
    assert moment("2026-07-05T08:30:00+00:00", "Europe/Paris") == "5 July at 10:30"


def test_labels():
    assert label("+05:30") == "UTC+05:30" and label("Europe/Paris") == "Europe/Paris"


@pytest.mark.parametrize("text", ["Nowhere/City", "+14:60", "+24:00", "1", None, "", "a" * 65])
def test_what_is_no_zone_is_a_422(text):
    with pytest.raises(FieldError):
        read_zone(text)
