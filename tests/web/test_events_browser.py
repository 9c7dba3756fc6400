"""Events in a real Chromium: create an event, three players send lists (one illegal,
one sent again), lock, a late list refused, sheets printed to PDF on A4 and Letter
(one page per player), a deck check at the table."""

from __future__ import annotations

import csv
import re

import pytest
from conftest import ROOT
from fixture_cards import ST1_TEXT
from playwright.sync_api import expect
from web.test_browser import server  # noqa: F401 - shared fixture

from cardpool.shipped import read_shipped

pytestmark = pytest.mark.browser
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture
def context(browser):  # noqa: F811 - the imported fixture
    made = browser.new_context(viewport={"width": 1100, "height": 900})
    made.set_default_timeout(15000)
    yield made
    made.close()


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


def _send(page, base, event_id, player, text):
    page.goto(f"{base}/e/{event_id}")
    page.fill("#player", player)
    page.fill("#decklist", text)
    page.click("#submit-form button[type=submit]")
    page.wait_for_selector("#verdict, #confirm")
    if page.locator("#confirm").count():
        # An illegal list: the form comes back with its problems until sent anyway.
        assert "send it anyway?" in page.inner_text("#confirm")
        assert page.input_value("#decklist") == text and page.input_value("#player") == player
        page.click("#send-anyway")
        page.wait_for_selector("#verdict")
    return page.inner_text("#verdict")


def _post(page, base, event_id, player, text) -> None:
    """A list sent as the event's form posts it, "send anyway" included: for tests about
    what comes after (the form's own steps: `_send`)."""
    sent = page.request.post(
        f"{base}/e/{event_id}", form={"player": player, "decklist": text, "anyway": "1"}
    )
    assert sent.ok, sent.status


def _create(page, base, name="Saturday Cup"):
    page.goto(base + "/e/new")
    page.fill("#name", name)
    page.fill("#deadline", "2099-12-05T09:00")
    page.fill("#date", "2021-01-01")
    page.click("#new-event button[type=submit]")
    admin = page.get_attribute("#admin-link", "href")
    return admin.split("/")[2], admin


def _sheets_pdf(context, page) -> dict[str, int]:
    with context.expect_page() as opened:
        page.click("#sheets")
    sheets = opened.value
    sheets.wait_for_selector("article.sheet")
    sheets.emulate_media(media="print")
    counts = {}
    for paper in ("A4", "Letter"):
        pdf = sheets.pdf(format=paper, print_background=True)
        (ARTIFACTS / f"event-sheets-{paper}.pdf").write_bytes(pdf)
        counts[paper] = _pages(pdf)
    sheets.close()
    return counts


def test_an_event_from_creation_to_the_table(context, server):  # noqa: F811
    ARTIFACTS.mkdir(exist_ok=True)
    errors = []
    page = context.new_page()
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    event_id, admin = _create(page, server)
    assert "Legal" in _send(page, server, event_id, "Alice", ST1_TEXT)
    assert "Not legal" in _send(page, server, event_id, "Bob", "4 ST1-03")
    assert "Not legal" in _send(page, server, event_id, "Carol", "4 ST1-02")
    page.click("#resubmit")
    # The private link opens Carol's own list, filled in; she changes only the list.
    expect(page.locator("#decklist")).to_have_value("4 ST1-02")
    assert page.input_value("#player") == "Carol"
    page.fill("#decklist", ST1_TEXT)
    page.click("#submit-form button[type=submit]")
    page.wait_for_selector("#verdict")
    assert "Legal" in page.inner_text("#verdict") and page.locator("#receipt-qr img").count()

    page.goto(server + admin)
    page.wait_for_selector("#submissions")
    assert page.locator("#submissions tbody tr").count() == 3
    page.check("#only-illegal")
    visible = page.locator("#submissions tbody tr:visible td.player a").all_inner_texts()
    assert visible == ["Bob"]
    page.uncheck("#only-illegal")

    page.click("#lock")
    page.wait_for_selector("#table .deadline strong")
    assert "locked" in page.inner_text("#table .deadline")
    late = context.new_page()
    late.goto(f"{server}/e/{event_id}")
    assert late.locator("#closed").is_visible() and late.locator("#submit-form").count() == 0
    refused = late.request.post(
        f"{server}/e/{event_id}", form={"player": "Dave", "decklist": ST1_TEXT}
    )
    assert refused.status == 409
    late.close()

    assert _sheets_pdf(context, page) == {"A4": 3, "Letter": 3}

    page.select_option("#check-player", label="Alice")
    page.fill("#presented", ST1_TEXT.replace("4 ST1-03", "3 ST1-03\n1 ST1-02"))
    with context.expect_page() as opened:
        page.click("#deck-check button[type=submit]")
    check = opened.value
    check.wait_for_selector("#lock-verdict")
    assert "The decks differ" in check.inner_text("#lock-verdict")
    assert check.locator("#differences tbody tr").count() == 2
    check.close()
    assert errors == []


def _long_list(lines: int) -> str:
    # The starter decks ST1-ST6 (what the starter pool held before the whole list shipped).
    text = read_shipped("dcg").decode("utf-8")
    rows = [r for r in csv.reader(text.splitlines()) if re.match(r"ST[1-6]-", r[0])]
    return "\n".join(f"1 {row[1]} {row[0]}" for row in rows[:lines])


@pytest.mark.parametrize("lines", [50, 60])
def test_sheets_print_one_page_per_player(context, server, lines):  # noqa: F811
    ARTIFACTS.mkdir(exist_ok=True)
    page = context.new_page()
    event_id, admin = _create(page, server, "Long lists")
    # The lists go in as the form posts them; this test is about the sheets. Through the
    # page's form (`_send`), the two cases took 6 s more of CPU.
    lists = {f"Player {n}": _long_list(lines - n) for n in range(4)} | {"Short": "4 ST1-03"}
    for player, text in lists.items():
        _post(page, server, event_id, player, text)
    page.goto(server + admin)
    page.wait_for_selector("#submissions")
    assert _sheets_pdf(context, page) == {"A4": 5, "Letter": 5}


def test_drop_and_restore_from_the_organizers_page(context, server):  # noqa: F811
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    event_id, admin = _create(page, server, "Drops")
    for player in ("Alice", "Bob"):
        _post(page, server, event_id, player, ST1_TEXT)
    page.goto(server + admin)
    page.wait_for_selector("#submissions")
    page.click("button[data-drop][data-player=Bob]")
    page.wait_for_selector("#dropped button[data-restore]")
    assert page.locator("#submissions tbody tr").count() == 1
    again = page.request.post(
        f"{server}/e/{event_id}", form={"player": "bob", "decklist": ST1_TEXT}
    )
    assert again.status == 409
    page.click("#dropped button[data-restore]")
    page.wait_for_selector("#dropped", state="detached")
    assert page.locator("#submissions tbody tr").count() == 2
