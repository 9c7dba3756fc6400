"""Package discovery, plus what pyproject.toml cannot say.

The design keeps templates/ at the top level of the repository, but an installed
app must find them inside its package: the wheel carries templates/ as the
package `deckcheck.templates` (mapped in pyproject.toml's package-dir). TOML's
`packages.find` cannot add a mapped package to what it finds, so this does.
"""

from setuptools import find_packages, setup

setup(
    packages=[
        *find_packages(include=["deckcheck*", "rules*", "cardpool*"]),
        "deckcheck.templates",
    ],
)
