"""Organizer formats from TOML: every key, the shipped examples, and broken files."""

from datetime import date

import pytest
from conftest import ROOT
from fixture_cards import POOLS

from rules.builtin import BUILT_IN
from rules.custom import FormatFileError, _own_rule, load_dir, parse
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
    ("toml", "text", "code", "words"),
    [
        (
            'id="x"\nextends="dmcg"\ncopy_limit=1',
            "1 St-2\n1 St-91",
            "name-limit",
            "at most 1 card ",
        ),
        (
            'id="x"\nextends="dcg"\ncopy_limit=2',
            "3 ST1-03",
            "copy-limit",
            "limit for this card is 2",
        ),
        ('id="x"\nextends="dcg"\nmain_size=40', "4 ST1-03", "deck-size", ""),
    ],
    ids=["dmcg-one-per-name", "dcg-two-copies", "dcg-40-cards"],
)
def test_an_organizer_s_rule_is_cited_as_theirs(tmp_path, toml, text, code, words):
    """A contract review: a DMCG event's copy_limit = 1 said "at most 1 cards" and cited
    the built-in "at most 3 cards of one name"."""
    fmt = load(tmp_path, x=toml).formats["x"]
    [found] = [v for v in check_text(fmt, POOLS[fmt.game], text, ON).violations if v.code == code]
    assert words in found.message
    assert (
        found.rule.startswith("organizer file x.toml (") and "this event's own rule" in found.rule
    )
    assert "3 cards" not in found.rule


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
        ('id="x"\nextends="dcg"\ndate=2024-03-01T10:00:00', "not a date"),
        ('id="x"\nextends="dcg"\ndate=2024-03-01T10:00:00Z', "not a date"),
        ('id="x"\nextends="dcg"\ndate=10:00:00', "not a date"),
        ('id="x"\nextends="dcg"\ndescription=' + "[" * 1000 + "]" * 1000, "nested more than 8"),
        ('id="x"\nextends="dcg"\nbanned=' + "[" * 9 + '"a"' + "]" * 9, "nested more than 8"),
        ('id="x"\nextends="dcg"\na.b.c.d.e.f.g.h.i=1', "nested more than 8"),
        ('id="x"\nextends="dcg"\ndescription="' + "a" * 70_000 + '"', "larger than 64 KB"),
        ('id="x"\nextends="dcg"\nbanned=[' + '"B",' * 5001 + "]", "at most 5000"),
        ('id="x"\nextends="dcg"\nbanned=["' + "B" * 65 + '"]', "list of card numbers"),
        ('id="x"\nextends="dcg"\nmain_size=true', "from 1 to 1000"),
        ('id="x"\nextends="dcg"\nname=3', "non-empty string"),
        ('id="x"\nextends="dcg"\nallow_duplicates="yes"', "true or false"),
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
        "date-time-not-a-date",
        "offset-date-time-not-a-date",
        "time-not-a-date",
        "nested-1000-deep",
        "nested-9-deep",
        "dotted-keys-9-deep",
        "over-64-kb",
        "list-over-5000",
        "card-number-too-long",
        "size-is-a-bool",
        "name-not-a-string",
        "duplicates-not-a-bool",
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


def test_the_limits_themselves_are_accepted(tmp_path):
    """At each limit, not over it: 5,000 numbers, 8 deep, just under 64 KB."""
    numbers = ", ".join(f'"BT{i // 100 + 1}-{i % 100:03d}"' for i in range(5000))
    top = f'id="x"\nextends="dcg"\ndate=2024-03-01\nbanned=[{numbers}]\n'
    assert len(top.encode()) < 64 * 1024
    loaded = load(tmp_path, x=top)
    assert loaded.errors == [] and "x" in loaded.formats
    assert loaded.formats["x"].date == date(2024, 3, 1)
    # The depth limit itself (the keys are unknown, so it is only parsed): top, a..f,
    # the list are 8 levels.
    assert parse(b"[a.b.c.d.e.f]\ng=[1]\n")["a"]["b"]["c"]["d"]["e"]["f"] == {"g": [1]}
    assert parse(b"a=[[[[[[[1]]]]]]]")  # 8 with the top table
    with pytest.raises(FormatFileError, match="nested more than 8"):
        parse(b"a=[[[[[[[[1]]]]]]]]")


@pytest.mark.parametrize(
    "text",
    [
        'a = "[[[[[[[[[[" # [[[[[[[[[[',
        "a = '[[[[[[[[[['",
        'a = """\n[[[[[[[[[[\n"""',
        "a = '''[[[[[[[[[['''",
        'a = "\\"[[[[[[[[[["',
    ],
    ids=["basic-and-comment", "literal", "multi-line", "multi-line-literal", "escaped-quote"],
)
def test_brackets_in_strings_and_comments_do_not_count(text):
    assert "[[[[[[[[[[" in parse(text.encode())["a"]


@pytest.mark.parametrize("change", ["copy_limit = 4", "allow_duplicates = true"])
def test_an_event_changing_dbe_s_copy_limit_keeps_one_ace_a_deck(tmp_path, change):
    """A review: with copy-limit left to judge one card's copies, a DBE event that
    changed the copy limit let 2 copies of one Ace through (kind-total-limit before)."""
    from fixture_cards import make_deck

    fmt = load(tmp_path, x=f'id="x"\nextends="dbe"\n{change}').formats["x"]
    violations, _ = fmt.judge(make_deck("dbe", main={"ACC-019": 2}), ON)
    assert "kind-total-limit" in {v.code for v in violations}
    assert "2 cards that are Ace cards" in next(
        v.message for v in violations if v.code == "kind-total-limit"
    )


def test_an_organizer_s_keys_are_cited_as_written_in_toml(tmp_path):
    fmt = load(tmp_path, x='id="x"\nextends="dmcg"\nallow_duplicates=true\nmain_size=2').formats[
        "x"
    ]
    [size] = [
        v for v in check_text(fmt, POOLS["dmcg"], "3 St-2", ON).violations if v.code == "deck-size"
    ]
    assert "main_size = 2" in size.rule
    assert _own_rule("x.toml", {"allow_duplicates": True}, "allow_duplicates").endswith(
        "(allow_duplicates = true): this event's own rule"
    )
