"""Organizer formats from TOML: every key, the shipped examples, and broken files."""

from datetime import date

import pytest
from conftest import ROOT
from fixture_cards import POOLS

from rules.builtin import BUILT_IN
from rules.custom import load_dir
from rules.validate import check_text

ON = date(2024, 1, 1)


def load(tmp_path, **files):
    for name, text in files.items():
        (tmp_path / f"{name}.toml").write_text(text)
    return load_dir(tmp_path, BUILT_IN)


def codes(fmt, text, on=ON):
    return sorted({v.code for v in check_text(fmt, POOLS[fmt.game], text, on).violations})


def test_shipped_examples_load():
    loaded = load_dir(ROOT / "examples" / "formats", BUILT_IN)
    assert loaded.errors == []
    assert {"dcg-sealed", "digibattle-open", "dcg-2025-regionals"} <= set(loaded.formats)


def test_sealed_40_cards_no_copy_limit():
    fmt = load_dir(ROOT / "examples" / "formats", BUILT_IN).formats["dcg-sealed"]
    assert codes(fmt, "40 ST1-03") == []
    assert codes(fmt, "41 ST1-03") == ["deck-size"]


def test_duplicates_allowed():
    fmt = load_dir(ROOT / "examples" / "formats", BUILT_IN).formats["digibattle-open"]
    assert codes(fmt, "2 ST-01\n28 BO-1") == []
    assert codes(BUILT_IN["digibattle"], "2 ST-01\n28 BO-1") == ["copy-limit"]


def test_frozen_date_wins_over_the_request():
    fmt = load_dir(ROOT / "examples" / "formats", BUILT_IN).formats["dcg-2025-regionals"]
    deck = "46 BT11-061\n4 BT3-092\n4 ST1-01"
    assert codes(fmt, deck, on=date(2026, 6, 1)) == []
    assert codes(BUILT_IN["dcg"], deck, on=date(2026, 6, 1)) == ["restricted"]


@pytest.mark.parametrize(
    ("toml", "text", "expected"),
    [
        ('id="x"\nextends="dcg"\nmin_main_size=40\nmax_main_size=60', "46 BT11-061", []),
        ('id="x"\nextends="dcg"\nmin_main_size=40\nmax_main_size=60', "30 BT11-061", ["deck-size"]),
        ('id="x"\nextends="dcg"\nmain_size=46\ncopy_limit=2', "44 BT11-061\n2 ST1-03", []),
        (
            'id="x"\nextends="dcg"\nmain_size=46\ncopy_limit=2',
            "43 BT11-061\n3 ST1-03",
            ["copy-limit"],
        ),
        ('id="x"\nextends="dcg"\nmain_size=1\nbanned=["st1-03"]', "1 ST1-03", ["banned"]),
        ('id="x"\nextends="dcg"\nmain_size=2\nrestricted=["ST1-03"]', "2 ST1-03", ["restricted"]),
        (
            'id="x"\nextends="dmcg"\ncopy_limit=1\nmain_size=2',
            "1 St-2\n1 St-91",
            ["name-limit", "required-card"],
        ),
        ('id="x"\nextends="digibattle"\nmain_size=1\nbanned=["ST-01"]', "1 ST-01", ["banned"]),
    ],
    ids=[
        "min-max-ok",
        "min-max-short",
        "copy-2-ok",
        "copy-2-over",
        "banned",
        "restricted",
        "dmcg-per-name",
        "banned-in-a-game-without-lists",
    ],
)
def test_keys(tmp_path, toml, text, expected):
    loaded = load(tmp_path, x=toml)
    assert loaded.errors == []
    assert codes(loaded.formats["x"], text) == expected


@pytest.mark.parametrize(
    ("toml", "words"),
    [
        ("id = ", "Invalid value"),
        ('id="dcg"\nextends="dcg"', "built-in"),
        ('id="x"\nextends="dcg"\ncolour="red"', "unknown key"),
        ('id="x"\nextends="nope"', "not a known format"),
        ('extends="dcg"', "'id' is required"),
        ('id="X Y"\nextends="dcg"', "lower-case"),
        ('id="x"\nextends="dcg"\nmain_size=0', "from 1 to 1000"),
        ('id="x"\nextends="dcg"\ncopy_limit="few"', "copy_limit"),
        ('id="x"\nextends="dcg"\ndate="soon"', "not a date"),
        ('id="x"\nextends="dcg"\nbanned="BT1-010"', "list of card numbers"),
        ('id="x"\nextends="dcg"\nmain_size=40\nmin_main_size=30', "not both"),
    ],
    ids=[
        "bad-toml",
        "built-in-id",
        "unknown-key",
        "unknown-base",
        "no-id",
        "bad-id",
        "bad-size",
        "bad-copy-limit",
        "bad-date",
        "banned-not-a-list",
        "size-both",
    ],
)
def test_broken_files_are_reported_not_fatal(tmp_path, toml, words):
    loaded = load(tmp_path, broken=toml, good='id="good"\nextends="dcg"')
    assert "good" in loaded.formats and "x" not in loaded.formats
    [error] = loaded.errors
    assert error["file"] == "broken.toml" and words in error["message"]


def test_duplicate_ids(tmp_path):
    loaded = load(tmp_path, a='id="same"\nextends="dcg"', b='id="same"\nextends="dcg"')
    assert [e["file"] for e in loaded.errors] == ["b.toml"]


def test_missing_folder():
    assert load_dir(ROOT / "no-such-folder", BUILT_IN).formats.keys() == BUILT_IN.keys()
