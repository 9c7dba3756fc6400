"""The builder in one thumb (issue 35, part 3), in a real Chromium with touch at 390 px
and with a mouse at 1280 px: a 50 + 4 deck in at most 20 taps with the verdict always in
view, results that keep their tiles when a count changes, the quick-add line read by the
one decklist reader, the deck grouped by kind and level, cost and DP on the tiles, the
report opening in the builder and the builder sending a deck to an event."""

from __future__ import annotations

from urllib.parse import unquote

import pytest
from fixture_cards import ST1_COUNTS, ST1_TEXT
from web.builder_save import wait_verdict
from web.test_browser import server  # noqa: F401 - shared fixture

pytestmark = pytest.mark.browser
DATE = "2025-01-01"
DECK = ",".join(f"{n}*{c}" for n, c in ST1_COUNTS)


def phone_context(browser):  # noqa: F811 - the imported fixture
    """A phone: 390 px wide, touch, the height of a common phone's page area."""
    return browser.new_context(
        viewport={"width": 390, "height": 740}, has_touch=True, is_mobile=True
    )


@pytest.fixture
def phone(browser):  # noqa: F811
    context = phone_context(browser)
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield page
    context.close()
    assert errors == []


@pytest.fixture(params=[390, 1280], ids=lambda w: f"{w}px")
def tab(request, browser):  # noqa: F811
    if request.param == 390:
        context = phone_context(browser)
    else:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    page.touch = request.param == 390
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield page
    context.close()
    assert errors == []


def press(page, locator) -> None:
    """A tap on a phone, a click on a laptop."""
    if page.touch:
        locator.tap()
    else:
        locator.click()


def deck_count(page, number: str) -> int:
    row = page.locator(f"[data-testid=builder-deck] [data-number='{number}']")
    return int(row.get_attribute("data-count")) if row.count() else 0


def wait_count(page, number: str, count: int) -> None:
    page.wait_for_function(
        """([n, c]) => {
            const row = document.querySelector(`[data-testid=builder-deck] [data-number='${n}']`);
            return (row ? Number(row.dataset.count) : 0) === c;
        }""",
        arg=[number, count],
    )


VERDICT_IN_VIEW = """() => {
    const box = document.querySelector('[data-testid=builder-verdict]').getBoundingClientRect();
    return box.height > 0 && box.top >= 0 && box.bottom <= innerHeight;
}"""


def test_a_50_plus_4_deck_in_at_most_20_taps_with_the_verdict_in_view(phone, server):  # noqa: F811
    """A tap is a touch on the screen: a field to type in, a button, the keyboard's
    Enter. Typing the letters of a search is not a tap. After each tap the verdict
    (the whole `builder-verdict` box) is inside the viewport."""
    page = phone
    page.goto(f"{server}/build?format=dcg&date={DATE}")
    # The judged verdict, not the page's own "Not legal yet" line, which a quick answer
    # replaces before a first look at it.
    wait_verdict(page, "✘ Not legal")
    taps = 0

    def tap(locator) -> None:
        nonlocal taps
        locator.tap()
        taps += 1
        assert page.evaluate(VERDICT_IN_VIEW), f"the verdict left the screen after tap {taps}"

    def enter(locator) -> None:
        nonlocal taps
        locator.press("Enter")
        taps += 1
        assert page.evaluate(VERDICT_IN_VIEW), f"the verdict left the screen after tap {taps}"

    # One search for the starter deck's set, then x4 on each card of four copies.
    tap(page.locator("[data-testid=builder-search]"))
    page.keyboard.type("set:st1")
    page.locator("[data-testid=builder-result][data-number='ST1-16']").wait_for()
    fours = ["ST1-01"] + [n for n, c in ST1_COUNTS if c == 4]
    for number in fours:
        result = page.locator(f"[data-testid=builder-result][data-number='{number}']")
        tap(result.locator("[data-testid=builder-playset]"))
        wait_count(page, number, 4)
    # The cards of two copies, one line each in the quick-add box (the keyboard's Enter).
    quick = page.locator("[data-testid=builder-quick]")
    tap(quick)
    for number, count in ST1_COUNTS:
        if count != 4:
            page.keyboard.type(f"{count} {number.lower()}")
            enter(quick)
            wait_count(page, number, count)
    wait_verdict(page, "✔ Legal")
    assert page.evaluate(VERDICT_IN_VIEW)
    assert taps <= 20, taps
    assert sum(deck_count(page, n) for n, _ in ST1_COUNTS) == 50
    assert deck_count(page, "ST1-01") == 4
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    print(f"50 + 4 deck at 390 px in {taps} taps")


