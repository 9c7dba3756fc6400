"""Compile the code and the tests once a run, before the workers start.

A machine with PYTHONDONTWRITEBYTECODE set (the CI machines have it) keeps no bytecode:
each worker compiled deckcheck, rules, cardpool and its test helpers and rewrote the
asserts of every test file (3 s of CPU a worker), and every server or command a test
starts compiled deckcheck again (0.13 s, about a hundred times a run). The controller
writes them once, where Python and pytest look for them (`__pycache__/` beside each
source, ignored by git); each is checked against its source before it is used.
"""

from __future__ import annotations

import compileall
import re
from pathlib import Path

import pytest

PACKAGES = ("deckcheck", "rules", "cardpool", "tests")
TEST_FILES = re.compile(r"(^|/)(test_[^/]*|conftest)\.py$")  # pytest rewrites these


def compile_once(config: pytest.Config, root: Path) -> None:
    for package in PACKAGES:
        compileall.compile_dir(root / package, quiet=1, rx=TEST_FILES)
    compileall.compile_file(root / "wsgi.py", quiet=1)
    _rewrite_tests(config, root / "tests")


def _rewrite_tests(config: pytest.Config, tests: Path) -> None:
    """The test files as pytest imports them (asserts rewritten), in the pyc pytest reads.
    This uses pytest's own rewriting functions, which are not public: should they change,
    the workers rewrite the files themselves, as before."""
    try:
        from _pytest.assertion.rewrite import (
            PYC_TAIL,
            _read_pyc,
            _rewrite_test,
            _write_pyc,
            assertstate_key,
            get_cache_dir,
        )

        state = config.stash[assertstate_key]
    except (ImportError, KeyError):  # another pytest, or --assert=plain
        return
    for source in sorted(tests.rglob("*.py")):
        if not TEST_FILES.search(str(source)):
            continue
        cache = get_cache_dir(source)
        pyc = cache / (source.name[:-3] + PYC_TAIL)
        if _read_pyc(source, pyc) is not None:  # written by an earlier run, still current
            continue
        cache.mkdir(parents=True, exist_ok=True)
        source_hash, code = _rewrite_test(source, config)
        _write_pyc(state, code, source_hash, pyc)
