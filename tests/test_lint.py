"""The house style holds: ruff clean and formatted everywhere, mypy clean on the three
packages (rules/, cardpool/, deckcheck/: the files pyproject.toml names)."""

import subprocess
import sys

from conftest import ROOT


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_ruff():
    result = run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout
    result = run("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout


def test_mypy():
    result = run("mypy", "--cache-dir", "/tmp/deckcheck-mypy-cache")
    assert result.returncode == 0, result.stdout
