"""A saved deck's Atom feed (contract "Saved decks", judged again): a problem that comes
back gets its own entry, the background pass counts the entries it added, and the feed
is well-formed XML whatever the deck's name holds (issue 41, attack items)."""

from __future__ import annotations

from xml.etree import ElementTree

from decks.deck_helpers import ban, import_change
from fixture_cards import ST1_TEXT

from deckcheck.decks import rejudge
from deckcheck.decks.core import store
from deckcheck.decks.store import FeedEntry

ATOM = "{http://www.w3.org/2005/Atom}"


def save(client, name: str = "Deck") -> str:
    made = client.post("/api/v1/decks", json={"format": "dcg", "name": name, "decklist": ST1_TEXT})
    assert made.status_code == 201, made.get_json()
    return made.get_json()["deck"]["id"]


def titles(client, deck_id: str) -> list[str]:
    feed = ElementTree.fromstring(client.get(f"/d/{deck_id}/changes.atom").data)
    return [e.find(f"{ATOM}title").text for e in feed.iter(f"{ATOM}entry")]


BANNED = ban("ST1-03", "2026-11-20")
# Ban, unban, ban: the list with the ban, the list without it (taken back), the same
# list with the ban again: the third verdict is the first one, word for word.
BAN_UNBAN_BAN = ([BANNED], [], [BANNED])


def test_ban_unban_ban_each_read_adds_an_entry(app, tmp_path):
    client = app.test_client()
    deck_id = save(client)
    for changes, legal in zip(BAN_UNBAN_BAN, (False, True, False), strict=True):
        import_change(app, tmp_path, *changes)
        assert client.get(f"/api/v1/decks/{deck_id}").get_json()["legal"] is legal
    found = titles(client, deck_id)
    assert len(found) == 3
    assert found[0].startswith("ST1-03 is banned"), found  # the newest: a problem again
    assert found[1].startswith("No longer a problem")


def test_ban_unban_ban_through_the_pass_counts_what_it_added(both_app, tmp_path):
    app = both_app
    client = app.test_client()
    deck_id = save(client)
    for changes in BAN_UNBAN_BAN:
        import_change(app, tmp_path, *changes)
        with app.app_context():
            result = rejudge.run_pass()
        assert (result.judged, result.entries) == (1, 1)
    found = titles(client, deck_id)
    assert len(found) == 3 and found[0].startswith("ST1-03 is banned")


def test_the_pass_counts_entries_added_not_tried(both_app, tmp_path):
    """The same entry twice in one judging is stored once, and counted once."""
    app = both_app
    client = app.test_client()
    deck_id = save(client)
    import_change(app, tmp_path, BANNED)
    with app.app_context():
        [row] = store().stale_page("dcg", store().stale_worlds("dcg", "-")[0], "", 10)
        twice = FeedEntry("same-change", "ST1-03 is banned", "banned")
        judged = {
            "id": deck_id,
            "version": row["version"],
            "world": "w-new",
            "was_world": row["judged_world"],
            "judged": {"legal": False, "violations": [], "warnings": []},
            "changed": True,
            "entries": [twice, twice],
        }
        stored = store().save_judged_many([judged])
    assert (stored.decks, stored.entries) == (1, 1)


def test_a_name_xml_cannot_hold_leaves_the_feed_well_formed(app, tmp_path):
    client = app.test_client()
    deck_id = save(client, "Blue \uffff Flare \ufffe")
    import_change(app, tmp_path, BANNED)
    client.get(f"/api/v1/decks/{deck_id}")
    answer = client.get(f"/d/{deck_id}/changes.atom")
    feed = ElementTree.fromstring(answer.data)  # raises on ill-formed XML
    assert feed.find(f"{ATOM}title").text.startswith("Blue  Flare")
    assert len(list(feed.iter(f"{ATOM}entry"))) == 1
