"""/d/<id> rendered on the server and /d/<id>.png (contract "Saved deck pages"): the
deck reads whole without JavaScript, link previews get their meta tags and a picture."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser

import pytest
from decks.deck_helpers import ban, close, import_change, make_app
from fixture_cards import ST1_DECK
from PIL import Image

from deckcheck.decks import picture


class Meta(HTMLParser):
    """The page's <meta property|name=... content=...> and its <title>."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: dict[str, str] = {}
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag == "meta" and ("property" in found or "name" in found):
            self.tags[found.get("property") or found["name"]] = found.get("content", "")
        self._in_title = tag == "title"

    def handle_data(self, data):
        if self._in_title:
            self.title += data

    def handle_endtag(self, tag):
        self._in_title = False


def meta_of(html: str) -> Meta:
    parser = Meta()
    parser.feed(html)
    return parser


@pytest.fixture
def based(tmp_path):
    made = make_app(tmp_path, str(tmp_path / "events.db"), BASE_URL="https://decks.example")
    yield made
    close(made)


def saved(client, name="Red Rush", deck=None) -> str:
    made = client.post(
        "/api/v1/decks", json={"format": "dcg", "name": name, "deck": deck or ST1_DECK}
    )
    assert made.status_code == 201, made.get_json()
    return made.get_json()["deck"]["id"]


def test_the_page_holds_the_whole_deck_and_its_preview_tags(based):
    client = based.test_client()
    deck_id = saved(client)
    page = client.get(f"/d/{deck_id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    meta = meta_of(html)
    assert meta.title == "Red Rush · deckcheck"
    assert '<h1 id="deck-name">Red Rush</h1>' in html
    assert meta.tags["og:title"] == "Red Rush"
    assert meta.tags["og:description"].endswith("· Legal · 54 cards")
    assert meta.tags["og:url"] == f"https://decks.example/d/{deck_id}"
    assert meta.tags["og:image"] == f"https://decks.example/d/{deck_id}.png"
    assert meta.tags["twitter:card"] == "summary_large_image"
    # The list by section with counts, each card's count and name, the versions, the feed.
    assert "Main deck · 50 cards" in html and "Digi-Egg deck · 4 cards" in html
    assert 'data-number="ST1-02" data-count="4"' in html
    saved_at = r'<time datetime="[0-9T:-]{19}Z" data-local>[0-9: -]{16} UTC</time>'
    assert re.search(r'data-version="1">Version 1, saved ' + saved_at, html)
    assert f'href="/d/{deck_id}/changes.atom"' in html
    assert f"/build?format=dcg&amp;copy={deck_id}" in html  # "Copy to my builder"
    assert "Loading the deck" not in html


def test_a_deck_that_breaks_a_rule_says_so_on_the_page(app, tmp_path):
    client = app.test_client()
    deck_id = saved(client, "Banned one")
    import_change(app, tmp_path, ban("ST1-02", "2026-11-20"))
    html = client.get(f"/d/{deck_id}").get_data(as_text=True)
    meta = meta_of(html)
    assert "Not legal: 1 problem" in meta.tags["og:description"]
    assert 'class="violation error"' in html and "ST1-02" in html
    # Without DECKCHECK_BASE_URL the tags that need a full address are left out.
    assert "og:url" not in meta.tags and "og:image" not in meta.tags
    assert meta.tags["twitter:card"] == "summary_large_image"


def test_an_unknown_deck_is_a_404_page(app):
    client = app.test_client()
    for path in ("/d/nothing-here", "/d/nothing-here.png", "/d/a%20b"):
        answer = client.get(path, headers={"Accept": "text/html"})
        assert answer.status_code == 404, path


def test_the_picture_is_a_large_png_kept_until_the_verdict_changes(app, tmp_path, monkeypatch):
    client = app.test_client()
    deck_id = saved(client, "Picture deck")
    drawn = []
    real = picture.draw
    monkeypatch.setattr(picture, "draw", lambda deck: drawn.append(deck) or real(deck))
    first = client.get(f"/d/{deck_id}.png")
    assert first.status_code == 200 and first.mimetype == "image/png"
    image = Image.open(io.BytesIO(first.data))
    assert image.size[0] >= 1200 and image.size[1] >= 630
    assert client.get(f"/d/{deck_id}.png").data == first.data
    assert len(drawn) == 1  # the second came from the kept picture
    import_change(app, tmp_path, ban("ST1-02", "2026-11-20"))
    third = client.get(f"/d/{deck_id}.png")
    assert len(drawn) == 2 and third.data != first.data
    assert drawn[-1].verdict == "Not legal: 1 problem"


def test_the_picture_draws_a_long_list_within_its_frame(app):
    client = app.test_client()
    many = {"main": [{"card": f"ST1-{n:02d}", "count": 1} for n in range(2, 17)] * 1}
    deck_id = saved(client, "W" * 200, many)
    image = Image.open(io.BytesIO(client.get(f"/d/{deck_id}.png").data))
    assert image.size == (picture.WIDTH, picture.HEIGHT)


def test_the_page_does_not_mark_a_change_as_shown(app, tmp_path):
    """A link preview reading the page must not swallow the "changed" the player's next
    read of the deck shows."""
    client = app.test_client()
    deck_id = saved(client)
    import_change(app, tmp_path, ban("ST1-02", "2026-11-20"))
    html = client.get(f"/d/{deck_id}").get_data(as_text=True)
    assert 'data-testid="deck-changed"' in html
    assert client.get(f"/api/v1/decks/{deck_id}").get_json()["changed"] is True


def test_a_deck_whose_format_is_gone_still_reads(app, tmp_path):
    """An organizer's format removed: the page shows the deck's last verdict, says so,
    and its picture is still drawn."""
    house = tmp_path / "formats" / "house.toml"
    house.write_text('id = "house"\nname = "House"\nextends = "dcg"\n')
    client = app.test_client()
    made = client.post("/api/v1/decks", json={"format": "house", "name": "Home", "deck": ST1_DECK})
    assert made.status_code == 201, made.get_json()
    deck_id = made.get_json()["deck"]["id"]
    house.unlink()
    page = client.get(f"/d/{deck_id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "format-gone" in html and "Agumon" in html
    assert "/cards//" not in html  # no card link to a game nobody knows
    assert client.get(f"/d/{deck_id}.png").status_code == 200
