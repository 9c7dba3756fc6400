"""A game is added through the registry alone: its `Game`, its format and its card CSV.

TEST ONLY: `toy` is a made-up game with made-up cards; it never ships (the product holds
no invented cards). The test registers it in the two registries a game lives in
(`rules.games.GAMES`, `rules.builtin.BUILT_IN`; monkeypatch takes it out again), imports
its card CSV with the importer every game uses, and then asks the public API about it,
as a newcomer adding a game would. Nothing else of deckcheck is changed.

docs/development.md ("Adding a game") says what this shows and what a game registered
at run time cannot have (a deck section no game had when the app started).
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from web.test_browser import server  # noqa: F401 - shared fixture

from cardpool.db import connect
from cardpool.imports import import_pool
from deckcheck import _sync_urls, images
from rules.builtin import BUILT_IN
from rules.checks import CopyLimit, DeckSize, WrongSection
from rules.format import Format
from rules.games import GAMES, SECTIONS, AutoSection, Document, Game, Section

TOY = Game(
    id="toy",
    name="Toy Card Game (test only)",
    sections=("main", "eggs"),
    kinds=("monster", "seed"),
    levels=("1", "2"),
    auto_sections=(AutoSection("eggs", kinds=frozenset({"seed"})),),
    # No `draws`: deckcheck knows no opening-hand rule for it, so it has no odds.
)
RULES = "Toy rules (test only)"
TOY_FORMAT = Format(
    id="toy",
    game="toy",
    name="Toy Card Game (test only)",
    sections=("main", "eggs"),
    checks=(
        DeckSize(f"{RULES}, item 1", exact=6),
        WrongSection(f"{RULES}, item 2", allowed={"main": None, "eggs": None}),
        CopyLimit(f"{RULES}, item 3", default=2),
    ),
    summary=("Six cards in the main deck, at most two of each.",),
)
CARDS_CSV = """number,name,kind,level
TY1-001,Blip,monster,1
TY1-002,Blop,monster,2
TY1-003,Zap,monster,2
TY1-004,Seedling,seed,
"""
TEXT = "3 Blip TY1-001\n2 TY1-002\n2 Zap\n1 TY1-004"


def register(app, monkeypatch, tmp_path, game: Game, fmt: Format) -> None:
    """`game` and its format registered (until the test ends), its cards imported."""
    monkeypatch.setitem(GAMES, game.id, game)
    monkeypatch.setitem(BUILT_IN, fmt.id, fmt)
    csv = tmp_path / f"{game.id}.csv"
    csv.write_text(CARDS_CSV)
    app.test_client().get("/api/v1/health")  # the database made and seeded
    db = connect(app.config["DATABASE"])
    assert import_pool(db, game.id, str(csv)) == 4
    db.close()


@pytest.fixture
def toy(app, monkeypatch, tmp_path):
    """The test-only game registered, its cards imported into the app's database."""
    register(app, monkeypatch, tmp_path, TOY, TOY_FORMAT)
    return app


def codes(body: dict) -> list[str]:
    return [v["code"] for v in body["violations"]]


def test_a_text_deck_of_a_registered_game_is_judged_by_its_format(toy, client):
    response = client.post("/api/v1/decks/validate", json={"format": "toy", "decklist": TEXT})
    body = response.get_json()
    assert response.status_code == 200, body
    assert body["format"]["game"] == "toy" and body["legal"] is False
    # 3 + 2 + 2 = 7 main-deck cards, 3 copies of TY1-001; the seed sorted into the eggs.
    assert codes(body) == ["deck-size", "copy-limit"]
    assert {v["rule"] for v in body["violations"]} == {f"{RULES}, item 1", f"{RULES}, item 3"}
    assert {s: [c["number"] for c in v["cards"]] for s, v in body["deck"]["sections"].items()} == {
        "main": ["TY1-001", "TY1-002", "TY1-003"],
        "eggs": ["TY1-004"],
    }


def test_a_structured_deck_of_a_registered_game_is_legal_when_its_rules_hold(toy, client):
    deck = {
        "main": [{"card": n, "count": 2} for n in ("TY1-001", "TY1-002", "Zap")],
        "eggs": [{"card": "TY1-004", "count": 1}],
    }
    response = client.post("/api/v1/decks/validate", json={"format": "toy", "deck": deck})
    assert response.status_code == 200 and response.get_json()["legal"] is True
    export = client.post(
        "/api/v1/decks/export", json={"format": "toy", "deck": deck, "style": "text"}
    )
    assert export.get_json()["content"].splitlines()[:2] == ["// Main Deck", "2 Blip TY1-001"]


