"""The report in a real headless Chromium on a 390 px phone: chart labels, unread lines.

Chromium is Debian's (/usr/bin/chromium), driven by Playwright; the fixtures come from
test_browser.py (skipped without Chromium, a failure in CI).
"""

from __future__ import annotations

import pytest
from web.test_browser import ARTIFACTS, server  # noqa: F401 - shared fixture

pytestmark = pytest.mark.browser

# Every Digi-Battle level and several kinds, so every chart has its longest labels.
DIGIBATTLE = "\n".join(
    [
        "ST-01 Agumon",
        "ST-02 Greymon",
        "ST-21 Kimeramon",
        "ST-33 HerculesKabuterimon",
        "ST-03 Biyomon",
        "ST-04 Birdramon",
        "ST-28 MegaKabuterimon",
        "ST-34 SaberLeomon",
    ]
)


@pytest.fixture
def phone(browser):  # noqa: F811
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    tab = context.new_page()
    tab.set_default_timeout(15000)
    yield tab
    context.close()


def open_report(page, server, decklist, format_id):  # noqa: F811
    page.goto(server + "/")
    page.select_option("#format", format_id)
    page.fill("#decklist", decklist)
    page.click("button[type=submit]")
    page.wait_for_selector("#verdict")


def label_boxes(page) -> list[list[dict]]:
    """Each chart's label boxes as drawn on screen (after any scaling of the SVG)."""
    return page.eval_on_selector_all(
        ".stats svg",
        """svgs => svgs.map(svg => [...svg.querySelectorAll('text.label')].map(t => {
            const r = t.getBoundingClientRect();
            return {text: t.textContent, left: r.left, right: r.right, width: r.width};
        }))""",
    )


def test_digibattle_chart_labels_never_overlap_on_a_phone(phone, server):  # noqa: F811
    open_report(phone, server, DIGIBATTLE, "digibattle")
    charts = label_boxes(phone)
    assert charts and any(len(c) >= 4 for c in charts)
    for labels in charts:
        for left, right in zip(labels, labels[1:], strict=False):
            assert left["width"] > 0
            # A clear gap, not just "not touching": a wider phone font must still fit.
            gap = right["left"] - left["right"]
            assert gap >= 6, f"{left['text']!r} and {right['text']!r} are {gap:.1f} px apart"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "report-digibattle-390.png"), full_page=True)


def test_colour_or_type_is_shown_for_digibattle(phone, server):  # noqa: F811
    open_report(phone, server, DIGIBATTLE, "digibattle")
    cells = phone.eval_on_selector_all(
        "#section-main tbody tr td:last-child", "cells => cells.map(c => c.textContent)"
    )
    assert cells and all(cells), cells
    assert "Red, Vaccine" in cells
