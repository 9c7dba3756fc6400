"""The house style holds: ruff clean and formatted everywhere, mypy clean on the three
packages (rules/, cardpool/, deckcheck/: the files pyproject.toml names)."""

import subprocess
import sys
import tempfile
from pathlib import Path

from conftest import ROOT


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def mypy_cache() -> Path:
    """mypy's cache in the system's temp folder as TMPDIR names it (kept between runs,
    so a second run is quick), never in one fixed folder another user may own."""
    return Path(tempfile.gettempdir()) / "deckcheck-mypy-cache"


def test_ruff():
    result = run("ruff", "check", ".")
    assert result.returncode == 0, result.stdout
    result = run("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout


def test_mypy():
    result = run("mypy", "--cache-dir", str(mypy_cache()))
    assert result.returncode == 0, result.stdout


def test_the_mypy_cache_follows_tmpdir(monkeypatch, tmp_path):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)  # gettempdir() reads TMPDIR again
    assert mypy_cache() == tmp_path / "deckcheck-mypy-cache"