def test_card_search_and_events_know_a_registered_game(toy, client):
    found = client.get("/api/v1/cards?game=toy&q=k:seed").get_json()["data"]
    assert [card["number"] for card in found] == ["TY1-004"]
    created = client.post(
        "/api/v1/events",
        json={"name": "Toy night", "format": "toy", "deadline": "2099-01-01T00:00:00Z"},
    )
    assert created.status_code == 201, created.get_json()
    event = created.get_json()["id"]
    sent = client.post(
        f"/api/v1/events/{event}/submissions", json={"player": "Ann", "decklist": TEXT}
    )
    assert sent.status_code == 201 and sent.get_json()["submission"]["legal"] is False


def test_a_game_without_draw_rules_answers_odds_with_a_clear_422(toy, client):
    response = client.post("/api/v1/decks/odds", json={"format": "toy", "decklist": TEXT})
    error = response.get_json()["error"]
    assert response.status_code == 422 and error["code"] == "odds-not-known"
    assert "Toy Card Game" in error["message"] and error["details"] == {"game": "toy"}


def test_the_format_and_report_pages_show_a_registered_game(toy, client):
    assert "Six cards in the main deck" in client.get("/formats/toy").get_data(as_text=True)
    page = client.post("/report", data={"format": "toy", "decklist": TEXT}).get_data(as_text=True)
    assert "Toy Card Game (test only)" in page and "TY1-004" in page


def test_a_section_added_to_the_registry_is_named_on_the_report(app, client, monkeypatch, tmp_path):
    # A deck section no game had: its Section entry, and a game that sorts seeds into it.
    reserve = Section("reserve", "Reserve Deck", "reserve deck", "Reserve deck", ("reserve",))
    monkeypatch.setitem(SECTIONS, reserve.id, reserve)
    seeds_aside = AutoSection("reserve", kinds=frozenset({"seed"}))
    game = replace(
        TOY, id="toy-reserve", sections=("main", "reserve"), auto_sections=(seeds_aside,)
    )
    allowed = WrongSection(f"{RULES}, item 2", allowed={"main": None, "reserve": None})
    fmt = replace(TOY_FORMAT, id=game.id, game=game.id, sections=game.sections)
    register(app, monkeypatch, tmp_path, game, fmt.with_check("wrong-section", allowed))
    page = client.post("/report", data={"format": game.id, "decklist": TEXT}).get_data(as_text=True)
    assert re.findall(r"<caption>([^<]*?) ·", page) == ["Main deck", "Reserve deck"]


def test_a_games_documents_images_and_upstream_are_its_entry(app, client, monkeypatch, tmp_path):
    # Issue 40 item 6: what a game has beside its cards is said in its Game alone.
    rules = Document("toy-rules.txt", "Toy rules (test only)", "https://toy.example/rules")
    game = replace(
        TOY,
        id="toy-documented",
        documents=(rules,),
        image_template="https://toy.example/cards/{number}.png",
        sync_url="https://toy.example/cards.csv",
    )
    fmt = replace(TOY_FORMAT, id=game.id, game=game.id, sources=("toy-rules.txt, item 1",))
    register(app, monkeypatch, tmp_path, game, fmt)
    page = client.get(f"/formats/{game.id}").get_data(as_text=True)
    assert (
        '<a href="https://toy.example/rules" rel="noopener">Toy rules (test only), item 1' in page
    )
    assert images.parse(None).url(game.id, "TY1-001") == "https://toy.example/cards/TY1-001.png"
    assert _sync_urls(None)[game.id] == "https://toy.example/cards.csv"
    assert _sync_urls(f"{game.id}=https://mirror.example/toy.csv")[game.id].startswith("https://m")


@pytest.mark.browser
def test_the_builder_works_for_a_game_without_odds(toy, browser, server):  # noqa: F811
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{server}/build?format=toy&main=TY1-001*2,TY1-002*2,TY1-003*2&eggs=TY1-004")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=builder-verdict] .verdict-line')"
        "?.textContent.startsWith('✔ Legal')"
    )
    assert "shows no odds" in page.inner_text("[data-testid=builder-odds]")
    context.close()
    assert errors == []
