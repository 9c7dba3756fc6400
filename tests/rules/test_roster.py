"""Event input: CSV rows, pasted lists under player headers, one file per player."""

import pytest

from rules.roster import from_csv, from_file, from_pasted


def test_csv_rows_and_bad_rows():
    text = "Player,Player_ID,Decklist\nAlice,1,4 ST1-03\n,2,4 ST1-03\nBob,,\n"
    subs = from_csv(text)
    assert [(s.player, s.player_id, s.problem) for s in subs] == [
        ("Alice", "1", None),
        ("(no name)", "2", "no player name"),
        ("Bob", "", "no decklist"),
    ]
    assert subs[1].source == "row 3"


def test_csv_needs_its_columns():
    with pytest.raises(ValueError, match="player"):
        from_csv("name_of_deck,cards\nx,y\n")


def test_pasted_lists():
    subs = from_pasted("=== Alice (1234) ===\n4 ST1-03\n## Bob\n4 ST1-02\nPlayer: Carol\n")
    assert [(s.player, s.player_id, s.decklist.strip(), s.problem) for s in subs] == [
        ("Alice", "1234", "4 ST1-03", None),
        ("Bob", "", "4 ST1-02", None),
        ("Carol", "", "", "no decklist under this player"),
    ]


def test_pasted_list_without_header():
    [sub] = from_pasted("4 ST1-03")
    assert sub.problem == "no player header above this list"


def test_file_name_is_the_player():
    sub = from_file("Alice_Smith (77).txt", "4 ST1-03")
    assert (sub.player, sub.player_id, sub.problem) == ("Alice Smith", "77", None)
