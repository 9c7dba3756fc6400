"""Every page at home on a phone and a laptop: each HTML page of the service, opened in
a real headless Chromium at 390 and 1280 px, must not scroll sideways, must show every
table cell's text whole (no cell overflowing, no word broken across lines: a column is
never squeezed below its longest word), and must pass axe-core with no violation.

`test_the_walk_covers_every_page` holds the walk to the app's own URL map, so a new
page is walked the day it lands.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from conftest import ROOT, new_app
from fixture_cards import ST1_COUNTS, ST1_TEXT
from served import served
from web import axe

pytestmark = pytest.mark.browser
ARTIFACTS = ROOT / "test-artifacts" / "pages"
WIDTHS = (1280, 390)
DECK = ",".join(f"{n}*{c}" for n, c in ST1_COUNTS)
ILLEGAL = ST1_TEXT.replace("4 ST1-03", "5 ST1-03") + "\n2 ST2-13\n1 Notamon"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """One app and server for the whole walk, with an event holding three players."""
    app = new_app(tmp_path_factory.mktemp("site"))
    client = app.test_client()
    made = client.post(
        "/api/v1/events",
        json={"name": "Saturday Cup", "format": "dcg",
              "deadline": "2099-12-05T09:00:00+01:00"},
    )  # fmt: skip
    assert made.status_code == 201, made.get_json()
    event = made.get_json()
    receipts = []
    # "Lovelace, Ada" looks like "Ada Lovelace": the table's merge flag is walked too.
    players = ("Ada Lovelace", ST1_TEXT), ("Bob", ILLEGAL), ("Chandrasekhar", ST1_TEXT)
    for player, text in (*players, ("Lovelace, Ada", ST1_TEXT)):
        sent = client.post(
            f"/api/v1/events/{event['id']}/submissions", json={"player": player, "decklist": text}
        )
        assert sent.status_code == 201, sent.get_json()
        receipts.append(sent.get_json()["submission"])
    # A closed event that publishes its lists (open decklists, issue 44).
    closed = client.post(
        "/api/v1/events",
        json={"name": "Friday Cup", "format": "dcg", "publish": "all",
              "deadline": "2099-12-05T09:00:00+01:00"},
    ).get_json()  # fmt: skip
    for player, text in players:
        client.post(
            f"/api/v1/events/{closed['id']}/submissions", json={"player": player, "decklist": text}
        )
    client.post(
        f"/api/v1/events/{closed['id']}/lock",
        headers={"Authorization": "Bearer " + closed["admin_token"]},
    )
    saved = client.post("/api/v1/decks", json={"format": "dcg", "name": "Red", "decklist": ILLEGAL})
    assert saved.status_code == 201, saved.get_json()
    with served(app) as base:
        yield {
            "base": base,
            "event": event,
            "receipt": receipts[0],
            "app": app,
            "deck": saved.get_json(),
            "closed": closed,
        }


def _post_form(page, base: str, path: str, fields: dict[str, str]) -> None:
    """Open a page answered to a POST, as a browser's form would send it."""
    page.goto(base + "/")
    page.evaluate(
        """([action, fields]) => {
            const form = document.createElement("form");
            form.method = "post";
            form.action = action;
            for (const [name, value] of Object.entries(fields)) {
                const input = document.createElement("textarea");
                input.name = name;
                input.value = value;
                form.append(input);
            }
            document.body.append(form);
            form.submit();
        }""",
        [base + path, fields],
    )
    page.wait_for_load_state()


def _report(page, site):
    page.goto(site["base"] + "/")
    page.fill("#date", "2025-01-01")
    page.fill("#decklist", ILLEGAL)
    page.click("form.check button[type=submit]")
    page.wait_for_selector("#verdict")


def _event_results(page, site):
    pasted = f"=== Zoe (2) ===\n{ST1_TEXT}\n=== Adam Longname-Smithson (1) ===\n{ILLEGAL}\n"
    page.goto(site["base"] + "/event")
    page.fill("#event", "Saturday Cup")
    page.fill("#date", "2025-01-01")
    page.fill("#pasted", pasted)
    page.click("form.check button[type=submit]")
    page.wait_for_selector("#results")


