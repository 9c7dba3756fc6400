"""Accessibility in the real browser: axe-core (vendored in tests/vendor, test-only) on
the builder, the report and the card browser. No critical violation may remain; the
serious ones are listed when they appear (aim: none)."""

from __future__ import annotations

import pytest
from fixture_cards import ST1_COUNTS, ST1_TEXT
from web import axe
from web.test_browser import server  # noqa: F401 - shared fixture

pytestmark = pytest.mark.browser
DECK = ",".join(f"{n}*{c}" for n, c in ST1_COUNTS)


@pytest.fixture
def tab(browser, server):  # noqa: F811
    # The service's CSP forbids inline script: the test context alone may inject axe.
    context = browser.new_context(viewport={"width": 1000, "height": 900}, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


def violations(page) -> list[dict]:
    axe.load(page)
    result = page.evaluate(
        # Only violations are asked for: axe then skips recording every passing node.
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
    )
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:3]}
        for v in result
    ]


def open_report(page, server) -> None:  # noqa: F811
    page.goto(server + "/")
    page.fill("#decklist", ST1_TEXT + "\n5 ST1-03\n1 Notamon")
    page.click("form.check button[type=submit]")
    page.wait_for_selector("#verdict")


PAGES = {
    "builder": lambda page, base: (
        page.goto(f"{base}/build?format=dcg&main={DECK}&eggs=ST1-01*4&q=agumon"),
        page.locator("[data-testid=builder-result]").first.wait_for(),
        page.locator("[data-testid=builder-odds] tbody tr").first.wait_for(),
    ),
    "report": open_report,
    "card browser": lambda page, base: page.goto(f"{base}/cards?game=dcg&q=greymon"),
    "card page": lambda page, base: page.goto(f"{base}/cards/dcg/ST1-03"),
}


@pytest.mark.parametrize("name", list(PAGES))
def test_no_critical_or_serious_violations(tab, server, name):  # noqa: F811
    PAGES[name](tab, server)
    found = violations(tab)
    assert [v for v in found if v["impact"] == "critical"] == []
    assert [v for v in found if v["impact"] == "serious"] == []
