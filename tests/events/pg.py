"""A real PostgreSQL server for tests: initdb in a temporary folder, pg_ctl start on
a unix socket in that folder (no port to collide with), stopped at the end.

PostgreSQL refuses to run as root; as root the server runs as the `postgres` user
(runuser), in a folder that user owns. Absent PostgreSQL: a skip with the reason,
except in CI, where it is a failure.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
import tempfile
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

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
        # `createdb` takes 0.1-0.5 s (it copies and syncs a template): the next fresh
        # database is made on a thread while the test before it runs.
        self._maker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="createdb")
        self._names = (f"events_{n}" for n in itertools.count())
        self._ahead: Future[str] | None = None
        # A database the migrations already ran on (the `postgres` fixture in
        # tests/conftest.py): a fresh database is a file copy of it, not ten migrations'
        # DDL again (0.1 s of CPU in the test and as much in the server, in each of some
        # 400 tests).
        self.template: str | None = None
        # DROP DATABASE forces a checkpoint (a second or so with fsync on): on a thread
        # of its own, so a fresh database is never made behind one.
        self._dropper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dropdb")

    def _run(self, command: list[str]) -> None:
        subprocess.run(_as_server_user(command), check=True, capture_output=True, timeout=120)

    def database(self, name: str, template: str | None = None) -> str:
        """A fresh database on this server (empty, or a copy of `template`), as a
        postgresql:// URL."""
        copy = ["-T", template, "--strategy=file_copy"] if template else []
        self._run([str(self.bin / "createdb"), "-h", str(self.root), "-U", "deckcheck",
                   *copy, name])  # fmt: skip
        return self.url_of(name)

    def url_of(self, name: str) -> str:
        return f"postgresql://deckcheck@/{name}?host={self.root}"

    def fresh_database(self) -> str:
        """A new database (a copy of `template` when one is set, else empty), made
        ahead while the previous test ran."""
        ahead = self._ahead or self._maker.submit(self._next)
        self._ahead = self._maker.submit(self._next)
        return ahead.result()

    def _next(self) -> str:
        return self.database(next(self._names), self.template)

    def sql(self, statement: str) -> None:
        """Run one statement on the server's own `postgres` database."""
        command = [str(self.bin / "psql"), "-h", str(self.root), "-U", "deckcheck", "-d",
                   "postgres", "-v", "ON_ERROR_STOP=1", "-c", statement]  # fmt: skip
        self._run(command)

    def drop_later(self, url: str) -> None:
        """Drop a test's database on the dropping thread: each holds 8 MB in 300 files,
        which would otherwise all be deleted at the very end of the run (seconds, while
        every other worker has finished)."""
        # postgresql://deckcheck@/<name>?host=<socket folder>: the name is the path (the
        # URL's last "/" is in the socket folder).
        name = urlsplit(url).path.lstrip("/")
        self._dropper.submit(self._drop, name)

    def settled(self) -> None:
        """Wait for the databases made ahead and the drops asked for so far."""
        self._maker.submit(lambda: None).result()
        self._dropper.submit(lambda: None).result()

    def _drop(self, name: str) -> None:
        # --force ends sessions a killed server left; a database that cannot be dropped
        # now is deleted with the whole folder in stop().
        command = [str(self.bin / "dropdb"), "-h", str(self.root), "-U", "deckcheck",
                   "--force", name]  # fmt: skip
        subprocess.run(_as_server_user(command), capture_output=True, timeout=120)

    def stop(self) -> None:
        self._maker.shutdown(wait=True, cancel_futures=True)
        self._dropper.shutdown(wait=True, cancel_futures=True)
        try:
            self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"])
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
