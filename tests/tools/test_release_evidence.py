"""tools/release_evidence.py: the shipped release evidence is what the tool makes from the
committed extracts, and every real tournament list of the extract passes `not-released` on
its own event date, except the lists whose date is impossible by days held as facts."""

from __future__ import annotations

import importlib.util
import json
import sys
from datetime import date

import pytest
from conftest import ROOT

from rules.builtin import BUILT_IN
from rules.model import Card, Deck, Entry

# The lists the tool names impossible: three EX4-format lists the data dates 2022-06-25,
# a year before EX4 (2023-06-23); they hold BT10-BT12, ST14 and EX4 cards.
IMPOSSIBLE = [
    "ex4-dgo-2022-06-25-1-ulforceveedramon",
    "ex4-dgo-2022-06-25-2-beelzemon",
    "ex4-dgo-2022-06-25-3-bloomlordmon",
]


def load_tool(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclass looks its module up while it is made
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tool():
    return load_tool("release_evidence")


@pytest.fixture(scope="module")
def made(tool):
    return tool.build(json.loads(tool.RELEASES.read_text("utf-8")))


def real_decks():
    return json.loads((ROOT / "tools" / "data" / "aegis_decks.json").read_text("utf-8"))["decks"]


def test_the_shipped_file_is_what_the_tool_makes(tool, made):
    data, _ = made
    assert tool.text(data) == tool.RELEASES.read_text("utf-8"), (
        "rules/data/dcg_releases.json is stale: run python tools/release_evidence.py"
    )


def test_the_report_counts_what_it_found(made):
    _, report = made
    assert report.scanned == len(real_decks()) == 168
    assert sorted(report.impossible) == IMPOSSIBLE
    assert "BT11-020 (2023-02-17, Dimensional Phase)" in report.impossible[IMPOSSIBLE[0]]
    # The two promos: seen in real lists before their pack's guessed day.
    assert report.earlier == {
        "P-101": ("2024-04-26", "2024-01-27"),
        "P-186": ("2025-06-27", "2025-05-10"),
    }
    assert report.moved["BT1-083"] == ("2021-02-12", "2021-03-12")
    assert report.moved["BT19-012"] == ("2024-11-01", "2025-02-28")
    assert "BT19-002" not in report.moved  # in Ver.2.0: the day BT19 was already judged by


def test_every_real_list_passes_on_its_event_date():
    """Through the shipped `dcg` format: a real list is never called unreleased on the day
    it was played, nor warned about, except the lists whose own date is impossible."""
    dcg = BUILT_IN["dcg"]
    called: list[str] = []
    for deck in real_decks():
        entries = tuple(
            Entry(Card("dcg", number, "", "digimon"), count, "main")
            for number, count in deck["cards"].items()
        )
        violations, warnings = dcg.judge(Deck("dcg", entries), date.fromisoformat(deck["date"]))
        if any(v.code == "not-released" for v in violations):
            called.append(deck["id"])
        elif deck["id"] not in IMPOSSIBLE:
            assert not [w for w in warnings if w.code == "release-unverified"], deck["id"]
    assert sorted(called) == IMPOSSIBLE


def test_a_release_text_gives_its_first_possible_day():
    sources = load_tool("release_sources")
    assert sources.first_day("February 12, 2021") == (date(2021, 2, 12), True)
    assert sources.first_day("January 29th, 2021") == (date(2021, 1, 29), True)
    assert sources.first_day("October 25 – November 8, 2024") == (date(2024, 10, 25), True)
    assert sources.first_day("March-April, 2023") == (date(2023, 3, 1), False)
    assert sources.first_day("June 2021") == (date(2021, 6, 1), False)
    assert sources.first_day("2025") is None and sources.first_day(None) is None


def test_dtcg_web_data_is_read_as_written():
    """A test-only literal in dtcg-web's style: comments, bare and single-quoted keys,
    trailing commas."""
    text = """const data = [
    // a comment
    { "id": null, slug: 'x_alts', "cards": { "BT1-001": "", "BT1-002": ['_P1', '_P2'], },
      "total": 12, "reprint": true, },
];"""
    assert load_tool("release_sources").js_array(text) == [
        {
            "id": None,
            "slug": "x_alts",
            "cards": {"BT1-001": "", "BT1-002": ["_P1", "_P2"]},
            "total": 12,
            "reprint": True,
        }
    ]