def test_the_bar_keeps_the_count_and_verdict_in_view_far_down(tab, server):  # noqa: F811
    tab.goto(f"{server}/build?format=dcg&date={DATE}&main={DECK}&eggs=ST1-01*4")
    wait_verdict(tab, "✔ Legal")
    assert tab.inner_text("[data-testid=builder-counts]") == "Main Deck 50 · Digi-Egg Deck 4"
    tab.locator("#b-export-box summary").scroll_into_view_if_needed()
    tab.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert tab.evaluate("scrollY") > 500
    assert tab.evaluate(VERDICT_IN_VIEW)
    assert tab.locator("[data-testid=builder-counts]").is_visible()


def test_a_count_change_keeps_the_result_tiles(tab, server):  # noqa: F811
    tab.goto(f"{server}/build?format=dcg&date={DATE}")
    tab.fill("[data-testid=builder-search]", "set:st1")
    result = tab.locator("[data-testid=builder-result][data-number='ST1-03']")
    result.wait_for()
    # Marks on the live nodes: a redraw would make new nodes without them.
    tab.evaluate(
        "() => document.querySelectorAll('[data-testid=builder-result] .tile')"
        ".forEach(t => { t.kept = true; })"
    )
    press(tab, result.locator("[data-testid=builder-add]"))
    press(tab, result.locator("[data-testid=builder-playset]"))
    wait_count(tab, "ST1-03", 4)
    assert result.locator(".have").inner_text() == "4 in deck"
    with tab.expect_response("**/api/v1/decks/validate"):
        press(tab, result.locator("[data-testid=builder-remove]"))
    wait_verdict(tab, "✘ Not legal")
    assert result.locator(".have").inner_text() == "3 in deck"
    assert tab.evaluate(
        "() => [...document.querySelectorAll('[data-testid=builder-result] .tile')]"
        ".every(t => t.kept === true)"
    )
    # -all empties the card in one tap; its remove buttons go with it.
    press(tab, result.locator("[data-testid=builder-remove-all]"))
    wait_count(tab, "ST1-03", 0)
    assert result.locator("[data-testid=builder-remove]").is_hidden()
    assert result.locator(".have").inner_text() == ""


def test_tiles_show_play_cost_and_dp(tab, server):  # noqa: F811
    tab.goto(f"{server}/build?format=dcg")
    tab.fill("[data-testid=builder-search]", "agumon set:bt1")
    tab.locator("[data-testid=builder-result]").first.wait_for()
    details = tab.locator("[data-testid=builder-result][data-number='BT1-010'] .details")
    # BT1-010 Agumon: play cost 3, 2000 DP (the shipped list's facts).
    assert details.inner_text() == "digimon · Lv 3 · Red · cost 3 · 2000 DP"
    # A text tile holds the whole name: nothing is cut off.
    assert tab.evaluate(
        "() => [...document.querySelectorAll('[data-testid=builder-result] .face')]"
        ".every(f => f.scrollHeight <= f.clientHeight + 1)"
    )


def test_the_deck_is_grouped_by_kind_and_level(tab, server):  # noqa: F811
    tab.goto(f"{server}/build?format=dcg&date={DATE}&main={DECK}&eggs=ST1-01*4")
    wait_verdict(tab, "✔ Legal")
    tab.wait_for_function(
        "() => !document.querySelector('[data-testid=builder-deck] .deck-group')"
        ".textContent.startsWith('Cards')"
    )
    groups = tab.locator("[data-testid=builder-deck] .deck-group").all_inner_texts()
    # ST1: Biyomon, Agumon, Dracomon are level 3; Birdramon, Coredramon, Greymon 4; ...
    assert groups == [
        "Digimon, level 3 · 12",
        "Digimon, level 4 · 10",
        "Digimon, level 5 · 8",
        "Digimon, level 6 · 4",
        "Tamer · 4",
        "Option · 12",
        "Digi egg, level 2 · 4",
    ]
    rows = tab.locator("[data-testid=builder-deck] [data-section=main]")
    numbers = [rows.nth(i).get_attribute("data-number") for i in range(rows.count())]
    assert numbers[:4] == ["ST1-02", "ST1-03", "ST1-04", "ST1-05"]  # level 3 by number, then 4
    assert numbers[-4:] == ["ST1-13", "ST1-14", "ST1-15", "ST1-16"]  # the options last
    # Kind and level before number: the tamer BT1-085 comes after the Digimon ST1-09.
    tab.goto(f"{server}/build?format=dcg&main=BT1-085*1,ST1-09*1,ST1-03*1")
    tab.wait_for_function(
        "() => document.querySelectorAll('[data-testid=builder-deck] .deck-group').length === 3"
    )
    rows = tab.locator("[data-testid=builder-deck] [data-section=main]")
    assert [rows.nth(i).get_attribute("data-number") for i in range(3)] == [
        "ST1-03",
        "ST1-09",
        "BT1-085",
    ]


