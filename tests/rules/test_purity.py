"""rules/ stays pure Python: no Flask, no SQL (dependencies point one way)."""

import ast

import pytest
from conftest import ROOT

FORBIDDEN = {"flask", "sqlite_utils", "sqlite3", "deckcheck", "cardpool", "werkzeug"}


@pytest.mark.parametrize(
    "path", sorted(p.relative_to(ROOT) for p in (ROOT / "rules").rglob("*.py")), ids=str
)
def test_rules_import_no_framework(path):
    tree = ast.parse((ROOT / path).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
    assert not imported & FORBIDDEN
