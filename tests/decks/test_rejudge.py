"""Saved decks judged again when the world changes: the background pass judges only the
decks a list change touches, adds one feed entry per change of verdict in a player's
words, and one per announced change that will apply; a read does the same for its deck;
two servers on one database add each entry once."""

from __future__ import annotations

import os
import subprocess
import threading
from datetime import date, timedelta

import pytest
from decks.deck_helpers import ban, close, import_change, make_app
from fixture_cards import ST1_TEXT

from deckcheck import service
from deckcheck.decks import core, rejudge
from deckcheck.decks.core import store
from deckcheck.format_registry import get_format

TODAY = date(2026, 11, 29)
WITHOUT_AGUMON = ST1_TEXT.replace("4 ST1-03\n", "")


@pytest.fixture(autouse=True)
def today(monkeypatch):
    """The service's today, moved by the test (`today.day = ...`)."""

    class Clock:
        day = TODAY

    clock = Clock()
    monkeypatch.setattr(service, "today", lambda: clock.day)
    return clock


@pytest.fixture
def judged(monkeypatch) -> list[str]:
    """The decks the background pass judged again (a spy on the one call it makes)."""
    seen: list[str] = []
    real = rejudge.judge_saved

    def spy(fmt, structured, on, index):
        seen.append(structured["sections"]["main"][0][0] + f"/{len(seen)}")
        return real(fmt, structured, on, index)

    monkeypatch.setattr(rejudge, "judge_saved", spy)
    return seen


def save(client, text: str, name: str = "Deck") -> str:
    response = client.post("/api/v1/decks", json={"format": "dcg", "name": name, "decklist": text})
    assert response.status_code == 201
    return response.get_json()["deck"]["id"]


def run_pass(app) -> rejudge.PassResult:
    with app.app_context():
        return rejudge.run_pass()


def feed_titles(app, deck_id: str) -> list[str]:
    with app.app_context():
        return [e["title"] for e in store().feed(deck_id)]


def test_a_ban_judges_only_the_decks_holding_the_card(both_app, tmp_path, judged):
    client = both_app.test_client()
    holding = [save(client, ST1_TEXT, f"A{n}") for n in range(3)]
    others = [save(client, WITHOUT_AGUMON, f"B{n}") for n in range(4)]
    assert run_pass(both_app).judged == 0  # nothing changed: nothing judged
    import_change(both_app, tmp_path, ban("ST1-03", "2026-11-20"))
    result = run_pass(both_app)
    assert (result.judged, result.moved, result.entries) == (3, 4, 3)
    assert len(judged) == 3
    for deck_id in holding:
        assert feed_titles(both_app, deck_id) == [
            "ST1-03 is banned from 2026-11-20: this deck holds 4"
        ]
        deck = client.get(f"/api/v1/decks/{deck_id}").get_json()
        assert deck["legal"] is False and deck["changed"] is True
        assert deck["was"]["legal"] is True and deck["was"]["violations"] == []
        assert [v["code"] for v in deck["violations"]] == ["banned"]
    for deck_id in others:
        assert feed_titles(both_app, deck_id) == []
        assert client.get(f"/api/v1/decks/{deck_id}").get_json()["changed"] is False
    judged.clear()
    again = run_pass(both_app)
    assert (again.judged, again.moved, again.entries, judged) == (0, 0, 0, [])
    feed = client.get(f"/d/{holding[0]}/changes.atom")
    assert feed.mimetype == "application/atom+xml"
    assert b"ST1-03 is banned from 2026-11-20: this deck holds 4" in feed.data


def test_an_announced_change_is_told_and_the_day_it_applies_too(app, tmp_path, today):
    client = app.test_client()
    deck_id = save(client, ST1_TEXT)
    import_change(app, tmp_path, ban("ST1-03", "2026-12-10", announced="2026-11-25"))
    run_pass(app)
    [upcoming] = feed_titles(app, deck_id)
    assert upcoming.startswith("From 2026-12-10, ST1-03 Agumon will be banned")
    assert client.get(f"/api/v1/decks/{deck_id}").get_json()["legal"] is True
    today.day = date(2026, 12, 9)
    assert run_pass(app).judged == 0  # the day before: nothing new
    today.day = date(2026, 12, 10)
    assert run_pass(app).judged == 1
    assert feed_titles(app, deck_id)[0] == "ST1-03 is banned from 2026-12-10: this deck holds 4"
    assert len(feed_titles(app, deck_id)) == 2