@pytest.mark.parametrize(
    ("line", "number", "count"),
    [
        ("4 bt1-010", "BT1-010", 4),
        ("bt1-010 x2", "BT1-010", 2),
        ("Agumon (BT1-010) x3", "BT1-010", 3),
    ],
)
def test_quick_add_reads_a_line_as_the_paste_box_does(tab, server, line, number, count):  # noqa: F811
    tab.goto(f"{server}/build?format=dcg&main=BT1-010*1")
    wait_verdict(tab, "✘ Not legal")
    tab.fill("[data-testid=builder-quick]", line)
    tab.press("[data-testid=builder-quick]", "Enter")
    wait_count(tab, number, 1 + count)
    assert tab.input_value("[data-testid=builder-quick]") == ""
    assert tab.inner_text("#b-quick-result") == f"Added {count} {number} Agumon."


def test_quick_add_says_what_it_cannot_read(tab, server):  # noqa: F811
    tab.goto(f"{server}/build?format=dcg")
    tab.fill("[data-testid=builder-quick]", "4 Zzyzxmon")
    tab.press("[data-testid=builder-quick]", "Enter")
    tab.wait_for_function("() => document.querySelector('#b-quick-result').textContent")
    said = tab.inner_text("#b-quick-result")
    assert (
        said.startswith("Nothing added.") and "'Zzyzxmon' is not a Digimon Card Game card" in said
    )
    assert tab.input_value("[data-testid=builder-quick]") == "4 Zzyzxmon"  # kept, to fix
    # A name of many cards: the reader's candidates become the results, one tap away.
    tab.fill("[data-testid=builder-quick]", "Gabumon")
    tab.press("[data-testid=builder-quick]", "Enter")
    tab.locator("[data-testid=builder-result][data-number='BT1-029']").wait_for()
    assert "tap the one you mean" in tab.inner_text("#b-quick-result")
    assert tab.input_value("[data-testid=builder-search]") == '"Gabumon"'


def test_the_report_opens_in_the_builder(tab, server):  # noqa: F811
    tab.goto(server + "/")
    tab.fill("#date", DATE)
    tab.fill("#decklist", ST1_TEXT.replace("4 ST1-03", "5 ST1-03"))
    tab.click("form.check button[type=submit]")
    press(tab, tab.locator("[data-testid=report-open-builder]"))
    wait_verdict(tab, "✘ Not legal")
    assert "5 copies of ST1-03" in tab.inner_text("[data-testid=builder-verdict]")
    assert deck_count(tab, "ST1-03") == 5 and deck_count(tab, "ST1-01") == 4
    assert tab.input_value("#b-date") == DATE
    press(
        tab,
        tab.locator("[data-testid=builder-deck] [data-number='ST1-03'] [data-testid=builder-dec]"),
    )
    wait_verdict(tab, "✔ Legal")


def test_send_a_deck_to_an_event(tab, server):  # noqa: F811
    made = tab.request.post(
        f"{server}/api/v1/events",
        data={"name": "Saturday Cup", "format": "dcg", "deadline": "2099-12-05T09:00:00+01:00"},
    )
    assert made.status == 201
    event = made.json()["id"]
    tab.goto(f"{server}/build?format=dcg&main={DECK}&eggs=ST1-01*4")
    wait_verdict(tab, "✔ Legal")
    tab.fill("[data-testid=builder-event]", "no such event!")
    press(tab, tab.locator("#b-event-go"))
    assert "not an event's link or id" in tab.inner_text("#b-event-result")
    tab.fill("[data-testid=builder-event]", "nosuchevent")
    press(tab, tab.locator("#b-event-go"))
    tab.wait_for_function(
        "() => document.querySelector('#b-event-result').textContent.includes('Could not')"
    )
    text = tab.request.post(
        f"{server}/api/v1/decks/export",
        data={"format": "dcg", "style": "text", "deck": {
            "main": [{"card": n, "count": c} for n, c in ST1_COUNTS],
            "eggs": [{"card": "ST1-01", "count": 4}]}},
    ).json()["content"]  # fmt: skip
    tab.fill("[data-testid=builder-event]", f"{server}/e/{event}")
    press(tab, tab.locator("#b-event-go"))
    tab.wait_for_url(lambda url: url.startswith(f"{server}/e/{event}#list="))
    fragment = tab.url.split("#list=", 1)[1]
    assert unquote(fragment) == text
    assert tab.evaluate("decodeURIComponent(location.hash.slice(6))") == text


def test_the_builder_says_when_a_search_or_a_game_has_nothing_to_find(tab, server):  # noqa: F811
    tab.goto(f"{server}/build?format=dcg")
    assert tab.locator("#empty-pools").is_hidden()
    tab.select_option("#b-format", "dbe")
    note = tab.locator("#empty-pools p[data-game=dbe]")
    assert note.is_visible() and "cardpool import dbe cards.csv" in note.inner_text()
    tab.select_option("#b-format", "dcg")
    assert tab.locator("#empty-pools").is_hidden()
    tab.fill("[data-testid=builder-search]", "o:draw")
    tab.wait_for_function(
        "() => document.querySelector('#b-search-status').textContent.includes('no card text')"
    )
    assert tab.inner_text("#b-search-status").startswith("0 cards. The Digimon Card Game card list")
