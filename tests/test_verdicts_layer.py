"""The one judge of a stored list (deckcheck/server/verdicts) sits under both products:
nothing it imports, directly or through the modules it imports, is events/, decks/ or
accounts/ (issue 40 item 1)."""

from __future__ import annotations

import ast

from conftest import ROOT

PRODUCTS = ("deckcheck.events", "deckcheck.decks", "deckcheck.accounts")


def _file(module: str):
    path = ROOT / module.replace(".", "/")
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _imports(module: str) -> set[str]:
    """The project modules a module imports when it is imported (its top level: the app
    factory imports every product inside its functions, which is its job)."""
    tree = ast.parse(_file(module).read_text())
    found = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            # `from deckcheck.server import verdicts`: a module of the package, maybe.
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return {m for m in found if m.startswith("deckcheck") and _file(m).exists()}


def reached(start: str) -> dict[str, str]:
    """Every project module `start` reaches, with the module that imports it."""
    seen = {start: ""}
    todo = [start]
    while todo:
        module = todo.pop()
        for name in _imports(module):
            if name not in seen:
                seen[name] = module
                todo.append(name)
    return seen


def test_server_verdicts_reaches_no_product():
    modules = [
        "deckcheck.server.verdicts." + p.stem
        for p in sorted((ROOT / "deckcheck/server/verdicts").glob("*.py"))
        if p.stem != "__init__"
    ]
    for start in ["deckcheck.server.verdicts", *modules]:
        found = reached(start)
        bad = {m: by for m, by in found.items() if m.startswith(PRODUCTS)}
        assert not bad, (start, bad)


def test_the_walk_sees_a_product():
    assert any(m.startswith("deckcheck.events") for m in reached("deckcheck.events.core"))
