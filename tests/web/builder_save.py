"""Clicking Save in the builder as a player does: once the deck's verdict is in."""

from __future__ import annotations

VERDICT_LINE = "[data-testid=builder-verdict] .verdict-line"


def click_save(page, button: str = "#b-save") -> None:
    """Save (`#b-save`, or the sticky bar's `#b-bar-save`) after the verdict arrived: the
    bar the verdict fills grows when it does, and a click landing as it grows can hit the
    bar instead of Save (a CI run saw a Save send nothing)."""
    page.wait_for_selector(VERDICT_LINE)
    page.click(button)
