"""What the benchmarks share: the shared data, a full database, a real 55-card deck."""

from __future__ import annotations

import gc
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The shared data sits beside the checkout (../shared), or beside a folder of worktrees.
SHARED = next(
    (p / "shared" for p in ROOT.parents if (p / "shared" / "data").is_dir()), ROOT.parent / "shared"
)
DATA = SHARED / "data"
POOLS = {
    "dcg": DATA / "dcg" / "aegis_cards.json",
    "digibattle": DATA / "digibattle" / "cards.csv",
    "dmcg": DATA / "dmcg" / "cards.csv",
    "dbe": SHARED / "acceptance" / "dbe_fixture_cards.csv",
}

# A real tournament-style list (digimoncard.io export in the shared examples): 50 + 5.
DECK_55 = """// Digimon Deck List
4 BlitzGreymon EX9-013
2 Blue Scramble LM-028
4 Gabumon BT15-020
2 Gabumon EX9-014
4 Gabumon (X Antibody) BT9-020
4 Garurumon BT15-024
2 Garurumon P-007
2 Garurumon (X Antibody) BT9-024
1 Garurumon (X Antibody) EX5-018
2 Matt Ishida BT15-083
2 Mental Training P-104
1 MetalGarurumon BT15-101
4 MetalGarurumon EX1-021
4 Omnimon Alter-S EX9-021
4 Tai Kamiya & Matt Ishida EX9-066
4 WereGarurumon: Sagittarius Mode EX9-019
4 Wisteria Memory Boost! LM-034
// Egg Deck
1 Bukamon BT14-002
4 Wanyamon BT11-002
"""


def structured_deck(text: str) -> dict[str, list[dict]]:
    """A `count name number` list as the structured deck organizer software sends: each
    line's card number and count, in the section its header names (`// Egg Deck`)."""
    sections: dict[str, list[dict]] = {"main": [], "eggs": []}
    section = "main"
    for line in text.splitlines():
        if line.startswith("//"):
            section = "eggs" if "Egg" in line else section
        elif line.strip():
            words = line.split()
            sections[section].append({"card": words[-1], "count": int(words[0])})
    return sections


def structured_decks(decks: list[str]) -> list[dict[str, list[dict]]]:
    """Real decks (any input style) as structured decks: read and resolved once here,
    against the shared DCG pool, each card as its number and count in its section."""
    from cardpool.cards import row_to_card
    from cardpool.importers import parse_source
    from rules.builtin import BUILT_IN
    from rules.pool import CardIndex
    from rules.validate import check_text

    rows = parse_source("dcg", POOLS["dcg"].read_bytes(), "bench")
    index = CardIndex("dcg", [row_to_card(row) for row in rows])
    found = []
    for text in decks:
        deck = check_text(BUILT_IN["dcg"], index, text, date(2026, 5, 1)).deck
        found.append(
            {
                section: [{"card": s.card.number, "count": s.count} for s in deck.stacks(section)]
                for section in deck.sections()
                if section in ("main", "eggs")
            }
        )
    return [deck for deck in found if deck]


def need_data() -> None:
    missing = [str(p) for p in POOLS.values() if not p.exists()]
    if missing:
        sys.exit(f"benchmark needs the shared card data; missing: {', '.join(missing)}")


def full_database() -> str:
    """A temporary database holding the four shared pools."""
    from cardpool.db import connect
    from cardpool.imports import import_pool

    need_data()
    path = Path(tempfile.mkdtemp(prefix="deckcheck-bench-")) / "cards.db"
    db = connect(path)
    for game, source in POOLS.items():
        import_pool(db, game, str(source))
    db.close()
    return str(path)


def timings(
    func: Callable[[], object],
    repeat: int,
    number: int = 1,
    clock: Callable[[], float] = time.perf_counter,
) -> list[float]:
    """`repeat` timings of `number` calls each, per call, sorted (`clock`: wall time, or
    `time.process_time` for the CPU the process spent, which other jobs move less)."""
    times = []
    gc.collect()
    for _ in range(repeat):
        start = clock()
        for _ in range(number):
            func()
        times.append((clock() - start) / number)
    return sorted(times)


def median_seconds(func: Callable[[], object], repeat: int, number: int = 1) -> float:
    """Median of `repeat` timings of `number` calls, per call."""
    return statistics.median(timings(func, repeat, number))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(
    database: str,
    port: int,
    workers: int = 2,
    root: Path = ROOT,
    production: bool = False,
    env: dict[str, str] | None = None,
    log_level: str = "warning",
    own_session: bool = False,
) -> subprocess.Popen:
    """gunicorn serving wsgi:app on 127.0.0.1 with the given database.

    `root`: the checkout to serve (gunicorn imports from its working directory first),
    so an older commit can be timed beside this one. `production`: the README's
    command, `gunicorn -c gunicorn.conf.py wsgi:app` (gthread workers, its settings).
    `env`: more DECKCHECK_* variables. `own_session`: the server and its workers in a
    process group of their own, all killed if it does not come up.
    """
    variables = {
        **os.environ,
        "DECKCHECK_DATABASE": database,
        "DECKCHECK_SECRET_KEY": "bench",
        **(env or {}),
    }
    gunicorn = Path(sys.executable).with_name("gunicorn")
    config = ["-c", "gunicorn.conf.py"] if production else []
    server = subprocess.Popen(
        [
            str(gunicorn),
            *config,
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            log_level,
            "wsgi:app",
        ],
        cwd=root,
        env=variables,
        start_new_session=own_session,
    )
    kill = (lambda: os.killpg(server.pid, signal.SIGKILL)) if own_session else None
    return wait_until_up(server, port, kill)


def wait_until_up(
    server: subprocess.Popen, port: int, kill: Callable[[], None] | None = None
) -> subprocess.Popen:
    """The server, once its /api/v1/health answers on 127.0.0.1:`port` (30 s at most);
    else it is killed (`kill`, default `server.kill`) and the bench exits."""
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=1)
            return server
        except OSError:  # refused while starting, or an HTTP error status
            time.sleep(0.1)
    (kill or server.kill)()
    sys.exit("the server did not start")


def worker_pids(server: subprocess.Popen) -> list[int]:
    """gunicorn's worker processes (children of the master)."""
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children")
    return [int(pid) for pid in children.read_text().split()] if children.exists() else []


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def postgres_server():  # -> tests/events/pg.PostgresServer
    """A throwaway PostgreSQL server started as the tests start theirs (tests/events/pg.py).

    tests/ goes on the path before tests/events/ (pg.py imports tests/conftest.py); the
    module is imported by name `pg`, since bench/events.py would shadow a package `events`."""
    for folder in (ROOT / "tests" / "events", ROOT / "tests"):
        if str(folder) not in sys.path:
            sys.path.insert(0, str(folder))
    from pg import PostgresServer

    return PostgresServer()


@contextmanager
def postgres_for(setting: str | None) -> Iterator[object | None]:
    """`--postgres auto`: a throwaway PostgreSQL server for the run, stopped after it;
    any other setting (a URL, or none for SQLite): no server."""
    server = postgres_server() if setting == "auto" else None
    try:
        yield server
    finally:
        if server is not None:
            server.stop()


def events_database(setting: str | None, server, prefix: str = "bench") -> str:
    """A fresh events database for `--postgres`: none, a new SQLite file; `auto`, a new
    database on `server` (postgres_for's); else the URL given."""
    if setting is None:
        return str(Path(tempfile.mkdtemp(prefix=f"deckcheck-{prefix}-")) / "e.db")
    if setting == "auto":
        return server.database(f"{prefix}_{time.time_ns()}")
    return setting
