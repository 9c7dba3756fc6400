"""Saved decks as a player meets them in a real Chromium (contract "Saved decks,
collections and sample hands", Pages): save in the builder, edit twice, read the diff,
see what the collection lacks, draw sample hands; "My decks" with export and import.

One app and server for the module; each test opens its own browser context, so each
starts with an empty localStorage, as a new device would.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import new_app
from decks.deck_helpers import ban, import_change
from fixture_cards import ST1_COUNTS, ST1_DECK
from served import served
from web.builder_save import click_landed, click_save

from deckcheck import format_registry

pytestmark = pytest.mark.browser
DECK = ",".join(f"{n}*{c}" for n, c in ST1_COUNTS)
BUILD = f"/build?format=dcg&main={DECK}&eggs=ST1-01*4"
STORE = "deckcheck.my-decks"
COLLECTION = "deckcheck.my-collection"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    # The "my decks" test saves 200 decks from one address.
    app = new_app(tmp_path_factory.mktemp("decks-site"), DECKS_CREATE_LIMIT=(0, 3600))
    with served(app) as base:
        yield {"base": base, "client": app.test_client()}


@pytest.fixture(params=[1280, 390], ids=["desktop", "phone"])
def tab(request, browser, site):  # noqa: F811 - the imported fixture
    context = browser.new_context(viewport={"width": request.param, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.console_errors = errors
    yield page
    context.close()
    assert errors == []


def saved_deck(site, name: str = "Red Rush", deck: dict | None = None) -> dict:
    made = site["client"].post(
        "/api/v1/decks", json={"format": "dcg", "name": name, "deck": deck or ST1_DECK}
    )
    assert made.status_code == 201, made.get_json()
    return made.get_json()


def keep(page, site, decks: dict, collection: dict | None = None) -> None:
    """Put tokens in this context's localStorage, as earlier visits would have."""
    page.goto(site["base"] + "/decks")
    page.evaluate(
        "([key, value, ckey, cvalue]) => { localStorage.setItem(key, JSON.stringify(value));"
        " if (cvalue) localStorage.setItem(ckey, JSON.stringify(cvalue)); }",
        [STORE, decks, COLLECTION, collection],
    )


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def stored(page) -> dict:
    return page.evaluate(f"JSON.parse(localStorage.getItem('{STORE}') || '{{}}')")


def test_save_edit_twice_diff_collection_and_sample_hands(tab, site):
    """The issue's "done when", in one walk a player takes."""
    base = site["base"]
    sent: list = []
    tab.on("request", lambda r: sent.append(r))

    # A collection: every card of the deck but its four Agumon (ST1-03).
    owned = [("ST1-01", 4), *((n, 4) for n, _ in ST1_COUNTS if n != "ST1-03")]
    tab.goto(base + "/decks")
    tab.fill("#collection-name", "My binder")
    tab.fill("#collection-cards", "\n".join(f"{n},{c}" for n, c in owned))
    tab.click("#collection-save")
    tab.wait_for_selector("#collection-result >> text=Saved")

    # Save in the builder: a new deck, kept in this browser; the page now edits it.
    tab.goto(base + BUILD)
    tab.fill("#b-name", "Red Rush")
    click_save(tab)
    tab.wait_for_selector("[data-testid=saved]")
    deck_id = re.match(r".*/d/([\w-]+)/edit\?", tab.url).group(1)
    token = stored(tab)[deck_id]["token"]
    assert stored(tab)[deck_id]["name"] == "Red Rush"

    # Edit twice: each Save is a new version of the same deck.
    for expected in (2, 3):
        row = tab.locator("[data-testid=builder-deck] [data-number='ST1-07']")
        before = int(row.get_attribute("data-count"))
        row.locator("[data-testid=builder-inc]").click()
        tab.wait_for_function(
            "n => document.querySelector(\"[data-testid=builder-deck] [data-number='ST1-07']\")"
            ".dataset.count == n",
            arg=str(before + 1),
        )
        click_save(tab)
        tab.wait_for_selector(f"[data-testid=saved] >> text=version {expected}")
    assert list(stored(tab)) == [deck_id]
    click_landed(tab, "#b-collection-box summary")
    tab.wait_for_selector("#b-missing [data-testid=missing-total]")
    assert "needs 4 cards" in tab.inner_text("#b-missing")
    assert tab.locator("#b-missing li").all_inner_texts() == ["ST1-03 Agumon: need 4, have 0"]
    assert no_sideways_scroll(tab)

    # The deck's page: verdict, cards, three versions, the diff, what the collection lacks.
    tab.goto(f"{base}/d/{deck_id}")
    tab.wait_for_selector("#deck-versions li[data-version='3']")
    assert tab.inner_text("h1") == "Red Rush"
    assert tab.locator("#deck-cards [data-number='ST1-07']").get_attribute("data-count") == "4"
    assert tab.locator("#deck-versions li").count() == 3
    tab.wait_for_selector("#deck-diff li.changed[data-number='ST1-07']")
    assert "3 → 4" in tab.inner_text("#deck-diff")
    tab.wait_for_selector("#deck-missing [data-testid=missing-total]")
    assert "lacks 4 cards" in tab.inner_text("#deck-missing")
    assert tab.locator("#deck-missing li").get_attribute("data-number") == "ST1-03"
    assert tab.locator("#deck-odds tbody tr").count() > 0
    # The edit link carries no token: the editor finds it in this browser.
    assert tab.get_attribute("#deck-edit", "href") == f"/d/{deck_id}/edit"

    # Sample hands: five cards and five security cards, and again with another seed.
    tab.click("#deck-draw")
    tab.wait_for_selector("[data-testid=sample-hand] li")
    assert tab.locator("[data-testid=sample-hand] li").count() == 5
    assert tab.locator("[data-testid=sample-security] li").count() == 5
    first = tab.inner_text("#deck-hand .hint")
    tab.click("#deck-redraw")
    tab.wait_for_function(
        "s => document.querySelector('#deck-hand .hint').textContent != s", arg=first
    )
    assert no_sideways_scroll(tab)

    # The token went only to its own deck, as a Bearer header, never in an address.
    for request in sent:
        assert token not in request.url.partition("#")[0]
        assert token not in (request.post_data or "")
        auth = request.headers.get("authorization")
        if auth:
            assert auth == f"Bearer {token}"
            assert request.method == "PUT" and request.url == f"{base}/api/v1/decks/{deck_id}"


