"""Event input: CSV records (Google Forms exports too), pasted lists under player
headers (Discord-style `Name:` blocks too), one file per player."""

import time

import pytest

from rules.roster import from_csv, from_file, from_pasted, player_header, read_csv, split_id


def test_csv_rows_and_bad_rows():
    text = "Player,Player_ID,Decklist\nAlice,1,4 ST1-03\n,2,4 ST1-03\nBob,,\n"
    subs = from_csv(text)
    assert [(s.player, s.player_id, s.problem) for s in subs] == [
        ("Alice", "1", None),
        ("(no name)", "2", "no player name"),
        ("Bob", "", "no decklist"),
    ]
    assert subs[1].source == "record 2"


def test_google_forms_export_columns_by_header():
    text = (
        "Timestamp,Player Name,Bandai ID,Decklist,Email Address\n"
        '2024/03/01 10:00:00,Alice,0000123456,"4 ST1-03\n4 ST1-02",a@example.org\n'
    )
    roster = read_csv(text)
    [sub] = roster.submissions
    assert (sub.player, sub.player_id, sub.decklist) == (
        "Alice",
        "0000123456",
        "4 ST1-03\n4 ST1-02",
    )
    assert roster.ignored == ["Timestamp", "Email Address"]
    assert roster.columns == {"player": "Player Name", "id": "Bandai ID", "deck": "Decklist"}


def test_decklist_beats_deck_name():
    roster = read_csv("Name,Deck name,List\nAlice,Red,4 ST1-03\n")
    assert roster.columns["deck"] == "List" and roster.ignored == ["Deck name"]
    assert roster.submissions[0].decklist == "4 ST1-03"


def test_problems_name_the_record_not_the_file_line():
    # Each quoted list spans many lines: the fifth record starts on file line 14.
    deck = '"4 ST1-03\n4 ST1-02\n"'
    rows = [f"P{n},{deck}" for n in range(1, 5)] + ["Eve,"]
    subs = from_csv("player,decklist\n" + "\n".join(rows) + "\n")
    assert subs[4].source == "record 5" and subs[4].problem == "no decklist"


def test_csv_needs_its_columns():
    with pytest.raises(ValueError, match="player"):
        from_csv("name_of_deck,cards\nx,y\n")


def test_broken_csv_is_reported_by_record():
    subs = from_csv('player,decklist\nAlice,4 ST1-03\nBob,"4 ST1-03\n')
    assert subs[0].problem is None
    assert subs[-1].source == "record 2"
    assert subs[-1].player == "Bob" or subs[-1].problem


def test_pasted_lists():
    subs = from_pasted("=== Alice (1234) ===\n4 ST1-03\n## Bob\n4 ST1-02\nPlayer: Carol\n")
    assert [(s.player, s.player_id, s.decklist.strip(), s.problem) for s in subs] == [
        ("Alice", "1234", "4 ST1-03", None),
        ("Bob", "", "4 ST1-02", None),
        ("Carol", "", "", "no decklist under this player"),
    ]


def test_discord_name_blocks():
    text = "Alice:\nMain:\n4 ST1-03\nEggs:\n4 ST1-01\n**Bob**:\n4 ST1-02\nCarol [77]:\n4 ST1-03\n"
    subs = from_pasted(text)
    assert [(s.player, s.player_id) for s in subs] == [("Alice", ""), ("Bob", ""), ("Carol", "77")]
    assert subs[0].decklist == "Main:\n4 ST1-03\nEggs:\n4 ST1-01"


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("=== Alice ===", "Alice"),
        ("## Bob", "Bob"),
        ("player: Carol", "Carol"),
        ("Dan:", "Dan"),
        ("Main deck:", None),
        ("Digi-Egg:", None),
        ("4 Agumon:", None),
        ("// Tamers:", None),
        ("4 ST1-03", None),
        ("Partner: BT1-010", None),
    ],
)
def test_player_headers(line, name):
    assert player_header(line) == name


def test_pasted_list_without_header():
    [sub] = from_pasted("4 ST1-03")
    assert sub.problem == "no player header above this list"


def test_file_name_is_the_player():
    sub = from_file("Alice_Smith (77).txt", "4 ST1-03")
    assert (sub.player, sub.player_id, sub.problem) == ("Alice Smith", "77", None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Alice (12)", ("Alice", "12")), ("Bo [x9]", ("Bo", "x9")), ("(12)", ("(12)", ""))],
)
def test_split_id(text, expected):
    assert split_id(text) == expected


def test_worst_case_header_and_file_name_are_fast():
    header = "== a" + " " * 1500 + "b"
    stem = "a_(" + "_" * 1000 + "b.txt"
    started = time.perf_counter()
    for _ in range(200):
        subs = from_pasted(header + "\n4 ST1-03\n")
        sub = from_file(stem, "4 ST1-03")
    assert time.perf_counter() - started < 1.0
    assert subs[0].player == "a b"
    assert sub.player == "a ( b"
