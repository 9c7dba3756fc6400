"""An import killed half-way leaves the previous pool; readers never see a mix."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

from fixture_cards import pool_rows

from cardpool.db import connect
from cardpool.store import replace_pool

rows = pool_rows


def test_sigkill_mid_import_keeps_the_previous_pool(tmp_path):
    path = tmp_path / "cards.db"
    db = connect(path)
    replace_pool(db, "dmcg", rows("old", 100), "old")
    db.close()
    marker = tmp_path / "half-way"
    script = textwrap.dedent(
        f"""
        import time, pathlib
        from cardpool.db import connect
        from cardpool.store import replace_pool
        from fixture_cards import pool_rows as rows

        def progress(n):
            pathlib.Path({str(marker)!r}).write_text("x")
            time.sleep(30)

        db = connect({str(path)!r})
        replace_pool(db, "dmcg", rows("new", 2000), "new", progress=progress)
        """
    )
    tests = os.path.dirname(os.path.dirname(__file__))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([tests, os.getcwd()])}
    child = subprocess.Popen([sys.executable, "-c", script], env=env)
    deadline = time.time() + 30
    while not marker.exists() and time.time() < deadline and child.poll() is None:
        time.sleep(0.05)
    assert marker.exists(), "the import never reached half-way"
    child.send_signal(signal.SIGKILL)
    child.wait()

    db = connect(path)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    names = {r[0][:3] for r in db.execute("SELECT name FROM cards WHERE game = 'dmcg'")}
    assert names == {"old"}
    assert db.execute("SELECT count(*) FROM cards").fetchone()[0] == 100
    db.close()


def test_readers_see_the_old_pool_or_the_new_one(tmp_path):
    path = tmp_path / "cards.db"
    writer = connect(path)
    replace_pool(writer, "dmcg", rows("a", 300), "a")
    seen, stop = [], threading.Event()

    def read():
        reader = connect(path, migrate=False)
        while not stop.is_set():
            found = reader.execute(
                "SELECT substr(name, 1, 1), count(*) FROM cards GROUP BY 1"
            ).fetchall()
            seen.append(tuple(sorted(found)))
        reader.close()

    thread = threading.Thread(target=read)
    thread.start()
    for i in range(6):
        replace_pool(
            writer, "dmcg", rows("b" if i % 2 == 0 else "a", 300 + 100 * (i % 2 == 0)), "x"
        )
    stop.set()
    thread.join()
    writer.close()
    assert seen and set(seen) <= {(("a", 300),), (("b", 400),)}


def test_two_imports_at_once_are_serialized(tmp_path):
    path = tmp_path / "cards.db"
    connect(path).close()
    errors = []

    def run(prefix, n):
        try:
            db = connect(path)
            for _ in range(3):
                replace_pool(db, "dmcg", rows(prefix, n), prefix)
            db.close()
        except Exception as err:  # pragma: no cover - the assertion below reports it
            errors.append(err)

    threads = [threading.Thread(target=run, args=(p, n)) for p, n in (("a", 500), ("b", 700))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    db = connect(path)
    found = db.execute("SELECT substr(name, 1, 1), count(*) FROM cards GROUP BY 1").fetchall()
    assert errors == [] and found in ([("a", 500)], [("b", 700)])
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