def _event_sheets(page, site):
    _event_results(page, site)
    page.click("text=Registration sheets")
    page.wait_for_selector("article.sheet")


def _deck_check(page, site):
    _post_form(
        page,
        site["base"],
        "/deck-check",
        {"format": "dcg", "registered": ST1_TEXT, "presented": ILLEGAL},
    )
    page.wait_for_selector("#lock-verdict")


def _admin(page, site):
    event = site["event"]
    page.goto(f"{site['base']}/e/{event['id']}/admin#{event['admin_token']}")
    page.wait_for_selector("#submissions")
    page.click("#submissions tbody tr:first-child button[data-list]")  # a list shown too
    page.wait_for_selector("#submissions pre.decklist:not([hidden])")


def _admin_deck_check(page, site):
    _admin(page, site)
    page.fill("#presented", ILLEGAL)
    with page.context.expect_page() as opened:
        page.click("#deck-check button[type=submit]")
    checked = opened.value
    checked.wait_for_load_state()
    return checked


def _admin_sheets(page, site):
    _admin(page, site)
    with page.context.expect_page() as opened:
        page.click("#sheets")
    sheets = opened.value
    sheets.wait_for_selector("article.sheet")
    return sheets


def _created(page, site):
    page.goto(site["base"] + "/e/new")
    page.fill("#name", "Sunday Cup")
    page.fill("#deadline", "2099-12-05T09:00")
    page.click("#new-event button[type=submit]")
    page.wait_for_selector("#admin-link")


def _builder(page, site):
    page.goto(f"{site['base']}/build?format=dcg&main={DECK}&eggs=ST1-01*4&q=agumon")
    page.locator("[data-testid=builder-result]").first.wait_for()
    page.locator("[data-testid=builder-odds] tbody tr").first.wait_for()


def _saved_deck(page, site):
    page.goto(f"{site['base']}/d/{site['deck']['deck']['id']}")
    page.wait_for_selector("#deck-versions li")
    page.locator("#deck-odds tbody tr").first.wait_for()


def _deck_editor(page, site):
    page.goto(site["base"] + site["deck"]["edit_url"])
    page.locator("[data-testid=builder-deck] [data-number]").first.wait_for()
    page.locator("[data-testid=builder-odds] tbody tr").first.wait_for()


def _my_decks(page, site):
    _deck_editor(page, site)  # keeps the deck's token in this browser
    page.goto(site["base"] + "/decks")
    page.wait_for_selector("#my-decks[data-ready]")


def _new_collection(site) -> dict:
    made = (
        site["app"]
        .test_client()
        .post("/api/v1/collections", json={"name": "Binder", "cards": ST1_TEXT + "\n2 BT1-010"})
    )
    assert made.status_code == 201, made.get_json()
    return made.get_json()


def _shared_collection(page, site):
    page.goto(f"{site['base']}/c/{_new_collection(site)['collection']['id']}")


def _my_collections(page, site):
    made = _new_collection(site)
    kept = {"id": made["collection"]["id"], "token": made["edit_token"], "name": "Binder"}
    page.goto(site["base"] + "/collections")
    page.evaluate(f"localStorage.setItem('deckcheck.my-collection', '{json.dumps(kept)}')")
    page.goto(site["base"] + "/collections")
    page.wait_for_selector("#my-collections[data-ready]")


def _goto(path: str):
    def visit(page, site):
        page.goto(site["base"] + path.format(**site["event"]))

    return visit


