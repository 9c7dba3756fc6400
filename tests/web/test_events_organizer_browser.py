"""The organizer's page and the event's form in a real Chromium at 390 and 1280 px
(issue 35): the time zone filled in from the device, one of Lock / Unlock, a list shown
on demand, two rows of one player flagged and merged, Drop outlined in red behind a
confirmation, "Create an event" in the menu, and a list sent from the builder filling
the form. Nothing scrolls sideways."""

from __future__ import annotations

import pytest
from fixture_cards import ST1_TEXT
from web.test_browser import server  # noqa: F401 - shared fixture

pytestmark = pytest.mark.browser
ZONE = "America/Chicago"


@pytest.fixture(params=[390, 1280], ids=lambda w: f"{w}px")
def page(browser, request):
    context = browser.new_context(
        viewport={"width": request.param, "height": 900}, timezone_id=ZONE
    )
    context.set_default_timeout(15000)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    yield tab
    context.close()
    assert errors == []


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def send(page, base, event_id, **body):
    answer = page.request.post(f"{base}/api/v1/events/{event_id}/submissions", data=body)
    assert answer.status == 201, answer.text()
    return answer.json()


def create(page, base) -> tuple[str, str]:
    """An event made with the form, reached from the site's menu."""
    page.goto(base + "/")
    page.click("nav >> text=Create an event")
    page.wait_for_selector("#new-event")
    assert page.input_value("#time_zone") == ZONE  # this device's zone
    assert fits(page)
    page.fill("#name", "Night Cup")
    page.fill("#deadline", "2099-12-05T09:00")
    page.fill("#date", "2021-01-01")
    page.click("#new-event button[type=submit]")
    admin = page.get_attribute("#admin-link", "href")
    return admin.split("/")[2], admin


def test_the_organizer_merges_one_player_written_twice(page, server):  # noqa: F811
    event_id, admin = create(page, server)
    api = page.request.get(f"{server}/api/v1/events/{event_id}").json()
    assert api["time_zone"] == ZONE
    send(page, server, event_id, player="Carol Chen", player_id="0000333", decklist="4 ST1-03")
    send(page, server, event_id, player="Chen, Carol", decklist=ST1_TEXT)
    send(page, server, event_id, player="Bob", decklist=ST1_TEXT)

    page.goto(server + admin)
    page.wait_for_selector("#submissions")
    assert "America/Chicago" in page.inner_text("#submissions caption")
    assert page.locator("#lock").is_visible() and page.locator("#unlock").is_hidden()
    assert page.locator("#submissions .alike").count() == 2
    assert fits(page)

    # The list, on demand, as text.
    show = page.locator("tr[data-player=Bob] button[data-list]")
    show.click()
    box = page.locator("tr[data-player=Bob] pre.decklist")
    box.wait_for(state="visible")
    assert box.inner_text() == ST1_TEXT and show.get_attribute("aria-expanded") == "true"
    assert fits(page)
    show.click()
    assert box.is_hidden()

    # Drop is not the main action: outlined in red, and it asks first (declined here).
    drop = page.locator("tr[data-player=Bob] button[data-drop]")
    colour = drop.evaluate("b => [getComputedStyle(b).color, getComputedStyle(b).backgroundColor]")
    assert colour == ["rgb(164, 22, 26)", "rgb(255, 255, 255)"]
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    drop.click()
    assert asked and "restore" in asked[0]
    assert page.locator("#submissions tbody tr").count() == 3

    # Keep the legal list, merge the first row into it: one row, two lists in its history.
    page.once("dialog", lambda d: d.accept())
    page.click("tr[data-player='Chen, Carol'] button[data-merge]")
    page.wait_for_function("() => document.querySelectorAll('#submissions tbody tr').length === 2")
    row = page.locator("tr[data-player='Chen, Carol']")
    assert "(list 2)" in row.inner_text() and row.get_attribute("data-legal") == "yes"
    assert page.locator("#submissions .alike").count() == 0

    # One of Lock / Unlock.
    page.click("#lock")
    page.locator("#unlock").wait_for(state="visible")
    assert page.locator("#lock").is_hidden()
    page.click("#unlock")
    page.locator("#lock").wait_for(state="visible")
    assert page.locator("#unlock").is_hidden()
    assert fits(page)


def test_a_list_from_the_builder_fills_the_form_and_nothing_else(page, server):  # noqa: F811
    made = page.request.post(
        f"{server}/api/v1/events",
        data={"name": "Cup", "format": "dcg", "deadline": "2099-12-05T09:00:00+01:00"},
    ).json()
    text = ST1_TEXT + "\n// a line with #, & and ünïcode"
    page.goto(f"{server}/e/{made['id']}#list=" + page.evaluate("t => encodeURIComponent(t)", text))
    assert page.input_value("#decklist") == text
    assert page.input_value("#player") == "" and page.input_value("#player_id") == ""
    assert page.locator("#from-builder").is_visible()
    assert fits(page)
