"""The organizer's live table in a real Chromium at 390 and 1280 px (issue 44): a list
sent while the page is open appears without a reload, a check-in made on another device
shows, a mark set from the row's form updates the row in place, "Your events" lists the
event on /e/new, and nothing scrolls sideways."""

from __future__ import annotations

import pytest
from fixture_cards import ST1_TEXT
from web.test_browser import server  # noqa: F401 - shared fixture
from web.test_events_organizer_browser import create, fits, page, send  # noqa: F401

pytestmark = pytest.mark.browser
POLL = 4000  # ms between the live table's questions (EVERY in events-admin.js)


def test_the_table_fills_without_a_reload(page, server):  # noqa: F811
    event_id, admin = create(page, server)
    token = admin.split("#", 1)[1]
    send(page, server, event_id, player="Alice", decklist=ST1_TEXT)
    # The page's clock runs as a real one, but the test can move it on: the live table
    # asks every 4 s (POLL), and waiting them out twice at each width was 13 s a run.
    page.clock.install()
    page.goto(server + admin)
    page.wait_for_selector("#submissions tr[data-player=Alice]")
    loaded = page.get_attribute("#table", "data-loaded")

    # Another phone at the venue sends a list; the table shows it within a few seconds.
    send(page, server, event_id, player="Ninth Player", decklist="4 ST1-03")
    page.clock.fast_forward(POLL)
    page.wait_for_selector("#submissions tr[data-player='Ninth Player']", timeout=12000)
    assert page.get_attribute("#table", "data-loaded") == loaded  # rows came in, no reload
    assert page.inner_text("#tally strong >> nth=0") == "2"
    assert fits(page)

    # A check-in from another device shows too.
    alice = page.get_attribute("tr[data-player=Alice]", "data-id")
    answer = page.request.post(
        f"{server}/api/v1/events/{event_id}/submissions/{alice}/check-in",
        headers={"Authorization": "Bearer " + token},
    )
    assert answer.ok
    page.clock.fast_forward(POLL)
    page.wait_for_selector("tr[data-player=Alice][data-checked-in=yes]", timeout=12000)
    assert "checked in" in page.inner_text("tr[data-player=Alice] td.marks")

    # The row's own form (undo the check-in) goes through the API, in place.
    page.click("tr[data-player=Alice] form[data-mark=checked_in] button")
    page.wait_for_selector("tr[data-player=Alice][data-checked-in=no]")
    assert page.get_attribute("#table", "data-loaded") == loaded
    assert fits(page)

    # The organizer's browser keeps the event in "Your events".
    page.goto(server + "/e/new")
    page.wait_for_selector("#my-events:not([hidden])")
    assert page.inner_text("#my-events a") == "Night Cup"
    assert page.get_attribute("#my-events a", "href").endswith(admin)
    assert fits(page)
