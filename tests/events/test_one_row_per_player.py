"""One row per player (issue 35): a name is one player whatever ids are written, and a
private link edits its own player's list, never another row. On SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io

import pytest
from event_requests import admin_auth, create_event, submit
from fixture_cards import ST1_TEXT


@pytest.fixture
def client(both_client):
    return both_client


def table(client, event) -> list[dict]:
    response = client.get(f"/api/v1/events/{event['id']}/submissions", headers=admin_auth(event))
    return response.get_json()["data"]


def mine(client, event, token):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.get(f"/api/v1/events/{event['id']}/submissions/mine", headers=headers)


@pytest.mark.parametrize(
    ("first_id", "second"),
    [
        ("0000123", {"player": "Alice Aoki"}),  # the case: no id the second time
        ("0000123", {"player": "alice  AOKI", "player_id": "0000999"}),  # another id
        ("", {"player": "Alice Aoki", "player_id": "0000999"}),
    ],
)
def test_a_name_already_in_the_event_is_409_whatever_the_ids(client, first_id, second):
    event = create_event(client)
    assert submit(client, event, "Alice Aoki", player_id=first_id).status_code == 201
    refused = submit(client, event, decklist="4 ST1-03", **second)
    assert refused.status_code == 409
    error = refused.get_json()["error"]
    assert error["code"] == "player-exists" and "private link" in error["message"]
    [row] = table(client, event)
    assert row["player_id"] == first_id and row["version"] == 1


def test_the_private_link_edits_its_own_row_under_a_name_written_differently(client):
    """Carol sent with an id; from her link she writes only her name: still one row."""
    event = create_event(client)
    first = submit(client, event, "Carol Chen", decklist="4 ST1-03", player_id="0000333")
    token = first.get_json()["edit_token"]
    again = submit(client, event, "carol chen", edit_token=token)
    assert again.status_code == 201 and again.get_json()["edit_token"] == token
    [row] = table(client, event)
    assert row["id"] == again.get_json()["submission"]["id"]
    assert row["version"] == 2 and row["legal"] is True and row["player"] == "carol chen"
    # The link finds her list even under a name nobody had: the token decides.
    renamed = submit(client, event, "C. Chen", edit_token=token)
    assert renamed.status_code == 201
    [row] = table(client, event)
    assert row["player"] == "C. Chen" and row["version"] == 3
    # Her id is still hers: without the token it is taken.
    taken = submit(client, event, "Someone Else", player_id="0000333")
    assert taken.get_json()["error"]["code"] == "player-exists"


def test_a_private_link_cannot_take_another_players_name(client):
    event = create_event(client)
    submit(client, event, "Alice Aoki")
    carol = submit(client, event, "Carol Chen").get_json()["edit_token"]
    refused = submit(client, event, "ALICE AOKI", edit_token=carol)
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "player-exists"
    assert sorted(r["player"] for r in table(client, event)) == ["Alice Aoki", "Carol Chen"]


def test_the_private_link_reads_its_own_list(client):
    event = create_event(client)
    sent = submit(client, event, "Dana", decklist="4 ST1-03\n4 ST1-02", player_id="7")
    token = sent.get_json()["edit_token"]
    found = mine(client, event, token)
    assert found.status_code == 200
    body = found.get_json()
    assert body["decklist"] == "4 ST1-03\n4 ST1-02"
    assert body["submission"]["player"] == "Dana" and body["submission"]["player_id"] == "7"
    assert mine(client, event, None).status_code == 401
    wrong = mine(client, event, "x" * 32)
    assert wrong.status_code == 403 and wrong.get_json()["error"]["code"] == "token-wrong"
    # The organizer replaces the list: the old link no longer opens it.
    client.post(
        f"/api/v1/events/{event['id']}/submissions",
        json={"player": "Dana", "player_id": "7", "decklist": ST1_TEXT},
        headers=admin_auth(event),
    )
    assert mine(client, event, token).status_code == 403


def test_a_structured_list_reads_back_as_text(client):
    event = create_event(client)
    deck = {"main": [{"card": "ST1-03", "count": 4}], "eggs": [{"card": "ST1-01", "count": 2}]}
    sent = client.post(
        f"/api/v1/events/{event['id']}/submissions", json={"player": "Eve", "deck": deck}
    )
    text = mine(client, event, sent.get_json()["edit_token"]).get_json()["decklist"]
    assert "4 ST1-03" in text and "2 ST1-01" in text
    assert text.index("4 ST1-03") < text.index("2 ST1-01")


def test_the_csv_has_each_list_as_text(client):
    event = create_event(client)
    submit(client, event, "Fay", decklist="4 ST1-03\n=SUM(A1) 1")
    text = client.get(
        f"/api/v1/events/{event['id']}/submissions.csv", headers=admin_auth(event)
    ).get_data(as_text=True)
    header, row = list(csv.reader(io.StringIO(text)))
    assert header[-1] == "decklist" and row[-1] == "4 ST1-03\n=SUM(A1) 1"


def _form(client, event, player, text, **extra):
    return client.post(f"/e/{event['id']}", data={"player": player, "decklist": text, **extra})


def test_the_form_asks_before_storing_an_illegal_list(client):
    event = create_event(client)
    asked = _form(client, event, "Gus <b>", "4 ST1-03")
    html = asked.get_data(as_text=True)
    assert asked.status_code == 200 and 'id="confirm"' in html and 'id="send-anyway"' in html
    assert "4 ST1-03</textarea>" in html and 'value="Gus &lt;b&gt;"' in html
    assert table(client, event) == []  # nothing stored yet
    sent = _form(client, event, "Gus <b>", "4 ST1-03", anyway="1")
    assert sent.status_code == 303 and len(table(client, event)) == 1
    # A legal list is stored at once.
    assert _form(client, event, "Hal", ST1_TEXT).status_code == 303


def test_the_form_says_player_exists_before_asking_send_anyway(client):
    event = create_event(client)
    submit(client, event, "Ida")
    answer = _form(client, event, "IDA", "4 ST1-03", **{"player_id": "55"})
    assert answer.status_code == 409 and "private link" in answer.get_data(as_text=True)


def test_names_are_found_by_their_folded_key_and_older_rows_too(client):
    """A name is looked up by its folded form (an index: migration 0005), not by reading
    every player's name. Lists stored before 0005 get their key when it runs; a row an
    older server wrote without one is still found."""
    from alembic import command
    from sqlalchemy import select, update

    from deckcheck.server.migrate import alembic_config, upgrade
    from deckcheck.server.tables.events import submissions

    event = create_event(client)
    assert submit(client, event, "Ｚoë Ångström").status_code == 201  # stored as NFKC: "Z"
    # Bob sends with an id: only his name can find his row for a list sent without one.
    assert submit(client, event, "Bob", player_id="0000555").status_code == 201
    engine = client.application.extensions["deckcheck.events"].engine
    keys = select(submissions.c.player, submissions.c.name_key).order_by(submissions.c.player)
    with engine.begin() as conn:
        assert conn.execute(keys).all() == [("Bob", "bob"), ("Zoë Ångström", "zoë ångström")]
    with engine.connect() as conn:  # the column goes: the lists as an older server left them
        config = alembic_config()
        config.attributes["connection"] = conn
        command.downgrade(config, "0004")
        conn.commit()
    upgrade(engine)
    with engine.begin() as conn:
        assert conn.execute(keys).all() == [("Bob", "bob"), ("Zoë Ångström", "zoë ångström")]
        conn.execute(update(submissions).where(submissions.c.player == "Bob").values(name_key=None))
    assert submit(client, event, "BOB", decklist="4 ST1-03").status_code == 409
    assert submit(client, event, "zoë ångström", decklist="4 ST1-03").status_code == 409