def test_edit_link_opens_the_builder_on_the_deck(tab, site):
    """`/d/<id>/edit#<token>` on a new device: the deck loads, the token is kept, Save
    is a new version; a wrong token saves nothing and says why."""
    made = saved_deck(site, "Link Deck")
    deck_id = made["deck"]["id"]
    tab.goto(site["base"] + made["edit_url"])
    tab.wait_for_selector("[data-testid=builder-deck] [data-number='ST1-16']")
    assert (
        tab.locator("[data-testid=builder-deck] [data-number='ST1-03']").get_attribute("data-count")
        == "4"
    )
    # The editor reads the deck from the API; the builder then writes the list into its
    # own address (a short deck), as it does for any deck.
    assert tab.url.startswith(f"{site['base']}/d/{deck_id}/edit?format=dcg&main=ST1-")
    tab.wait_for_function("() => document.querySelector('#b-name').value == 'Link Deck'")
    tab.wait_for_selector("#b-save-status >> text=Save makes a new version")
    assert stored(tab)[deck_id]["token"] == made["edit_token"]
    click_save(tab)
    tab.wait_for_selector("[data-testid=saved] >> text=version 2")

    tab.evaluate(
        "([key, id]) => { const all = JSON.parse(localStorage.getItem(key));"
        " all[id].token = 'not-the-right-token'; localStorage.setItem(key, JSON.stringify(all)); }",
        [STORE, deck_id],
    )
    tab.reload()
    tab.wait_for_selector("[data-testid=builder-deck] [data-number='ST1-16']")
    tab.wait_for_selector("#b-save-status >> text=version 2")
    click_save(tab)
    tab.wait_for_selector("#b-save-status .error >> text=edit key")
    # The browser logs the refused PUT itself: the one console error this test expects.
    assert [e for e in tab.console_errors if "403" in e] == tab.console_errors != []
    tab.console_errors.clear()
    versions = site["client"].get(f"/api/v1/decks/{deck_id}/versions").get_json()["data"]
    assert len(versions) == 2


