"""Products sit on the server layer and never import each other: the decks ask
deckcheck.server.owners who is signed in and who may change a deck (never the accounts
code), the accounts reach the decks only through the release they register."""

from __future__ import annotations

import ast

import pytest
from conftest import ROOT


def imported(path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


@pytest.mark.parametrize(
    ("product", "forbidden"),
    [
        ("decks", ("deckcheck.accounts", "deckcheck.server.sessions")),
        ("accounts", ("deckcheck.decks",)),
        ("server", ("deckcheck.accounts", "deckcheck.decks")),
    ],
)
def test_no_product_imports_another(product, forbidden):
    for path in sorted((ROOT / "deckcheck" / product).glob("*.py")):
        bad = [m for m in imported(path) if m.startswith(forbidden)]
        assert bad == [], path.name
