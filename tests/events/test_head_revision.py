"""A server starting on a database at the newest schema reads the newest revision from
the migration files' text and never imports Alembic (deckcheck/server/migrate.py)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

from deckcheck.server import migrate

# A worker's start as wsgi.py makes it, then whether Alembic was imported.
START = "import sys, wsgi; print('alembic' in sys.modules)"


def test_the_files_name_the_newest_revision_as_alembic_reads_it():
    assert migrate.head_revision() == migrate.alembic_head() is not None


@pytest.mark.parametrize(
    ("line", "read"),
    [
        ('revision = "0012_x"', ("revision", "0012_x")),
        ('revision: str = "0012_x"', ("revision", "0012_x")),  # Alembic's newer template
        ("down_revision = None", ("down_revision", None)),
        ('down_revision: Union[str, None] = "0011"', ("down_revision", "0011")),
    ],
)
def test_both_templates_lines_are_read(line, read):
    assert migrate._REVISION.search(line).group(1, 2) == read


def _start(tmp_path, events: str) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "DECKCHECK_DATABASE": str(tmp_path / "cards.db"),
        "DECKCHECK_FORMATS_DIR": str(tmp_path),
        "DECKCHECK_EVENTS_DATABASE": events,
        "DECKCHECK_SECRET_KEY": "k",
        "DECKCHECK_DECKS_REJUDGE_EVERY": "off",
    }
    return subprocess.run(
        [sys.executable, "-c", START], cwd=ROOT, env=env, capture_output=True, text=True
    )


def test_a_start_at_the_newest_schema_imports_no_alembic(tmp_path, starter_db, events_template):
    shutil.copyfile(starter_db, tmp_path / "cards.db")
    shutil.copyfile(events_template, tmp_path / "events.db")
    done = _start(tmp_path, str(tmp_path / "events.db"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-1] == "False"
    # A new database is migrated, by Alembic, at the same start.
    fresh = _start(tmp_path, str(tmp_path / "new-events.db"))
    assert fresh.returncode == 0, fresh.stderr
    assert fresh.stdout.split()[-1] == "True"
