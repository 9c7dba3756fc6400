"""The house style holds: ruff clean everywhere, mypy clean on rules/."""

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


def test_mypy_on_rules():
    result = run("mypy", "--cache-dir", "/tmp/deckcheck-mypy-cache", "rules")
    assert result.returncode == 0, result.stdout
