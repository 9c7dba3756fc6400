"""Clicking in the builder as a player does: Save once the deck's verdict is in, and any
control below the charts only once the click has landed."""

from __future__ import annotations

VERDICT_LINE = "[data-testid=builder-verdict] .verdict-line"

# Counts the clicks the button gets (its own listener, beside the page's).
COUNT_CLICKS = """b => {
    window.deckcheckTestClicks = 0;
    document.querySelector(b).addEventListener(
        "click", () => window.deckcheckTestClicks++, {once: true});
}"""


def wait_verdict(page, text: str) -> None:
    """Until the builder's verdict line starts with `text` (`✘ Not legal`, `✔ Legal`)."""
    page.wait_for_function(
        f"t => document.querySelector('{VERDICT_LINE}')?.textContent.startsWith(t)", arg=text
    )


def click_save(page, button: str = "#b-save") -> None:
    """Save (`#b-save`, or the sticky bar's `#b-bar-save`) after the verdict arrived: the
    bar the verdict fills grows when it does, and a click landing as it grows can hit the
    bar instead of Save."""
    # The judged verdict (✔, ✘ or ?), not the page's own "Not legal yet" line.
    page.wait_for_function(
        f"() => /^[✔✘?]/.test(document.querySelector('{VERDICT_LINE}')?.textContent || '')"
    )
    click_landed(page, button)


def click_landed(page, target: str) -> None:
    """Click `target` in the builder until it gets the click, at most three times.

    A click is a press and a release at one point. The charts and opening-hand odds
    (requests of their own) can arrive between the two and push what lies below them a
    screen down: the press lands on the target (it takes the focus), the release
    elsewhere, and no click happens (a run's picture showed Save focused, off screen,
    nothing sent; another, the collection box still closed). A click the target never
    got is sent again, up to twice; one it got is never repeated, so a toggle such as a
    `<summary>` toggles once."""
    for _ in range(3):
        page.evaluate(COUNT_CLICKS, target)
        page.click(target)
        if page.evaluate("window.deckcheckTestClicks"):
            return
    raise AssertionError(f"{target} got no click in three tries")
