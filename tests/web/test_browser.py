"""The pages in a real headless Chromium: paste a deck, read the verdict; browse cards.

Chromium is Debian's (/usr/bin/chromium), driven by Playwright. Without it these
tests skip, except in CI (CI=true), where a missing browser is a failure.
"""

from __future__ import annotations

import pytest
from fixture_cards import ST1_TEXT
from served import served

pytestmark = pytest.mark.browser


@pytest.fixture
def server(app):
    with served(app) as base:
        yield base


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    tab = context.new_page()
    tab.set_default_timeout(15000)
    yield tab
    context.close()


def submit(page, server, decklist, format_id="dcg", date="2021-01-01"):
    page.goto(server + "/")
    page.select_option("#format", format_id)
    page.fill("#date", date)
    page.fill("#decklist", decklist)
    page.click("button[type=submit]")
    page.wait_for_selector("#verdict")


def test_paste_a_legal_deck(page, server):
    submit(page, server, ST1_TEXT)
    assert "Legal" in page.inner_text("#verdict")
    assert page.inner_text("#fingerprint").startswith("sha256:")


def test_paste_an_illegal_deck_and_read_the_violation(page, server):
    submit(page, server, ST1_TEXT.replace("4 ST1-03", "5 ST1-03") + "\n4 Notamon")
    assert "Not legal" in page.inner_text("#verdict")
    problems = page.inner_text("#problems + ol")
    assert "5 copies of ST1-03 Agumon" in problems and "Remove 1 copy" in problems
    assert "'Notamon' is not a Digimon Card Game card" in problems


def test_share_link_reproduces_the_report(page, server):
    submit(page, server, ST1_TEXT)
    fingerprint = page.inner_text("#fingerprint")
    page.click("#share")
    page.wait_for_load_state()
    assert page.inner_text("#fingerprint") == fingerprint


def test_player_text_is_escaped(page, server):
    submit(page, server, "4 <img src=x onerror=alert(1)>\n<script>alert(2)</script>")
    assert page.locator("img[src=x]").count() == 0
    # The line is shown as the player typed it, as text (the unread-lines table).
    assert "4 <img src=x onerror=alert(1)>" in page.inner_text("#unread")
    assert "<script>alert(2)</script>" in page.inner_text("#unread")


def test_search_the_card_browser(page, server):
    page.goto(server + "/cards")
    page.fill("#q", "agumon set:st1")
    page.select_option("#game", "dcg")
    page.click("form.search button")
    page.wait_for_selector("#total")
    assert "ST1-03" in page.inner_text("table.cards")
    page.click("text=ST1-03")
    assert page.inner_text("h1") == "ST1-03 Agumon"


def test_keyboard_only(page, server):
    page.goto(server + "/")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"


def test_no_console_errors_under_the_content_security_policy(page, server):
    errors = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    submit(page, server, ST1_TEXT)
    page.goto(server + "/formats/dcg")
    assert errors == []


def test_event_table_sorts_and_sheets_print(page, server):
    pasted = f"=== Zoe (2) ===\n{ST1_TEXT}\n=== Adam (1) ===\n{ST1_TEXT}\n5 ST1-03\n"
    page.goto(server + "/event")
    page.fill("#event", "Saturday Cup")
    page.fill("#date", "2021-01-01")
    page.fill("#pasted", pasted)
    page.click("form.check button[type=submit]")
    page.wait_for_selector("#results")
    assert page.inner_text("#tally") == "1 of 2 decks legal"
    page.click("button.sort[data-column='0']")
    first = page.inner_text("#results tbody tr:first-child td:first-child")
    assert first == "Adam"
    page.click("button.sort[data-column='0']")
    assert page.inner_text("#results tbody tr:first-child td:first-child") == "Zoe"
    page.click("text=Registration sheets")
    page.wait_for_selector("article.sheet")
    players = page.locator("article.sheet dd.player").all_inner_texts()
    assert players == ["Adam", "Zoe"]
    page.emulate_media(media="print")
    assert page.locator("header.site").is_hidden()
