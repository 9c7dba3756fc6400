"""The report in a real headless Chromium on a 390 px phone: chart labels, unread lines.

Chromium is Debian's (/usr/bin/chromium), driven by Playwright; the fixtures come from
test_browser.py (skipped without Chromium, a failure in CI).
"""

from __future__ import annotations

import pytest
from fixture_cards import ST1_TEXT
from web.test_browser import server  # noqa: F401 - shared fixture

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


def test_colour_or_type_is_shown_for_digibattle(phone, server):  # noqa: F811
    open_report(phone, server, DIGIBATTLE, "digibattle")
    cells = phone.eval_on_selector_all(
        "#section-main tbody tr td:last-child", "cells => cells.map(c => c.textContent)"
    )
    assert cells and all(cells), cells
    assert "Red, Vaccine" in cells


def test_the_deck_is_one_line_a_card_on_a_phone(phone, server):  # noqa: F811
    """The report's deck at 390 px: each card one line (count, number, name, level),
    not a block of six labelled lines (16 cards took 4,184 px before, 1,947 after)."""
    open_report(phone, server, ST1_TEXT, "dcg")
    lines = phone.eval_on_selector_all(
        "table.deck:not(.unread) tbody tr",
        """rows => rows.map(row => {
            const tops = [...row.cells].filter(c => c.getClientRects().length)
                .map(c => Math.round(c.getBoundingClientRect().top));
            // Baselines align; tops of one line differ by a pixel or two, a new line by ~24.
            return {cells: tops.length, spread: Math.max(...tops) - Math.min(...tops)};
        })""",
    )
    assert len(lines) == 16
    assert [line for line in lines if line["cells"] < 3 or line["spread"] >= 10] == []
    assert phone.evaluate("document.documentElement.scrollHeight") < 2600
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_chart_labels_keep_their_size_on_a_phone(phone, server):  # noqa: F811
    """Issue 41: at 390 px the charts were scaled down to fit a row of figures and their
    labels ("option", the colours) shrank to 27 px wide; drawn at their size (10 px
    text, within 5%), each chart on its own line, none wider than the page."""
    open_report(phone, server, ST1_TEXT, "dcg")
    scales = phone.eval_on_selector_all(
        ".stats svg",
        """svgs => svgs.map(s => {
            const box = s.getBoundingClientRect(), view = s.viewBox.baseVal;
            return Math.min(box.width / view.width, box.height / view.height);
        })""",
    )
    assert scales and min(scales) >= 0.95, scales
    labels = {box["text"]: box["width"] for chart in label_boxes(phone) for box in chart}
    assert labels["option"] >= 30, labels
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
