""" "Can't confirm" in a real Chromium (issue 43): the report, then the builder it opens,
on a 390 px phone and a 1280 px desktop."""

from __future__ import annotations

import pytest
from web.builder_save import wait_verdict
from web.test_browser import (
    server,  # noqa: F401 - shared fixture
    submit,
)
from web.test_builder_browser import WIDTHS, no_sideways_scroll, tab  # noqa: F401

pytestmark = pytest.mark.browser
DECK = "Digi-Egg deck:\n4 BT1-001\n1 EX13-001\nMain deck:\n42 BT11-061\n4 EX13-010\n4 P-246"


def test_an_ex13_deck_reads_cant_confirm_on_the_report_and_in_the_builder(tab, server):  # noqa: F811
    submit(tab, server, DECK, date="2026-12-04")
    heading = tab.inner_text("#verdict")
    assert "Can't confirm" in heading and "Not legal" not in heading
    words = tab.inner_text("[data-testid=cant-confirm]")
    assert "EX-13 came out 2026-10-02; this card list ends at EX12" in words
    assert "EX13-001" in tab.inner_text("#section-eggs")
    assert no_sideways_scroll(tab)
    tab.click("#open-builder")
    wait_verdict(tab, "? Can't confirm")
    row = tab.locator("[data-testid=builder-deck] [data-number='EX13-001']")
    assert row.get_attribute("data-count") == "1"
    assert "null" not in tab.inner_text("[data-testid=builder-deck]")
    assert no_sideways_scroll(tab)


def test_a_saved_ex13_deck_reads_cant_confirm_on_its_page(tab, server):  # noqa: F811
    made = tab.request.post(
        f"{server}/api/v1/decks", data={"format": "dcg", "name": "Knights", "decklist": DECK}
    )
    assert made.status == 201
    deck = made.json()["deck"]
    assert deck["verdict"] == "unconfirmed"
    tab.goto(f"{server}/d/{deck['id']}")
    tab.wait_for_selector("#deck-verdict .verdict-line")
    line = tab.inner_text("#deck-verdict .verdict-line")
    assert line.startswith("? Can't confirm") and "Not legal" not in line
    assert "can't confirm" in tab.inner_text("#deck-cards [data-number='EX13-001']")
    assert "null" not in tab.inner_text("#deck-cards")
    assert no_sideways_scroll(tab)
