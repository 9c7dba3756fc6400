"""Card images by URL template (contract "Card images"): the setting, the card objects,
the Content-Security-Policy, and the pages in a real Chromium against a real image
server on 127.0.0.1 that serves one card's picture and answers 404 for the others."""

from __future__ import annotations

import struct
import zlib

import pytest
from served import served as serving

from deckcheck import create_app
from deckcheck.images import defaults, parse

OFFICIAL = "https://world.digimoncard.com/images/cardlist/card/{number}.png"


def tiny_png(width: int = 4, height: int = 6) -> bytes:
    """A real PNG of one red colour, made here: no image ships with the tests."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\xcc\x22\x22" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


# ---------------------------------------------------------------- the setting


def test_the_official_template_is_the_default_for_dcg_only():
    assert defaults() == {"dcg": OFFICIAL}
    images = parse(None)
    assert images.url("dcg", "BT1-010") == OFFICIAL.replace("{number}", "BT1-010")
    assert images.url("dmcg", "St-1") is None
    assert images.hosts == ["https://world.digimoncard.com"]


def test_number_as_printed_and_without_its_alternate_art_tail():
    images = parse("dcg=http://127.0.0.1:9/{number_base}/{number}.png")
    assert images.url("dcg", "BT1-010_P1") == "http://127.0.0.1:9/BT1-010/BT1-010_P1.png"
    # A number is the card list's text: it cannot add a path or a query to the address.
    assert images.url("dcg", "a/../b?x") == "http://127.0.0.1:9/a%2F..%2Fb%3Fx/a%2F..%2Fb%3Fx.png"


@pytest.mark.parametrize(
    ("setting", "games"),
    [
        ("off", set()),
        ("OFF", set()),
        ("dcg=off", set()),
        ("dmcg=http://127.0.0.1:9/{number}.jpg", {"dcg", "dmcg"}),
        ("dcg=off,dmcg=http://127.0.0.1:9/{number}.jpg", {"dmcg"}),
        ("", {"dcg"}),
    ],
)
def test_settings(setting, games):
    assert set(parse(setting).templates) == games


@pytest.mark.parametrize(
    ("setting", "says"),
    [
        ("dcg", "is not game=template"),
        ("dcg=ftp://host/{number}", "must be an http(s) address"),
        ("dcg=https://host/card.png", "names no card"),
        ("=https://h/{number}", "is not game=template"),
        # Issue 32: each of these went into every CSP header or every image_url.
        ("dcg=https://*/{number}.png", "wildcard (*) in its host"),
        ("dcg=https://*.example.com/{number}.png", "wildcard (*) in its host"),
        ("dcg=https://user:pw@images.example/{number}.png", "user name or password"),
        ("dcg=https://user@images.example/{number}.png", "user name or password"),
        ("dcg=https://images.example:99999/{number}.png", "port '99999'"),
        ("dcg=https://images.example:0/{number}.png", "port '0'"),
        ("dcg=https://images.example:/{number}.png", "port ''"),
        ("dcg=https://images.example:http/{number}.png", "port 'http'"),
        ("dcg=https://images.example/{number} .png", "a space"),
        ("dcg=https://images.example/\t{number}.png", "a space"),
        ("dcg=https://images.example;script-src/{number}.png", "not a plain name"),
        ("dcg=https://{number}.example/x.png", "not a plain name"),
        (
            "dcg=https://a.example/{number}.png,dcg=https://b.example/{number}.png",
            "dcg is given twice",
        ),
        ("dcg=off,dcg=https://b.example/{number}.png", "dcg is given twice"),
        ("dgc=https://b.example/{number}.png", "'dgc' is not a game"),
    ],
)
def test_a_setting_that_cannot_be_used_stops_the_start(setting, says):
    with pytest.raises(ValueError, match="DECKCHECK_CARD_IMAGES") as raised:
        parse(setting)
    assert says in str(raised.value)


def test_a_setting_that_cannot_be_used_stops_the_app(tmp_path):
    with pytest.raises(ValueError, match="wildcard"):
        make_app(tmp_path, "dcg=https://*/{number}.png")


@pytest.mark.parametrize(
    ("template", "origin"),
    [
        ("http://127.0.0.1:8080/{number}.png", "http://127.0.0.1:8080"),
        ("https://[::1]:8443/{number}.png", "https://[::1]:8443"),
        ("https://images.example/{number_base}?size=large", "https://images.example"),
    ],
)
def test_plain_hosts_and_ports_are_kept(template, origin):
    images = parse(f"dmcg={template}")
    assert images.hosts == ["https://world.digimoncard.com", origin]


# ---------------------------------------------------------------- card objects and CSP


def make_app(tmp_path, images: str | None):
    (tmp_path / "formats").mkdir(parents=True, exist_ok=True)
    config = {
        "TESTING": True,
        "DATABASE": str(tmp_path / "cards.db"),
        "FORMATS_DIR": str(tmp_path / "formats"),
        "EVENTS_DATABASE": str(tmp_path / "events.db"),
        "SECRET_KEY": "test",
    }
    if images is not None:
        config["CARD_IMAGES"] = images
    return create_app(config)


def test_card_objects_carry_the_default_address(tmp_path, monkeypatch):
    monkeypatch.delenv("DECKCHECK_CARD_IMAGES", raising=False)
    client = make_app(tmp_path, None).test_client()
    card = client.get("/api/v1/cards/dcg/ST1-03").get_json()
    assert card["image_url"] == OFFICIAL.replace("{number}", "ST1-03")
    found = client.get("/api/v1/cards?game=dcg&q=agumon").get_json()["data"]
    assert all(c["image_url"].endswith(f"/{c['number']}.png") for c in found)
    # Other games have no template unless one is configured.
    assert "image_url" not in client.get("/api/v1/cards/dmcg/St-1").get_json()
    policy = client.get("/").headers["Content-Security-Policy"]
    assert "img-src 'self' https://world.digimoncard.com;" in policy


def test_the_api_document_describes_every_field_of_a_card_object(tmp_path, monkeypatch):
    """Found by a contract review: the OpenAPI card schema had no `image_url`."""
    monkeypatch.delenv("DECKCHECK_CARD_IMAGES", raising=False)
    client = make_app(tmp_path, None).test_client()
    card = client.get("/api/v1/cards/dcg/ST1-03").get_json()
    documented = client.get("/api/v1/openapi.json").get_json()
    described = documented["components"]["schemas"]["Card"]["properties"]
    assert "image_url" in card and set(card) <= set(described)


def _validated_cards(client, fmt: str, decklist: str) -> list[dict]:
    answer = client.post("/api/v1/decks/validate", json={"format": fmt, "decklist": decklist})
    assert answer.status_code == 200
    return [c for s in answer.get_json()["deck"]["sections"].values() for c in s["cards"]]


def test_cards_of_a_validate_answer_carry_the_card_apis_address(tmp_path, monkeypatch):
    """Issue 33: the validate answer's cards had no `image_url` while the card API's had.
    Another template, on the same card objects or another app's, gives its own address
    (the answer's per-card cache must not hand out an address of another setting)."""
    monkeypatch.delenv("DECKCHECK_CARD_IMAGES", raising=False)
    official = make_app(tmp_path, None).test_client()
    cards = _validated_cards(official, "dcg", "4 ST1-03\n4 ST1-02")
    assert {c["number"] for c in cards} == {"ST1-03", "ST1-02"}
    for card in cards:
        single = official.get(f"/api/v1/cards/dcg/{card['number']}").get_json()
        assert card["image_url"] == single["image_url"]
    assert "image_url" not in _validated_cards(official, "dmcg", "4 St-1")[0]
    # The same card objects under another template: the address follows the template.
    official.application.extensions["deckcheck.images"] = parse("dcg=http://127.0.0.1:9/{number}")
    assert _validated_cards(official, "dcg", "4 ST1-03")[0]["image_url"] == (
        "http://127.0.0.1:9/ST1-03"
    )

    local = make_app(tmp_path / "local", "dcg=http://127.0.0.1:9/{number}.jpg").test_client()
    assert _validated_cards(local, "dcg", "4 ST1-03")[0]["image_url"] == (
        "http://127.0.0.1:9/ST1-03.jpg"
    )
    off = make_app(tmp_path / "off", "off").test_client()
    assert "image_url" not in _validated_cards(off, "dcg", "4 ST1-03")[0]
    # And the API document describes the field where the answer has it.
    documented = official.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    assert set(cards[0]) <= set(documented["DeckCard"]["properties"])


def test_the_environment_sets_the_templates(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKCHECK_CARD_IMAGES", "dcg=off,dmcg=http://127.0.0.1:9/i/{number}.jpg")
    client = make_app(tmp_path, None).test_client()
    assert "image_url" not in client.get("/api/v1/cards/dcg/ST1-03").get_json()
    assert client.get("/api/v1/cards/dmcg/St-1").get_json()["image_url"] == (
        "http://127.0.0.1:9/i/St-1.jpg"
    )
    policy = client.get("/cards").headers["Content-Security-Policy"]
    assert "img-src 'self' http://127.0.0.1:9;" in policy


def test_images_off(tmp_path):
    client = make_app(tmp_path, "off").test_client()
    assert "image_url" not in client.get("/api/v1/cards/dcg/ST1-03").get_json()
    assert "img-src 'self';" in client.get("/").headers["Content-Security-Policy"]
    page = client.get("/cards/dcg/ST1-03").get_data(as_text=True)
    assert "<img" not in page


# ---------------------------------------------------------------- in the browser


@pytest.fixture
def pictures():
    """A real image server: BT2-033's picture, 404 for every other card."""
    png = tiny_png()
    asked: list[str] = []

    def serve(environ, start_response):
        asked.append(environ["PATH_INFO"])
        if environ["PATH_INFO"] == "/img/BT2-033.png":
            start_response("200 OK", [("Content-Type", "image/png")])
            return [png]
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"no such card"]

    with serving(serve) as base:
        yield base, asked


@pytest.fixture
def site(tmp_path, pictures):
    host, asked = pictures
    app = make_app(tmp_path, f"dcg={host}/img/{{number}}.png")
    served: list[str] = []

    def logged(environ, start_response):
        served.append(environ["PATH_INFO"])
        return app(environ, start_response)

    with serving(logged) as base:
        yield {"base": base, "asked": asked, "served": served}


@pytest.fixture(params=[1280, 390], ids=lambda w: f"{w}px")
def tab(request, browser):  # noqa: F811 - the imported fixture
    context = browser.new_context(viewport={"width": request.param, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


LOADED = "img => img.complete && img.naturalWidth > 0"


@pytest.mark.browser
def test_builder_shows_images_and_text_when_one_fails(tab, site):
    tab.goto(f"{site['base']}/build?format=dcg")
    tab.fill("[data-testid=builder-search]", "agumon set:bt2")
    agumon = tab.locator("[data-testid=builder-result][data-number='BT2-033']")
    agumon.wait_for()
    image = agumon.locator("[data-testid=builder-image]")
    tab.wait_for_function(
        f"() => ({LOADED})(document.querySelector('[data-number=\"BT2-033\"] img'))"
    )
    assert image.get_attribute("alt") == "Agumon"
    assert image.get_attribute("loading") == "lazy"
    box = image.bounding_box()
    assert box and box["width"] > 50 and abs(box["height"] / box["width"] - 200 / 143) < 0.05
    # BT2-043's image answers 404: the tile shows the card as text, at the same size.
    other = tab.locator("[data-testid=builder-result][data-number='BT2-043']")
    tab.wait_for_function(
        "() => document.querySelector('[data-number=\"BT2-043\"] .face.no-image') !== null"
    )
    assert other.locator("img").count() == 0
    assert "Agumon" in other.inner_text() and "BT2-043" in other.inner_text()
    tile, failed = agumon.locator(".tile").bounding_box(), other.locator(".tile").bounding_box()
    assert tile and failed and abs(tile["height"] - failed["height"]) < 1
    # Clicking the picture adds the card; the list view has no pictures.
    image.click()
    deck = tab.locator("[data-testid=builder-deck] [data-number='BT2-033']")
    deck.wait_for()
    assert deck.get_attribute("data-count") == "1"
    tab.click("#b-view-list")
    assert tab.locator("[data-testid=builder-image]").count() == 0
    tab.reload()  # the view chosen is kept in the browser
    tab.fill("[data-testid=builder-search]", "agumon set:bt2")
    tab.locator("[data-testid=builder-result]").first.wait_for()
    assert tab.get_attribute("#b-results", "class") == "results list"
    assert tab.locator("[data-testid=builder-image]").count() == 0
    assert "/img/BT2-033.png" in site["asked"]
    # Never through deckcheck: the browser asked the image host itself.
    assert not any(path.endswith(".png") for path in site["served"])


@pytest.mark.browser
def test_card_page_browser_and_report_show_images(tab, site):
    tab.goto(f"{site['base']}/cards/dcg/BT2-033")
    picture = tab.locator(".card-pic img")
    tab.wait_for_function(f"() => ({LOADED})(document.querySelector('.card-pic img'))")
    assert picture.get_attribute("alt") == "Agumon"
    tab.goto(f"{site['base']}/cards/dcg/ST1-02")
    tab.wait_for_selector(".card-pic.failed .pic-text")
    assert tab.inner_text(".card-pic.failed") == "Biyomon"
    tab.goto(f"{site['base']}/cards?game=dcg&q=agumon+set%3Abt2")
    row = tab.locator("tr[data-number='BT2-033'] .card-pic img")
    tab.wait_for_function(
        f"() => ({LOADED})(document.querySelector('tr[data-number=\"BT2-033\"] .card-pic img'))"
    )
    assert row.get_attribute("loading") == "lazy"
    tab.wait_for_selector("tr[data-number='BT2-043'] .card-pic.failed")
    tab.goto(f"{site['base']}/report?format=dcg&decklist=4+BT2-033%0A4+ST1-02")
    tab.wait_for_selector("#section-main .card-pic")
    assert tab.locator("#section-main .card-pic").count() == 2
    tab.wait_for_selector("#section-main .card-pic.failed")