# endpoint -> (name, how to open it). Each opener returns the page to check when it
# opens a new tab (a form with target=_blank).
PAGES = {
    "web.index": [("home", _goto("/"))],
    "web.report": [("report", _report)],
    "web.cards": [
        ("card browser", _goto("/cards?game=dcg&q=greymon")),
        ("card browser, bad query", _goto("/cards?game=dcg&kind=tamer&q=foo:bar")),
    ],
    "web.card": [("card page", _goto("/cards/dcg/ST1-03"))],
    "web.formats": [("formats", _goto("/formats"))],
    "data.about_data": [("about the data", _goto("/about/data"))],
    "web.format_detail": [("format page", _goto("/formats/dcg"))],
    "builder.build": [
        ("builder", _builder),
        ("builder, DBE with no cards", _goto("/build?format=dbe")),
    ],
    "api_page.api_page": [("API page", _goto("/api/v1"))],
    "deck_pages.deck": [("saved deck", _saved_deck)],
    "deck_pages.edit": [("saved deck editor", _deck_editor)],
    "deck_pages.mine": [("my decks", _my_decks)],
    "account_pages.account": [("account", _goto("/account"))],
    "account_pages.use_link": [("one-time link, no secret", _goto("/account/link"))],
    "collection_pages.shared": [("shared collection", _shared_collection)],
    "collection_pages.mine": [("my collections", _my_collections)],
    "event.event_form": [("quick event form", _goto("/event"))],
    "event.event_results": [("quick event results", _event_results)],
    "event.event_sheets": [("quick event sheets", _event_sheets)],
    "event.deck_check": [("deck check form", _goto("/deck-check")), ("deck check", _deck_check)],
    "events.new_event": [("new event", _goto("/e/new"))],
    "events.created": [("event created", _created)],
    "events.open_lists": [
        ("open decklists", lambda page, site: _goto(f"/e/{site['closed']['id']}/lists")(page, site))
    ],
    "events.event_page": [("player's page", _goto("/e/{id}"))],
    "events.receipt": [
        ("receipt", lambda page, site: _goto(site["receipt"]["receipt_url"])(page, site))
    ],
    "events.admin": [("organizer table", _admin)],
    "events.admin_sheets": [("organizer sheets", _admin_sheets)],
    "events.admin_deck_check": [("organizer deck check", _admin_deck_check)],
}
# Files and the organizer table's fragment, not pages a person reads on their own.
NOT_PAGES = {
    "static",
    "web.report_export",
    "event.event_csv",
    "events.admin_csv",
    "events.admin_table",
    "events.create_event",  # a POST that redirects to events.created
    "events.admin_rows",  # the live table's rows
    "events.admin_mark",  # a POST that redirects to the organizer's page
    "events.admin_settings",  # a POST that redirects to the organizer's page
    "events.admin_export",  # files
    "events.submit",
    "events.receipt_qr",  # an SVG picture
    "events.private_qr",  # an SVG picture
    "events.event_qr",  # an SVG picture
    "data.changes_feed",  # an Atom feed
    "decks_feed.changes_feed",  # a saved deck's Atom feed
    "account_decks.account_feed",  # an account's Atom feed
    # The account page after "Make a one-time link": it needs a passkey's session, so
    # tests/web/test_accounts_browser.py walks it (axe included) signed in.
    "account_pages.make_link",
    "deck_pages.deck_picture",  # a saved deck's PNG (tests/decks/test_deck_page.py)
}
WALK = [(name, opener) for openers in PAGES.values() for name, opener in openers]

CHECKS = Path(__file__).with_name("page_checks.js")


@pytest.fixture(scope="module", params=WIDTHS, ids=lambda w: f"{w}px")
def context(request, browser):  # noqa: F811 - the imported fixture
    # The service's CSP forbids inline script: the test context alone may inject axe.
    made = browser.new_context(viewport={"width": request.param, "height": 900}, bypass_csp=True)
    made.set_default_timeout(15000)
    made.width = request.param
    # One tab per width walks every page (each opener navigates it): a new tab per page
    # cost Chromium 70 ms of CPU more than a navigation.
    made.tab = made.new_page()
    yield made
    made.close()


def test_the_walk_covers_every_page(site):
    # The API answers JSON, except its own page (`/api/v1`), which is walked.
    endpoints = {
        rule.endpoint
        for rule in site["app"].url_map.iter_rules()
        if not rule.rule.startswith("/api/") or rule.endpoint == "api_page.api_page"
    }
    assert endpoints - NOT_PAGES - set(PAGES) == set()


