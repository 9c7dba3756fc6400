"""Dependencies point one way: deckcheck -> cardpool -> rules.

rules/ is pure Python (no web framework, no SQL); cardpool/ is the card database and
knows nothing of the web app. An import pointing up fails here.
"""

import ast

import pytest
from conftest import ROOT

FORBIDDEN = {
    "rules": {"flask", "werkzeug", "sqlite_utils", "sqlite3", "deckcheck", "cardpool"},
    "cardpool": {"flask", "werkzeug", "jinja2", "deckcheck"},
}


def imported_packages(source: str) -> set[str]:
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            imported.add(node.module.split(".")[0])
    return imported


@pytest.mark.parametrize(
    "path",
    sorted(p.relative_to(ROOT) for package in FORBIDDEN for p in (ROOT / package).rglob("*.py")),
    ids=str,
)
def test_no_import_points_up(path):
    forbidden = FORBIDDEN[path.parts[0]]
    assert not imported_packages((ROOT / path).read_text()) & forbidden


@pytest.mark.parametrize(
    "source",
    ["import flask", "from flask import Flask", "import deckcheck.db", "from werkzeug import x"],
)
def test_the_walker_sees_every_import_form(source):
    assert imported_packages(source) & (FORBIDDEN["rules"] | FORBIDDEN["cardpool"])


PACKAGES = ("rules", "cardpool", "deckcheck")
# Names that were defined in more than one module (issue 40): one definition, in rules/,
# which every other module imports.
DEFINED_ONCE = ("MAX_COUNT", "plural")


def module_level_names(source: str) -> set[str]:
    """Names a module defines at its top level (assignments, functions, classes)."""
    names: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


@pytest.mark.parametrize("name", DEFINED_ONCE)
def test_a_shared_name_is_defined_once_in_rules(name):
    defined = [
        str(path.relative_to(ROOT))
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if name in module_level_names(path.read_text())
    ]
    assert len(defined) == 1 and defined[0].startswith("rules/"), defined