def last_match(site, q: str, game: str = "dcg") -> str:
    """The last card the builder's search (relevance order) finds for `q`."""
    params = {"game": game, "q": q, "order": "relevance", "per_page": 200}
    total = site["client"].get("/api/v1/cards", query_string=params).get_json()["total"]
    last = site["client"].get("/api/v1/cards", query_string={**params, "page": -(-total // 200)})
    return last.get_json()["data"][-1]["number"]


def shown_numbers(tab) -> set[str]:
    shown = tab.locator("[data-testid=builder-result]")
    return {shown.nth(i).get_attribute("data-number") for i in range(shown.count())}


def test_owned_only_search_shows_only_the_collection(tab, site):
    """The server filters ("collection=" on /api/v1/cards): an owned card far past the
    first 200 matches of a broad query is found, and the count is the owned cards'."""
    far = last_match(site, "mon")  # thousands of matches: it is not among the first 200
    made = site["client"].post(
        "/api/v1/collections", json={"name": "Few", "cards": f"ST1-03,2\nST1-07_P1,1\n{far},1"}
    )
    assert made.status_code == 201, made.get_json()
    owned = {"id": made.get_json()["collection"]["id"], "token": made.get_json()["edit_token"]}
    keep(tab, site, {}, owned)
    searches: list[str] = []
    tab.on("request", lambda r: searches.append(r.url) if "/api/v1/cards?" in r.url else None)
    tab.goto(site["base"] + "/build?format=dcg")
    click_landed(tab, "#b-collection-box summary")
    tab.wait_for_selector("#b-collection-status >> text=Few")
    tab.fill("[data-testid=builder-search]", "mon")  # Monodramon (BT1-009) first
    tab.wait_for_selector("[data-testid=builder-result][data-number='BT1-009']")
    tab.check("#b-owned")
    tab.wait_for_function(
        "() => !document.querySelector(\"[data-testid=builder-result][data-number='BT1-009']\")"
    )
    # An alternate art in the collection counts for its card number.
    assert shown_numbers(tab) == {"ST1-03", "ST1-07", far}
    assert tab.inner_text("#b-search-status") == "3 cards"  # the server's total
    asked = searches[-1]
    assert f"collection={owned['id']}" in asked and "per_page=30" in asked
    # With nothing typed, owned only lists the collection.
    tab.fill("[data-testid=builder-search]", "")
    tab.wait_for_function(
        "() => document.querySelector('#b-search-status').textContent == '3 cards'"
    )
    assert shown_numbers(tab) == {"ST1-03", "ST1-07", far}
    tab.fill("[data-testid=builder-search]", "mon")
    tab.wait_for_selector("#b-search-status >> text=3 cards")
    tab.uncheck("#b-owned")
    tab.wait_for_selector("[data-testid=builder-result][data-number='BT1-009']")
    assert "first 30 shown" in tab.inner_text("#b-search-status")
    assert "collection=" not in searches[-1]
    # A DCG collection is not offered in a builder of another game.
    tab.check("#b-owned")
    tab.wait_for_selector("#b-search-status >> text=3 cards")
    tab.select_option("#b-format", "dmcg")
    tab.wait_for_selector("#b-owned:disabled")
    assert "holds Digimon Card Game cards" in tab.inner_text("#b-collection-status")
    tab.wait_for_function(
        "() => !document.querySelector('#b-search-status').textContent.startsWith('3 cards')"
    )
    assert "collection=" not in searches[-1]


def test_a_collection_of_another_game_is_saved_and_searched(tab, site):
    """The collection form offers every game; a DMCG collection limits a DMCG builder."""
    first = site["client"].get("/api/v1/cards?game=dmcg&per_page=2").get_json()["data"]
    tab.goto(site["base"] + "/decks")
    options = tab.locator("#collection-game option")
    assert {options.nth(i).get_attribute("value") for i in range(options.count())} >= {
        "dcg",
        "dbe",
        "digibattle",
        "dmcg",
    }
    tab.select_option("#collection-game", "dmcg")
    tab.fill("#collection-name", "DMCG binder")
    tab.fill("#collection-cards", f"{first[1]['number']},3")
    tab.click("#collection-save")
    tab.wait_for_selector("#collection-result >> text=Saved: 1 different cards")
    tab.wait_for_selector("#collection-game:disabled")
    kept = tab.evaluate(f"JSON.parse(localStorage.getItem('{COLLECTION}'))")
    saved = site["client"].get(f"/api/v1/collections/{kept['id']}").get_json()
    assert saved["game"] == "dmcg"
    assert saved["cards"] == [{"number": first[1]["number"], "count": 3}]

    tab.goto(site["base"] + "/build?format=dmcg")
    click_landed(tab, "#b-collection-box summary")
    tab.wait_for_selector("#b-collection-status >> text=DMCG binder")
    tab.check("#b-owned")
    tab.wait_for_selector("#b-search-status >> text=1 card")
    assert shown_numbers(tab) == {first[1]["number"]}


def test_my_decks_export_and_import(tab, site, tmp_path):
    one, two = saved_deck(site, "First <b>deck</b>"), saved_deck(site, "Second")
    illegal = {"main": [{"card": "ST1-03", "count": 5}]}
    three = saved_deck(site, "Broken", illegal)
    kept = {
        d["deck"]["id"]: {"token": d["edit_token"], "name": d["deck"]["name"]}
        for d in (one, two, three)
    }
    gone = "nosuchdeck12345"
    kept[gone] = {"token": "abcdefgh12345678", "name": "Deleted one"}
    keep(tab, site, kept)
    tab.goto(site["base"] + "/decks")
    tab.wait_for_selector("#my-decks[data-ready]")
    rows = tab.locator("[data-testid=my-decks] li")
    assert rows.count() == 4
    # A name is shown as typed, never as markup.
    assert tab.locator("[data-testid=my-decks] b").count() == 0
    assert "First <b>deck</b>" in tab.inner_text("[data-testid=my-decks]")
    broken = tab.locator(f"li[data-id='{three['deck']['id']}']")
    assert "Not legal" in broken.inner_text()
    assert "Not on the server" in tab.locator(f"li[data-id='{gone}']").inner_text()
    assert no_sideways_scroll(tab)

    with tab.expect_download() as download:
        tab.click("[data-testid=my-decks-export]")
    exported = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert exported["kind"] == "deckcheck-my-decks"
    assert {d["id"]: d["token"] for d in exported["decks"]} == {
        i: k["token"] for i, k in kept.items()
    }

    # Another device: an empty browser imports the file, and a damaged one is reported.
    tab.evaluate("() => localStorage.clear()")
    damaged = {
        **exported,
        "decks": [*exported["decks"][:2], {"id": "../x"}, "junk", {"id": "ok-id"}],
    }
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(damaged), encoding="utf-8")
    tab.reload()
    tab.set_input_files("[data-testid=my-decks-import]", str(path))
    tab.wait_for_selector("#mine-import-result >> text=Imported 2 decks")
    problems = tab.inner_text("#mine-import-result")
    assert "Deck 3: its id is missing" in problems
    assert "Deck 4: not a deck entry" in problems
    assert "Deck 5 (ok-id): its token is missing" in problems
    assert set(stored(tab)) == {d["id"] for d in exported["decks"][:2]}

    not_json = tmp_path / "notes.json"
    not_json.write_text("my decks: red, blue", encoding="utf-8")
    tab.set_input_files("[data-testid=my-decks-import]", str(not_json))
    tab.wait_for_selector("#mine-import-result >> text=not JSON")
    assert len(stored(tab)) == 2


def test_my_decks_says_cant_confirm_for_a_deck_of_a_newer_product(tab, site):
    """A deck whose only problem is cards of a product newer than the card list: "Can't
    confirm" (contract), never "Not legal", in the list and in the count above it."""
    newer = {**ST1_DECK, "main": [*ST1_DECK["main"][1:], {"card": "EX13-010", "count": 4}]}
    made = saved_deck(site, "Newer cards", newer)
    assert made["deck"]["verdict"] == "unconfirmed", made["deck"]["violations"]
    keep(tab, site, {made["deck"]["id"]: {"token": made["edit_token"], "name": "Newer cards"}})
    tab.goto(site["base"] + "/decks")
    tab.wait_for_selector("#my-decks[data-ready]")
    cell = tab.locator("[data-testid=my-decks] li .verdict-cell").inner_text()
    assert "Can't confirm" in cell and "Not legal" not in cell
    status = tab.inner_text("#mine-status")
    assert "0 not legal today, 1 that can't be confirmed yet" in status


def test_my_decks_with_200_decks_asks_once(browser, site):  # noqa: F811
    """200 decks: one POST /api/v1/decks/lookup, no request per deck, shown within a
    generous bound (the figure itself is bench/decks_page.py's)."""
    kept = {}
    for n in range(200):
        made = saved_deck(site, f"Deck {n}")
        kept[made["deck"]["id"]] = {"token": made["edit_token"], "name": f"Deck {n}"}
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    keep(page, site, kept)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(f"{r.method} {r.url}") if "/api/" in r.url else None)
    page.goto(site["base"] + "/decks")
    page.wait_for_selector("#my-decks[data-ready]", timeout=15000)
    took = page.evaluate("performance.now()")
    assert page.locator("[data-testid=my-decks] li").count() == 200
    context.close()
    decks_asked = [a for a in asked if "/api/v1/decks" in a]
    assert decks_asked == [f"POST {site['base']}/api/v1/decks/lookup"]
    assert took < 5000, f"/decks with 200 decks took {took:.0f} ms"


def test_the_editor_tells_a_change_since_the_deck_was_last_opened(browser, tmp_path, monkeypatch):
    """Opening the editor reads the deck, and a read shows its verdict once: the change
    (a ban since it was last opened) is told there, not used up unseen."""
    monkeypatch.setattr(format_registry, "RECHECK_SECONDS", 0.0)  # the ban at once
    app = new_app(tmp_path)
    made = saved_deck({"client": app.test_client()}, "Banned Soon")
    import_change(app, tmp_path, ban("ST1-03", "2026-11-20"))
    context = browser.new_context(viewport={"width": 390, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    with served(app) as base:
        page.goto(base + made["edit_url"])
        told = page.wait_for_selector("#b-save-status [data-testid=deck-changed]")
        assert "it was legal, it is not legal now" in told.inner_text()
        page.reload()
        page.wait_for_selector("#b-save-status >> text=Save makes a new version")
        assert page.query_selector("[data-testid=deck-changed]") is None
    context.close()
