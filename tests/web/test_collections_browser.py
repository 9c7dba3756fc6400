"""Issue 42's "Done when", in a real Chromium on a 390 px phone: a player imports a
TCGplayer export, adds a starter deck and 10 pasted cards, removes two, undoes a mistaken
"Replace all", shares the collection (read without JavaScript), sees per-set completion,
learns which decks they can build and copies a shopping list; a bad paste loses nothing."""

from __future__ import annotations

import json
import re

import pytest
from conftest import new_app
from decks.test_collection_imports import TCGPLAYER
from fixture_cards import ST1_TEXT
from playwright.sync_api import expect
from served import served

pytestmark = pytest.mark.browser
PASTED = "\n".join(f"1 ST2-{n:02d}" for n in range(2, 12))  # 10 cards


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    app = new_app(tmp_path_factory.mktemp("collections-site"))
    with served(app) as base:
        yield {"base": base, "client": app.test_client()}


@pytest.fixture(params=[390], ids=["phone"])
def tab(request, browser, site):  # noqa: F811 - the imported fixture
    context = browser.new_context(viewport={"width": request.param, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site["base"])
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield page
    context.close()
    assert errors == []


def owned(site, cid: str) -> dict[str, int]:
    body = site["client"].get(f"/api/v1/collections/{cid}").get_json()
    return {c["number"]: c["count"] for c in body["cards"]}


def history(site, cid: str) -> list[dict]:
    return site["client"].get(f"/api/v1/collections/{cid}/history").get_json()["data"]


def keep_decks(page, site) -> None:
    kept = {}
    for name, text in (("Gaia Red", ST1_TEXT), ("Agumon pile", "4 ST1-03\n4 P-009")):
        made = site["client"].post(
            "/api/v1/decks", json={"format": "dcg", "name": name, "decklist": text}
        )
        kept[made.get_json()["deck"]["id"]] = {"token": made.get_json()["edit_token"], "name": name}
    page.goto(site["base"] + "/collections")
    page.evaluate(f"localStorage.setItem('deckcheck.my-decks', {json.dumps(json.dumps(kept))})")


def add_text(page, text: str, button: str = "#binder-add") -> None:
    page.fill("#binder-text", text)
    page.click(button)


def test_a_player_keeps_a_collection_up_to_date_on_a_phone(tab, site, tmp_path):
    keep_decks(tab, site)
    tab.goto(site["base"] + "/collections")
    tab.fill("#binder-new-name", "Main binder")
    tab.click("#binder-new")
    tab.wait_for_selector("#binder-name >> text=Main binder")
    cid = tab.evaluate("JSON.parse(localStorage.getItem('deckcheck.my-collection')).id")

    export = tmp_path / "tcgplayer.csv"
    export.write_text(TCGPLAYER)
    tab.set_input_files("#binder-file", str(export))
    # The page's CSP forbids eval, which wait_for_function's polling of a string needs.
    expect(tab.locator("#binder-text")).to_have_value(re.compile("Simple Name"))
    tab.click("#binder-add")
    tab.wait_for_selector("#binder-result >> text=Read as tcgplayer")
    assert owned(site, cid) == {"ST1-03": 3, "ST1-07": 1, "ST1-16": 2}

    tab.select_option("#binder-starter", "ST1")
    tab.click("#binder-add-starter")
    tab.wait_for_selector("#binder-result >> text=Added ST1")
    add_text(tab, PASTED)
    tab.wait_for_selector("#binder-result >> text=10 lines read")
    assert owned(site, cid)["ST1-03"] == 7 and owned(site, cid)["ST2-02"] == 1

    for number in ("ST2-02", "ST2-03"):  # remove two, one tap each
        tab.fill("#binder-filter", number)
        tab.click(
            f"#binder-cards li[data-number='{number}'] button[aria-label^='One']:has-text('−')"
        )
        tab.wait_for_selector(f"#binder-result >> text={number} removed")
    before = owned(site, cid)
    assert "ST2-02" not in before and "ST2-03" not in before and before["ST2-04"] == 1

    changes = history(site, cid)
    add_text(tab, "Condition,Printing\nNear Mint,Foil")  # a mis-paste: nothing read
    tab.wait_for_selector("#binder-result .error")
    assert owned(site, cid) == before and history(site, cid) == changes

    add_text(tab, "1 ST1-03", "#binder-replace")  # a mistaken "Replace all"
    tab.wait_for_selector("#binder-confirm >> text=takes away")
    assert tab.locator("#binder-confirm-lost li").count() > 10
    tab.click("#binder-confirm-yes")
    tab.wait_for_selector("#binder-result >> text=Replaced")
    assert owned(site, cid) == {"ST1-03": 1}
    tab.click("#binder-undo")
    tab.wait_for_selector("#binder-result >> text=undone")
    assert owned(site, cid) == before

    share = tab.get_attribute("#binder-share", "href")
    assert share.endswith(f"/c/{cid}") and "#" not in share
    rows = tab.locator("[data-testid=binder-sets] tr", has_text="ST1")
    # The sets table is drawn again after the undo's answer (read at once it showed the
    # replaced binder's 1 / 16 once in a full run): wait for it, then read it.
    rows.filter(has_text="16 / 16").first.wait_for()
    assert "16 / 16" in rows.first.inner_text()

    tab.fill("#binder-filter", "")
    tab.click("#binder-buildable")
    tab.wait_for_selector("#binder-buildable-result >> text=Gaia Red: you can build it")
    tab.wait_for_selector("#binder-buildable-result >> text=Agumon pile: 4 cards missing")
    tab.click("#binder-shopping-copy")
    tab.wait_for_selector("#binder-shopping-copy >> text=Copied")
    copied = tab.evaluate("navigator.clipboard.readText()")
    assert copied == "4 Agumon P-009\n"
    assert tab.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_shared_page_reads_without_javascript(browser, site):
    made = (
        site["client"]
        .post("/api/v1/collections", json={"name": "Trade binder", "cards": "4 ST1-03\n2 BT1-010"})
        .get_json()
    )
    context = browser.new_context(viewport={"width": 390, "height": 900}, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{site['base']}/c/{made['collection']['id']}")
        assert page.inner_text("h1") == "Trade binder"
        assert "Agumon" in page.inner_text("[data-testid=shared-cards]")
        assert "ST1" in page.inner_text("[data-testid=shared-sets]")
        assert made["edit_token"] not in page.content()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


def test_my_decks_adds_to_a_kept_collection_and_writes_no_null(tab, site):
    """The /decks box makes a collection, then adds to it (never replaces it), and its
    answer lists unread lines without writing "null" (issue 42: "nullnull")."""
    tab.goto(site["base"] + "/decks")
    tab.fill("#collection-cards", "4 ST1-03")
    tab.click("#collection-save")
    tab.wait_for_selector("#collection-result >> text=Saved: 1 different cards")
    assert "null" not in tab.inner_text("#collection-result")
    tab.fill("#collection-cards", "2 ST1-07\nno such card")
    tab.click("#collection-save")
    tab.wait_for_selector("#collection-result >> text=Added")
    shown = tab.inner_text("#collection-result")
    assert "null" not in shown and "no such card" in shown
    cid = tab.evaluate("JSON.parse(localStorage.getItem('deckcheck.my-collection')).id")
    assert owned(site, cid) == {"ST1-03": 4, "ST1-07": 2}
