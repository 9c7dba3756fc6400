"""Small modules and functions (issue 40, "Done when"), held in rules/, cardpool/ and
deckcheck/ (not tests):

- no Python file over 400 lines, no class over 250;
- at most 3 functions (methods, nested functions) over 40 lines in the three together;
- no block of radon's cyclomatic complexity rank D or worse (over 20), as `radon cc`
  counts it (closures included).

A line count is the block's own lines, `def` / `class` to its last line (decorators
aside). There is no list of exceptions: a block over a limit is split, not excused.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

import pytest
from conftest import ROOT
from radon.complexity import cc_rank, cc_visit

PACKAGES = ("rules", "cardpool", "deckcheck")
MAX_FILE = 400
MAX_CLASS = 250
MAX_FUNCTION = 40
LONG_FUNCTIONS = 3  # functions over MAX_FUNCTION lines allowed in the three packages
MAX_COMPLEXITY = 20  # radon rank C's top; 21 is rank D


class Over(NamedTuple):
    """One block over a limit: `what` ("file", "class", "function", "complexity"), the
    file's path, the block's name (the path for a file), its size or complexity."""

    what: str
    path: str
    name: str
    size: int

    def __str__(self) -> str:
        return f"{self.path} {self.name}: {self.what} {self.size}"


def measure(path: str, source: str) -> list[Over]:
    """Every file, class and function of one module over its limit, and every block
    of complexity rank D or worse (functions over MAX_FUNCTION lines are all listed:
    `check` counts them against LONG_FUNCTIONS)."""
    found = []
    lines = len(source.splitlines())
    if lines > MAX_FILE:
        found.append(Over("file", path, path, lines))
    for node in ast.walk(ast.parse(source)):
        size = (node.end_lineno or node.lineno) - node.lineno + 1 if hasattr(node, "lineno") else 0
        if isinstance(node, ast.ClassDef) and size > MAX_CLASS:
            found.append(Over("class", path, node.name, size))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and size > MAX_FUNCTION:
            found.append(Over("function", path, node.name, size))
    blocks = list(cc_visit(source))
    while blocks:
        block = blocks.pop()
        blocks.extend(getattr(block, "closures", ()))
        if block.complexity > MAX_COMPLEXITY:
            found.append(Over("complexity", path, block.name, block.complexity))
    return found


def check(overs: list[Over]) -> list[str]:
    """What breaks a limit: every file, class and complex block over its limit, and the
    long functions when there are more than LONG_FUNCTIONS of them."""
    broken = [str(o) for o in overs if o.what != "function"]
    long = [str(o) for o in overs if o.what == "function"]
    if len(long) > LONG_FUNCTIONS:
        broken.append(f"{len(long)} functions over {MAX_FUNCTION} lines: " + "; ".join(long))
    return broken


def modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def the_code() -> list[Over]:
    overs = []
    for path in modules():
        overs += measure(path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8"))
    return overs


def test_the_code_keeps_its_size_limits():
    assert check(the_code()) == []


def _function(name: str, lines: int, indent: str = "") -> str:
    body = "".join(f"{indent}    x{i} = {i}\n" for i in range(lines - 2))
    return f"{indent}def {name}():\n{body}{indent}    return 0\n"


def _branchy(name: str, branches: int) -> str:
    ifs = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(branches))
    return f"def {name}(x):\n{ifs}    return -1\n"


@pytest.mark.parametrize(
    ("source", "broken"),
    [
        ("x = 1\n" * 400, []),
        ("x = 1\n" * 401, ["m.py m.py: file 401"]),
        ("class A:\n" + "    x = 1\n" * 249, []),
        ("class A:\n" + "    x = 1\n" * 250, ["m.py A: class 251"]),
        (_function("f", 40) + _function("g", 41) * 3, []),  # three long ones are allowed
        (_function("f", 41) * 4, ["4 functions over 40 lines"]),
        ("class A:\n" + _function("m", 41, "    ") * 4, ["4 functions over 40 lines"]),
        # The outer function is long too: 3 long nested ones make 4.
        ("def outer():\n" + _function("inner", 41, "    ") * 3, ["4 functions over 40 lines"]),
        (_branchy("f", 19), []),  # complexity 20: rank C
        (_branchy("f", 20), ["m.py f: complexity 21"]),
        ("def outer():\n    " + _branchy("inner", 20).replace("\n", "\n    "), ["inner: compl"]),
    ],
    ids=[
        "file-400",
        "file-401",
        "class-250",
        "class-251",
        "3-long-functions",
        "4-long-functions",
        "4-long-methods",
        "4-long-nested",
        "complexity-20",
        "complexity-21",
        "complex-closure",
    ],
)
def test_each_limit_fails_when_broken(source, broken):
    found = check(measure("m.py", source))
    assert len(found) == len(broken) and all(
        want in got for want, got in zip(broken, found, strict=True)
    ), found


def test_radon_ranks_as_the_limit_says():
    assert cc_rank(MAX_COMPLEXITY) == "C" and cc_rank(MAX_COMPLEXITY + 1) == "D"
