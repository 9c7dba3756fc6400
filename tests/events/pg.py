"""A real PostgreSQL server for tests: initdb in a temporary folder, pg_ctl start on
a unix socket in that folder (no port to collide with), stopped at the end.

PostgreSQL refuses to run as root; as root the server runs as the `postgres` user
(runuser), in a folder that user owns. Absent PostgreSQL: a skip with the reason,
except in CI, where it is a failure.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from conftest import in_ci


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


class PostgresServer:
    def __init__(self) -> None:
        binary = pg_bin()
        if binary is None:
            if in_ci():
                pytest.fail("CI must test PostgreSQL, but initdb is not installed")
            pytest.skip("PostgreSQL is not installed (apt-get install postgresql): skipped")
        self.bin = binary
        self.root = Path(tempfile.mkdtemp(prefix="deckcheck-pg-"))
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        self.data = self.root / "data"
        self._run([str(binary / "initdb"), "-D", str(self.data), "-U", "deckcheck",
                   "--auth=trust", "-E", "UTF8", "--no-sync"])  # fmt: skip
        options = f"-c listen_addresses='' -k {self.root} -c fsync=on"
        self._run([str(binary / "pg_ctl"), "-D", str(self.data), "-o", options, "-w",
                   "-l", str(self.root / "log"), "start"])  # fmt: skip
        self.url = f"postgresql://deckcheck@/postgres?host={self.root}"

    def _run(self, command: list[str]) -> None:
        subprocess.run(_as_server_user(command), check=True, capture_output=True, timeout=120)

    def database(self, name: str) -> str:
        """A fresh empty database on this server, as a postgresql:// URL."""
        self._run([str(self.bin / "createdb"), "-h", str(self.root), "-U", "deckcheck", name])
        return f"postgresql://deckcheck@/{name}?host={self.root}"

    def stop(self) -> None:
        try:
            self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"])
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
