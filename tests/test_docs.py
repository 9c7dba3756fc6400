"""The README documents every command, format, CSV column and organizer key."""

import pytest
from conftest import ROOT

from cardpool.importers.card_csv import CardCsvRowSchema
from deckcheck.cli import cardpool_cli
from rules.builtin import BUILT_IN
from rules.custom import KEYS

README = (ROOT / "README.md").read_text()


@pytest.mark.parametrize("command", sorted(cardpool_cli.commands))
def test_commands_are_documented(command):
    assert f"cardpool {command}" in README


@pytest.mark.parametrize("format_id", sorted(BUILT_IN))
def test_formats_are_documented(format_id):
    assert f"| `{format_id}` |" in README


@pytest.mark.parametrize("column", sorted(CardCsvRowSchema(game="dcg").fields))
def test_csv_columns_are_documented(column):
    assert f"| `{column}` |" in README


def keys_table() -> str:
    """The README's organizer-keys table as the code defines it (rules.custom.KEYS)."""
    rows = [f"| `{key}` | {meaning} |" for key, meaning in KEYS.items()]
    return "\n".join(["| key | meaning |", "|-----|---------|", *rows])


def test_organizer_keys_table_is_the_one_the_code_defines():
    """Generated from the code: a key added, renamed or reworded in KEYS fails here."""
    assert keys_table() in README, "paste this table into the README:\n" + keys_table()


def test_exactly_two_setup_commands():
    setup = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
    commands = [line for line in setup.splitlines() if line.startswith("    ")]
    assert len(commands) == 2
    assert "flask --app deckcheck run" in commands[0] and "pytest" in commands[1]


def test_ci_runs_the_readme_test_command():
    setup = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
    test_command = [line for line in setup.splitlines() if line.startswith("    ")][1].strip()
    assert test_command in (ROOT / ".ci/run").read_text()
