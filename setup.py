"""Package discovery, plus what pyproject.toml cannot say.

The design keeps templates/ at the top level of the repository, but an installed
app must find them inside its package: the wheel carries templates/ as the
package `deckcheck.templates` (mapped in pyproject.toml's package-dir). TOML's
`packages.find` cannot add a mapped package to what it finds, so this does.

`DECKCHECK_COMPILE=1 pip install .` compiles the modules a validate request spends its
time in with mypyc (they are already mypy-clean), for a production server: the check
takes 35-45% less time (docs/PERFORMANCE.md). Without the variable nothing is
compiled, so an editable install runs the .py files as they are edited. A compiled
build that fails stops the install: it never falls back without a word.
"""

import os
import tomllib
from pathlib import Path

from setuptools import find_packages, setup

# The modules to compile are listed in pyproject.toml ([tool.deckcheck] compiled), where
# .ci/run and tests/test_compiled.py read them too.
COMPILED = tomllib.loads(Path(__file__).with_name("pyproject.toml").read_text())["tool"][
    "deckcheck"
]["compiled"]


def compiled() -> dict:
    if os.environ.get("DECKCHECK_COMPILE") != "1":
        return {}
    try:
        from mypyc.build import mypycify
    except ImportError:
        # pip first asks what the build needs (in a fresh environment without mypy):
        # setuptools answers with setup_requires, and pip installs it for the build.
        # 1.16: the mypyc the compiled build is tested with (.ci/run).
        return {"setup_requires": ["mypy>=1.16"]}
    return {"ext_modules": mypycify(COMPILED, opt_level="3")}


setup(
    packages=[
        *find_packages(include=["deckcheck*", "rules*", "cardpool*"]),
        "deckcheck.templates",
    ],
    **compiled(),
)