def test_a_read_judges_its_deck_again_and_adds_the_entry_once(app, tmp_path, judged):
    client = app.test_client()
    deck_id = save(client, ST1_TEXT)
    import_change(app, tmp_path, ban("ST1-03", "2026-11-20"))
    assert client.get(f"/api/v1/decks/{deck_id}").get_json()["changed"] is True
    feed = client.get(f"/d/{deck_id}/changes.atom").data
    assert feed.count(b"<entry>") == 1
    assert run_pass(app).judged == 0 and judged == []  # the read did it
    assert len(feed_titles(app, deck_id)) == 1


def test_changed_is_measured_against_the_verdict_last_shown(app, tmp_path):
    """Contract: "changed" with "was" when the verdict differs from the one last shown.
    "My decks" (the lookup) marks the deck until it is read; the read shows the change
    once; the next read measures against what that one showed; the feed keeps it."""
    client = app.test_client()
    deck_id = save(client, ST1_TEXT)
    import_change(app, tmp_path, ban("ST1-03", "2026-11-20"))
    run_pass(app)

    def looked_up() -> bool:
        answer = client.post("/api/v1/decks/lookup", json={"ids": [deck_id]}).get_json()
        return answer["data"][0]["changed"]

    assert looked_up() is True and looked_up() is True  # a lookup shows no verdict
    first = client.get(f"/api/v1/decks/{deck_id}").get_json()
    assert first["changed"] is True and first["was"]["legal"] is True
    second = client.get(f"/api/v1/decks/{deck_id}").get_json()
    assert second["changed"] is False and "was" not in second and second["legal"] is False
    assert looked_up() is False
    assert len(feed_titles(app, deck_id)) == 1

    # The ban lifted: changed again, measured against the illegal verdict last shown.
    import_change(
        app,
        tmp_path,
        ban("ST1-03", "2026-11-20"),
        ban("ST1-03", "2026-11-21", status="unrestricted"),
    )
    again = client.get(f"/api/v1/decks/{deck_id}").get_json()
    assert again["changed"] is True and again["legal"] is True
    assert again["was"]["legal"] is False
    assert [v["code"] for v in again["was"]["violations"]] == ["banned"]


def test_a_list_change_naming_other_cards_judges_no_deck(app, tmp_path, judged):
    client = app.test_client()
    for n in range(3):
        save(client, ST1_TEXT, f"D{n}")
    import_change(app, tmp_path, ban("BT5-109", "2026-11-20"))
    result = run_pass(app)
    assert (result.judged, result.moved, judged) == (0, 3, [])


def test_an_unban_is_a_change_too(app, tmp_path):
    client = app.test_client()
    import_change(app, tmp_path, ban("ST1-03", "2026-11-01"))
    deck_id = save(client, ST1_TEXT)
    import_change(
        app,
        tmp_path,
        ban("ST1-03", "2026-11-01"),
        ban("ST1-03", "2026-11-20", status="unrestricted"),
    )
    run_pass(app)
    [entry] = feed_titles(app, deck_id)
    assert entry.startswith("No longer a problem: ST1-03 Agumon is banned")
    deck = client.get(f"/api/v1/decks/{deck_id}").get_json()
    assert deck["legal"] is True and deck["changed"] is True and deck["was"]["legal"] is False


def test_the_pass_stops_at_its_budget_and_the_next_goes_on(app, tmp_path):
    client = app.test_client()
    ids = [save(client, ST1_TEXT, f"D{n}") for n in range(5)]
    import_change(app, tmp_path, ban("ST1-03", "2026-11-20"))
    ticks = iter(range(0, 10_000, 100))  # each look at the clock: 100 s later
    with app.app_context():
        stopped = rejudge.run_pass(seconds=250, batch=2, clock=lambda: next(ticks))
    assert not stopped.finished and 0 < stopped.judged < 5
    with app.app_context():
        rest = rejudge.run_pass(batch=2)
    assert rest.finished and stopped.judged + rest.judged == 5
    assert all(len(feed_titles(app, i)) == 1 for i in ids)


