"""The compiled build (`DECKCHECK_COMPILE=1`, setup.py) compiles what it says it does.

`.ci/run` compiles the listed modules in place and runs the whole suite again (less
the `source_only` tests) with DECKCHECK_EXPECT_COMPILED=1: then every listed module
must come from its compiled extension, or that second run would only test the
Python source a second time.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import tomllib

import pytest
from conftest import ROOT

COMPILED = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["deckcheck"]["compiled"]


def _module(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def test_the_list_names_existing_rules_modules():
    assert len(set(COMPILED)) == len(COMPILED), "a module listed twice"
    for path in COMPILED:
        assert (ROOT / path).is_file(), path
        assert path.startswith("rules/"), "only the pure rules package is compiled"


def test_a_deck_keeps_its_derived_values():
    """A deck works out its stacks and totals once, on first use, in both builds."""
    from rules.model import Card, Deck, Entry

    agumon = Card("dcg", "BT1-010", "Agumon", "digimon")
    deck = Deck("dcg", (Entry(agumon, 3, "main", 1), Entry(agumon, 1, "main", 2)))
    assert deck.totals is deck.totals
    assert deck.stacks("main") is deck.stacks("main")
    assert deck.by_key is deck.by_key
    assert [(s.count, s.lines) for s in deck.totals] == [(4, (1, 2))]


def test_the_number_reader_knows_which_build_it_is_in():
    """`rules.numbers` picks its number test by build: the scan compiled, `re` not."""
    from rules import numbers

    assert numbers._COMPILED == (os.environ.get("DECKCHECK_EXPECT_COMPILED") == "1")


@pytest.mark.skipif(
    os.environ.get("DECKCHECK_EXPECT_COMPILED") != "1",
    reason="the compiled run of .ci/run sets DECKCHECK_EXPECT_COMPILED=1",
)
@pytest.mark.parametrize("path", COMPILED)
def test_each_listed_module_runs_compiled(path):
    module = importlib.import_module(_module(path))
    assert module.__file__ is not None
    assert module.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), (
        f"{path} was imported from {module.__file__}, not from its compiled extension"
    )
