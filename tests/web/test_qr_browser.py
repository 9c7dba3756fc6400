"""QR codes that scan (issue 35): every QR code a player or organizer is shown, rendered by
a real Chromium and read back by a real decoder (zxing-cpp), holds a full address. The
server has no DECKCHECK_BASE_URL here (the README's run command), so the address comes
from the browser; the server never builds one from the Host header."""

from __future__ import annotations

import io
import re

import pytest
from event_requests import LATER
from fixture_cards import ST1_TEXT
from web.test_browser import server  # noqa: F401 - shared fixture

pytestmark = pytest.mark.browser
zxingcpp = pytest.importorskip("zxingcpp")
Image = pytest.importorskip("PIL.Image")


def decode(locator) -> str:
    """The text of the QR code shown in `locator` (an <img>), as a phone would read it."""
    locator.scroll_into_view_if_needed()
    loaded = locator.evaluate("img => img.complete && img.naturalWidth > 0")
    assert loaded, "the QR image did not render"
    box = locator.bounding_box()
    assert box and box["width"] > 0 and box["height"] > 0
    picture = Image.open(io.BytesIO(locator.screenshot()))
    found = zxingcpp.read_barcodes(picture)
    assert found, "no QR code could be read from the image"
    return found[0].text


@pytest.fixture(params=(390, 1280), ids=lambda w: f"{w}px")
def tab(request, browser):
    # A sharp rendering, as a printer's: the sheets show each code 66 px wide.
    context = browser.new_context(
        viewport={"width": request.param, "height": 900}, device_scale_factor=3
    )
    context.set_default_timeout(15000)
    yield context.new_page()
    context.close()


def _event(tab, base: str) -> dict:
    made = tab.request.post(
        f"{base}/api/v1/events",
        data={"name": "QR Cup", "format": "dcg", "date": "2021-01-01", "deadline": LATER},
    )
    assert made.status == 201
    return made.json()


def test_receipt_and_private_link_codes_hold_full_addresses(tab, server):  # noqa: F811
    event = _event(tab, server)
    tab.goto(f"{server}/e/{event['id']}")
    tab.fill("#player", "Quinn")
    tab.fill("#decklist", ST1_TEXT)
    tab.click("#submit-form button[type=submit]")
    tab.wait_for_selector("#verdict")
    receipt = tab.url
    assert re.fullmatch(rf"{server}/e/{event['id']}/r/[A-Za-z0-9_-]+", receipt)
    assert decode(tab.locator("#receipt-qr img")) == receipt
    private = tab.get_attribute("#private-link", "href")
    assert decode(tab.locator("#private-qr img")) == server + private
    # Links shown to copy are whole too.
    assert tab.inner_text("#receipt-link") == receipt
    assert tab.inner_text("#private-link") == server + private


def test_every_code_on_the_printed_sheets_and_the_players_code(tab, server):  # noqa: F811
    event = _event(tab, server)
    for player in ("Ana", "Ben"):
        sent = tab.request.post(
            f"{server}/api/v1/events/{event['id']}/submissions",
            data={"player": player, "decklist": ST1_TEXT},
        )
        assert sent.status == 201
    tab.goto(f"{server}/e/{event['id']}/admin#{event['admin_token']}")
    tab.wait_for_selector("#submissions")
    # The links' Copy buttons are second choices: outlined, not filled like the main button.
    look = tab.eval_on_selector(
        "button.copy",
        "b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).borderTopStyle]",
    )
    assert look == ["rgb(255, 255, 255)", "solid"]
    assert tab.locator("#no-base-url").is_visible()
    tab.click("#players-qr-toggle")
    assert decode(tab.locator("#players-qr img")) == f"{server}/e/{event['id']}"
    with tab.context.expect_page() as opened:
        tab.click("#sheets")
    sheets = opened.value
    sheets.wait_for_selector("article.sheet")
    codes = sheets.locator("article.sheet .qr img")
    assert codes.count() == 2
    for n in range(2):
        text = decode(codes.nth(n))
        assert re.fullmatch(rf"{server}/e/{event['id']}/r/[A-Za-z0-9_-]+", text), text


def test_a_qr_image_is_valid_svg_and_ignores_a_made_up_origin(tab, server):  # noqa: F811
    event = _event(tab, server)
    answer = tab.request.get(f"{server}/e/{event['id']}/qr.svg?origin=https://x.example")
    body = answer.text()
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert body.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and "viewBox" in body
    # Only an origin (scheme, host, port) is put in front of the event's own path.
    for bad in ("javascript:alert(1)", "https://x.example/path", "https://a b", "//x"):
        odd = tab.request.get(f"{server}/e/{event['id']}/qr.svg", params={"origin": bad})
        assert f"<title>/e/{event['id']}</title>" in odd.text()