# Pages known to fail the walk, each with the reason; strict, so a fix shows here.
KNOWN: dict[tuple[str, int], str] = {}


class Requests:
    """The requests a tab (and the tabs it opens) has in flight, and when the last one
    started or ended: the page is settled when none has been in flight for QUIET."""

    QUIET = 0.1  # seconds; Playwright's "networkidle" waits 0.5 s, 27 s over the walk

    def __init__(self, context) -> None:
        self.in_flight: set[object] = set()
        self.last = time.monotonic()
        self.context = context
        self.listeners = (
            ("request", self._started),
            ("requestfinished", self._ended),
            ("requestfailed", self._ended),
        )
        for event, listener in self.listeners:
            context.on(event, listener)

    def stop(self) -> None:
        """The context outlives the test (one per width): its listeners must not."""
        for event, listener in self.listeners:
            self.context.remove_listener(event, listener)

    def _started(self, request) -> None:
        self.in_flight.add(request)
        self.last = time.monotonic()

    def _ended(self, request) -> None:
        self.in_flight.discard(request)
        self.last = time.monotonic()

    def settle(self, page, timeout: float = 15.0) -> None:
        page.wait_for_load_state()
        deadline = time.monotonic() + timeout
        while self.in_flight or time.monotonic() - self.last < self.QUIET:
            assert time.monotonic() < deadline, f"requests still in flight: {self.in_flight}"
            page.wait_for_timeout(20)  # lets Playwright deliver the request events


@pytest.mark.parametrize(("name", "opener"), WALK, ids=[name for name, _ in WALK])
def test_page(request, context, site, name, opener):
    if (name, context.width) in KNOWN:
        request.applymarker(pytest.mark.xfail(strict=True, reason=KNOWN[name, context.width]))
    requests = Requests(context)
    page = context.tab
    page.goto("about:blank")  # every opener starts from no page (an address with a hash reloads)
    errors: list[str] = []

    def on_error(err) -> None:
        errors.append(str(err))

    page.on("pageerror", on_error)
    shown = opener(page, site) or page
    requests.settle(shown)
    try:
        _check(shown, name, context.width, errors)
    except AssertionError:
        # A picture of the page as it failed: pictures of the pages that pass cost 6 s
        # of the walk's 70 s and were never looked at.
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        slug = name.replace(" ", "-").replace(",", "").replace("'", "")
        shown.screenshot(path=str(ARTIFACTS / f"{slug}-{context.width}.png"), full_page=True)
        raise
    finally:
        requests.stop()
        page.remove_listener("pageerror", on_error)
        if shown is not page:
            shown.close()


def _check(shown, name: str, width: int, errors: list[str]) -> None:
    shown.add_script_tag(content=CHECKS.read_text("utf-8"))
    sideways = shown.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    wide = shown.evaluate("deckcheckWide()") if sideways > 0 else []
    layout = shown.evaluate("deckcheckLayout()")
    axe.load(shown)
    violations = shown.evaluate(
        # Only violations are asked for: axe then skips recording every passing node.
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map(n => n.target).join(' ')}`)"
    )
    assert sideways <= 0, f"{name} scrolls {sideways} px sideways at {width} px: {wide}"
    assert layout == []
    assert violations == []
    assert errors == []


def test_links_to_give_are_shown_whole(context, site):
    """Without DECKCHECK_BASE_URL the server writes paths only (never the request's
    Host); the page writes the whole address it is at."""
    page = context.new_page()
    _created(page, site)
    for link in ("#submit-link", "#admin-link"):
        assert page.get_attribute(link, "href").startswith("/e/")
        assert page.inner_text(link).startswith(f"{site['base']}/e/")
    _admin(page, site)
    players = page.locator("a[data-whole]").first
    assert players.inner_text() == f"{site['base']}/e/{site['event']['id']}"
    page.close()
