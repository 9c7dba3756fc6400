"""Make the screenshots docs/builder.md shows: the builder, the report and the organizer
table at 1280 and 390 px, in Debian's headless Chromium, on the bundled starter pool.

    .venv/bin/python tests/web/make_screenshots.py [folder]   (default docs/screenshots)

Not a test (no `test_` prefix): run by hand after a change to how these pages look.
Card images are off: no image host is reached from here, so tiles show card text.
"""

from __future__ import annotations

import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from fixture_cards import ST1_COUNTS, ST1_TEXT  # noqa: E402

from deckcheck import create_app  # noqa: E402

WIDTHS = {1280: 900, 390: 844}
ILLEGAL = ST1_TEXT.replace("4 ST1-03", "5 ST1-03") + "\n2 ST2-13\n1 Notamon"


def serve(folder: Path) -> tuple[str, dict]:
    (folder / "formats").mkdir()
    app = create_app(
        {
            "DATABASE": str(folder / "cards.db"),
            "FORMATS_DIR": str(folder / "formats"),
            "EVENTS_DATABASE": str(folder / "events.db"),
            "SECRET_KEY": "screenshots",
            "CARD_IMAGES": "off",
        }
    )
    client = app.test_client()
    event = client.post(
        "/api/v1/events",
        json={"name": "Saturday Cup", "format": "dcg", "deadline": "2099-12-05T09:00:00+01:00"},
    ).get_json()
    for player, text in (("Ada", ST1_TEXT), ("Bob", ILLEGAL), ("Chandra", ST1_TEXT)):
        client.post(
            f"/api/v1/events/{event['id']}/submissions", json={"player": player, "decklist": text}
        )
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{httpd.server_port}", event


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        base, event = serve(Path(tmp))
        deck = ",".join(f"{n}*{c}" for n, c in ST1_COUNTS if n != "ST1-16")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
            )
            for width, height in WIDTHS.items():
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(f"{base}/build?format=dcg&main={deck}&eggs=ST1-01*4&q=agumon")
                page.locator("[data-testid=builder-result]").first.wait_for()
                page.locator("[data-testid=builder-odds] tbody tr").first.wait_for()
                page.wait_for_load_state("networkidle")
                page.screenshot(path=str(out / f"builder-{width}.png"))
                if width < 600:  # on a phone the deck is below the results
                    page.locator("#b-deck-title").scroll_into_view_if_needed()
                    page.screenshot(path=str(out / f"builder-deck-{width}.png"))
                page.goto(base + "/")
                page.fill("#decklist", ILLEGAL)
                page.fill("#date", "2025-01-01")
                page.click("form.check button[type=submit]")
                page.wait_for_selector("#verdict")
                page.screenshot(path=str(out / f"report-{width}.png"))
                page.goto(f"{base}/e/{event['id']}/admin#{event['admin_token']}")
                page.wait_for_selector("#submissions")
                page.locator("#table").screenshot(path=str(out / f"organizer-{width}.png"))
                page.close()
            browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots")