def test_two_servers_on_one_database_add_each_entry_once(postgres, tmp_path, monkeypatch):
    """Both passes judge every touched deck at the same moment (a barrier in the judge);
    each deck's feed still holds one entry."""
    database = postgres.database("two_servers")
    first = make_app(tmp_path, database)
    second = make_app(tmp_path, database)
    client = first.test_client()
    ids = [save(client, ST1_TEXT, f"D{n}") for n in range(4)]
    import_change(first, tmp_path, ban("ST1-03", "2026-11-20"))
    barrier = threading.Barrier(2, timeout=30)
    real = rejudge.judge_saved
    calls = {"n": 0}

    def together(*args):
        calls["n"] += 1
        if calls["n"] <= 2:
            barrier.wait()  # the first deck of each pass: both passes are under way
        return real(*args)

    monkeypatch.setattr(rejudge, "judge_saved", together)
    results: list = []
    threads = [
        threading.Thread(target=lambda a=a: results.append(run_pass(a))) for a in (first, second)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(r.judged for r in results) == [4, 4]
    for deck_id in ids:
        assert feed_titles(first, deck_id) == [
            "ST1-03 is banned from 2026-11-20: this deck holds 4"
        ]
    close(first)
    close(second)


def test_the_command_runs_one_pass(app, tmp_path):
    client = app.test_client()
    save(client, ST1_TEXT)
    import_change(app, tmp_path, ban("ST1-03", "2026-11-20"))
    out = app.test_cli_runner().invoke(args=["decks", "rejudge"])
    assert (
        out.exit_code == 0
        and "1 decks judged again" in out.output
        and "1 feed entries" in out.output
    )


def test_every_is_read_strictly():
    from deckcheck.decks import rejudge_every

    assert rejudge_every(None) == 3600 and rejudge_every("off") is None
    assert rejudge_every("30m") == 1800
    with pytest.raises(ValueError, match="DECKCHECK_DECKS_REJUDGE_EVERY"):
        rejudge_every("often")
    assert timedelta(seconds=rejudge_every("1d")) == timedelta(days=1)


def test_when_cards_are_added_the_decks_with_unread_lines_are_found(app):
    client = app.test_client()
    unread = save(client, ST1_TEXT + "\n4 BT99-001\n", "Unread")
    save(client, ST1_TEXT, "Plain")
    with app.app_context():
        world = store().deck(unread)["judged_world"]
        found = store().stale_page("dcg", world, "", 10, numbers=[], unknown_too=True)
        assert [row["id"] for row in found] == [unread]
        assert store().stale_page("dcg", world, "", 10, numbers=[], unknown_too=False) == []


def test_one_process_per_interval_starts_the_background_pass(postgres, tmp_path):
    """Several workers and servers on one database: one takes the pass each interval."""
    database = postgres.database("one_pass")
    apps = [make_app(tmp_path, database) for _ in range(3)]
    turns = [rejudge.BackgroundRejudge(a, 3600)._my_turn() for a in apps for _ in range(2)]
    assert turns.count(True) == 1
    for made in apps:
        close(made)


def test_a_lookup_past_its_budget_answers_stored_verdicts_marked(app, tmp_path, monkeypatch):

    client = app.test_client()
    ids = [save(client, ST1_TEXT, f"D{n}") for n in range(3)]
    import_change(app, tmp_path, ban("ST1-03", "2026-11-20"))
    monkeypatch.setattr(core, "LOOKUP_JUDGED", 0)
    data = client.post("/api/v1/decks/lookup", json={"ids": ids}).get_json()["data"]
    assert [(d["current"], d["legal"]) for d in data] == [(False, True)] * 3
    # A count, not seconds (issue 40): the first two judged again however slow they are.
    monkeypatch.setattr(core, "LOOKUP_JUDGED", 2)
    data = client.post("/api/v1/decks/lookup", json={"ids": ids[::-1]}).get_json()["data"]
    assert [(d["current"], d["legal"]) for d in data] == [(True, False)] * 2 + [(False, True)]
    # The verdict beside `legal`: of the judging just done, or the stored one.
    assert [d["verdict"] for d in data] == ["illegal", "illegal", "legal"]
    monkeypatch.setattr(core, "LOOKUP_JUDGED", 100)
    data = client.post("/api/v1/decks/lookup", json={"ids": ids}).get_json()["data"]
    assert [(d["current"], d["legal"], d["changed"]) for d in data] == [(True, False, True)] * 3


def test_the_background_runs_the_pass_in_a_process_of_its_own(app, tmp_path):
    """What a serving process does when its turn comes: `flask decks rejudge --nice 10`
    with this app's databases, in a child process."""
    client = app.test_client()
    deck_id = save(client, ST1_TEXT)
    import_change(app, tmp_path, ban("ST1-03", "2026-11-20"))
    rejudge.BackgroundRejudge(app, 3600)._run()
    assert feed_titles(app, deck_id) == ["ST1-03 is banned from 2026-11-20: this deck holds 4"]


def test_the_parts_of_a_pass_cover_every_id_once():
    import secrets

    for count in (1, 2, 3, 4, 7):
        cut = rejudge.parts(count)
        for deck_id in [secrets.token_urlsafe(9) for _ in range(500)] + ["-" * 12, "z" * 12]:
            inside = [
                (lo is None or deck_id >= lo) and (hi is None or deck_id < hi) for lo, hi in cut
            ]
            assert inside.count(True) == 1, (count, deck_id)


def test_parts_run_together_judge_every_deck_once(both_app, tmp_path, judged):
    client = both_app.test_client()
    ids = [save(client, ST1_TEXT, f"D{n}") for n in range(12)]
    import_change(both_app, tmp_path, ban("ST1-03", "2026-11-20"))
    results, expected = [], []
    with both_app.app_context():
        for lo, hi in rejudge.parts(3):
            results.append(rejudge.run_pass(part=(lo, hi)).judged)
            expected.append(sum((lo is None or i >= lo) and (hi is None or i < hi) for i in ids))
    assert results == expected and len(judged) == 12
    assert all(len(feed_titles(both_app, i)) == 1 for i in ids)


def test_a_pass_stops_when_the_process_that_started_it_is_gone(app, tmp_path):
    """A killed server's pass ends with it (checked before each page of decks), instead
    of running on to its 900 s budget; the next pass goes on where it stopped."""
    client = app.test_client()
    ids = [save(client, ST1_TEXT, f"D{n}") for n in range(5)]
    import_change(app, tmp_path, ban("ST1-03", "2026-11-20"))
    looks = iter([True, True])  # alive for two looks, then gone
    with app.app_context():
        stopped = rejudge.run_pass(batch=2, alive=lambda: next(looks, False))
    assert stopped.orphaned and not stopped.finished and stopped.judged == 4
    assert "the process that started it is gone" in stopped.words()
    with app.app_context():
        rest = rejudge.run_pass(batch=2)
    assert rest.finished and rest.judged == 1
    assert all(len(feed_titles(app, i)) == 1 for i in ids)


def _rejudge_command(app, *args: str) -> subprocess.CompletedProcess:
    command, env = rejudge.pass_process(app.config, *args)
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("processes", ["1", "2"])
def test_the_command_stops_when_its_parent_is_not_the_one_named(app, tmp_path, processes):
    """`--parent PID` (what the background passes): the command's parent is this test,
    not PID 1, so the pass is an orphan from its first look and judges nothing; with
    parts, the parts are stopped too."""
    client = app.test_client()
    deck_id = save(client, ST1_TEXT)
    import_change(app, tmp_path, ban("ST1-03", "2026-11-20"))
    done = _rejudge_command(app, "--processes", processes, "--parent", "1")
    assert done.returncode == 0, done.stderr  # stopping for that is not a failure
    assert "the process that started" in done.stdout
    assert feed_titles(app, deck_id) == []
    named = _rejudge_command(app, "--processes", processes, "--parent", str(os.getpid()))
    assert named.returncode == 0, named.stderr
    assert feed_titles(app, deck_id) == ["ST1-03 is banned from 2026-11-20: this deck holds 4"]


def test_a_read_between_the_pass_reading_and_storing_keeps_what_it_showed(both_app, tmp_path):
    """The pass reads a page of decks, a player opens one of them (shown the change), then
    the pass stores what it judged: it must not store "changed" measured against the
    verdict from before that read (the deck would say changed again, with a wrong was)."""
    app = both_app
    client = app.test_client()
    deck_id = save(client, ST1_TEXT)
    import_change(app, tmp_path, ban("ST1-03", "2026-11-20"))
    with app.app_context():
        fmt = get_format("dcg")
        now, index = core.world(fmt)
        [old] = store().stale_worlds("dcg", now.id)
        page = store().stale_page("dcg", old, "", 500)
        judged = [rejudge._judged(fmt, now, index, row) for row in page]
    first = client.get(f"/api/v1/decks/{deck_id}").get_json()
    assert first["changed"] is True and first["was"]["legal"] is True
    with app.app_context():
        assert store().save_judged_many(judged).decks == 0  # the read judged it meanwhile
    second = client.get(f"/api/v1/decks/{deck_id}").get_json()
    assert second["changed"] is False and second["legal"] is False


def test_a_head_request_shows_nothing(app, tmp_path):
    client = app.test_client()
    deck_id = save(client, ST1_TEXT)
    import_change(app, tmp_path, ban("ST1-03", "2026-11-20"))
    assert client.head(f"/api/v1/decks/{deck_id}").status_code == 200
    assert client.get(f"/api/v1/decks/{deck_id}").get_json()["changed"] is True
