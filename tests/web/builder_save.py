"""Clicking Save in the builder as a player does: once the deck's verdict is in."""

from __future__ import annotations

VERDICT_LINE = "[data-testid=builder-verdict] .verdict-line"

# Counts the clicks the button gets (its own listener, beside the page's).
COUNT_CLICKS = """b => {
    window.deckcheckTestClicks = 0;
    document.querySelector(b).addEventListener(
        "click", () => window.deckcheckTestClicks++, {once: true});
}"""


def click_save(page, button: str = "#b-save") -> None:
    """Save (`#b-save`, or the sticky bar's `#b-bar-save`) after the verdict arrived: the
    bar the verdict fills grows when it does, and a click landing as it grows can hit the
    bar instead of Save.

    A click is a press and a release at one point. The opening-hand odds (a request of
    their own) can arrive between the two and push Save a screen down: the press lands
    on Save (it takes the focus), the release elsewhere, and no click happens (a run's
    picture showed Save focused, off screen, nothing sent). A click Save never got is
    sent again, up to twice; one it got is never repeated."""
    page.wait_for_selector(VERDICT_LINE)
    for _ in range(3):
        page.evaluate(COUNT_CLICKS, button)
        page.click(button)
        if page.evaluate("window.deckcheckTestClicks"):
            return
    raise AssertionError(f"{button} got no click in three tries")
