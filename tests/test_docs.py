"""The README and the pages under docs/ document every command, format, CSV column,
organizer key and setting, link only to pages that exist, and stay short."""

import importlib.util
import re

import pytest
from conftest import ROOT

from cardpool.importers.card_csv import CardCsvRowSchema
from deckcheck.cli import cardpool_cli
from rules.builtin import BUILT_IN
from rules.custom import KEYS
from rules.read import SHAPES

README = (ROOT / "README.md").read_text()
PAGES = {path.name: path.read_text() for path in sorted((ROOT / "docs").glob("*.md"))}
DOCS = "\n".join([README, *PAGES.values()])
CODE = (
    "\n".join(
        path.read_text()
        for folder in ("deckcheck", "cardpool", "rules")
        for path in sorted((ROOT / folder).rglob("*.py"))
    )
    + (ROOT / "gunicorn.conf.py").read_text()
)


@pytest.mark.parametrize("command", sorted(cardpool_cli.commands))
def test_commands_are_documented(command):
    assert f"cardpool {command}" in DOCS


@pytest.mark.parametrize("format_id", sorted(BUILT_IN))
def test_formats_are_in_the_readme(format_id):
    assert f"| `{format_id}` |" in README


@pytest.mark.parametrize("column", sorted(CardCsvRowSchema(game="dcg").fields))
def test_csv_columns_are_documented(column):
    assert f"| `{column}` |" in PAGES["data.md"]


def keys_table() -> str:
    """The organizer-keys table as the code defines it (rules.custom.KEYS)."""
    rows = [f"| `{key}` | {meaning} |" for key, meaning in KEYS.items()]
    return "\n".join(["| key | meaning |", "|-----|---------|", *rows])


def test_organizer_keys_table_is_the_one_the_code_defines():
    """Generated from the code: a key added, renamed or reworded in KEYS fails here."""
    assert keys_table() in PAGES["formats.md"], "paste into docs/formats.md:\n" + keys_table()


def test_every_setting_the_code_reads_is_documented():
    read = set(re.findall(r"\bDECKCHECK_[A-Z_]+[A-Z]\b", CODE))
    missing = sorted(name for name in read if name not in DOCS)
    assert missing == []


def test_every_documented_setting_exists():
    documented = set(re.findall(r"\bDECKCHECK_[A-Z_]+[A-Z]\b", DOCS))
    # gunicorn.conf.py reads DECKCHECK_GUNICORN_<SETTING> through one f-string.
    settings = ("WORKERS", "THREADS", "TIMEOUT", "PIN")
    known = CODE + " ".join(f"DECKCHECK_GUNICORN_{n}" for n in settings)
    unknown = sorted(name for name in documented if name not in known)
    assert unknown == []


def test_links_between_pages_resolve():
    for name, text in [("README.md", README), *((f"docs/{n}", t) for n, t in PAGES.items())]:
        base = ROOT if name == "README.md" else ROOT / "docs"
        for target in re.findall(r"\]\(([^)#:]+\.md)\)", text):
            assert (base / target).exists(), f"{name} links to {target}"


def test_every_docs_page_is_linked_from_the_readme():
    assert [n for n in PAGES if f"docs/{n}" not in README] == []


def test_the_readme_stays_short():
    assert len(README.splitlines()) <= 250
    assert len(PAGES["PERFORMANCE.md"].splitlines()) <= 150


def test_exactly_two_setup_commands():
    setup = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = [line for line in setup.splitlines() if line.startswith("    ")]
    assert len(commands) == 2
    assert "flask --app deckcheck run" in commands[0] and "pytest" in commands[1]


def test_ci_runs_the_readme_test_command():
    setup = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
    test_command = [line for line in setup.splitlines() if line.startswith("    ")][1].strip()
    assert test_command in (ROOT / ".ci/run").read_text()


def shapes_tool():
    """tools/docs_shapes.py, which writes the line shapes into the docs."""
    spec = importlib.util.spec_from_file_location("docs_shapes", ROOT / "tools" / "docs_shapes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_line_shapes_in_the_docs_are_the_ones_rules_parse_shapes_makes():
    """Generated from the code: a row added to SHAPES (or a reading changed) fails here."""
    tool = shapes_tool()
    assert set(tool.BLOCKS) == {ROOT / "README.md", ROOT / "docs" / "decklists.md"}
    for path, make in tool.BLOCKS.items():
        in_docs = tool.current(path.read_text(encoding="utf-8"), path.name)
        assert in_docs == tool.wanted(make), (
            f"{path.name} is stale: run python tools/docs_shapes.py"
        )


def test_the_shapes_tool_check_fails_on_a_shape_the_docs_do_not_show(monkeypatch, capsys):
    tool = shapes_tool()
    assert tool.main(["--check"]) == 0
    monkeypatch.setitem(SHAPES, "W N W", ("Agumon BT1-010 Ace", ""))
    before = {path: path.read_bytes() for path in tool.BLOCKS}
    assert tool.main(["--check"]) == 1
    assert "stale" in capsys.readouterr().err
    assert {path: path.read_bytes() for path in tool.BLOCKS} == before  # --check writes nothing
