"""Shared fixtures: an app on a temporary database, and the shared public card pools."""

from __future__ import annotations

import gc
import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import bytecode
import pytest
import quick_apps  # noqa: F401 - werkzeug made quicker for the many test apps
import starter
from flask import Flask
from hypothesis import settings

from cardpool.db import connect
from cardpool.imports import import_pool
from deckcheck import create_app
from deckcheck.server import opened

# CI runs every test from a clean clone: no example database to replay, and the same
# examples every run, so a red CI always means a change broke something. Locally each
# run draws new examples (and keeps failures in the ignored .hypothesis/ folder).
settings.register_profile("ci", database=None, derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


# ---------------------------------------------------------------- temporary files in memory
# Every test's files (card and events databases, PostgreSQL's data folder, a gunicorn's
# files, Chromium's profile: all made under the temp folder) go to the machine's memory
# file system when it has room. SQLite's synchronous=FULL and PostgreSQL's fsync wait for
# the disk at every commit (2-5 ms each on a shared virtual disk): in memory they return
# at once, and PostgreSQL's create and drop of a test's database cost a quarter of the
# CPU. What the tests hold is unchanged: a killed process (the durability tests) leaves
# its written pages with the kernel either way; only a power cut needs the disk. A
# TMPDIR that is set is kept (subprocesses inherit the one chosen here).
MEMORY_FS = Path("/dev/shm")
MEMORY_FS_ROOM = 4 * 2**30  # a run writes about 0.5 GB; passed tests' folders are removed


def _temp_in_memory() -> None:
    if "TMPDIR" in os.environ or not MEMORY_FS.is_dir() or not os.access(MEMORY_FS, os.W_OK):
        return
    stats = os.statvfs(MEMORY_FS)
    if stats.f_bavail * stats.f_frsize >= MEMORY_FS_ROOM:
        os.environ["TMPDIR"] = str(MEMORY_FS)
        tempfile.tempdir = None  # gettempdir() reads TMPDIR again


_temp_in_memory()

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DATA = SHARED / "data"
POOLS = {
    "dcg": DATA / "dcg" / "aegis_cards.json",
    "digibattle": DATA / "digibattle" / "cards.csv",
    "dmcg": DATA / "dmcg" / "cards.csv",
    "dbe": SHARED / "acceptance" / "dbe_fixture_cards.csv",
}


def need_shared() -> None:
    missing = [str(p) for p in POOLS.values() if not p.exists()]
    if missing:
        pytest.skip(
            f"the shared card data is absent ({', '.join(missing)}): full-pool test skipped"
        )


@pytest.fixture(scope="session")
def starter_db(tmp_path_factory) -> Path:
    """A card database as a new app leaves it (migrated, the shipped pools seeded), made
    once per run (per xdist worker). Seeding writes 4,000 cards: 0.2 s, most of it
    waiting on the disk, in each of some 600 tests; copying the file takes 5 ms."""
    folder = tmp_path_factory.mktemp("starter")
    (folder / "formats").mkdir()
    create_app(
        {
            "TESTING": True,
            "DATABASE": str(folder / "cards.db"),
            "FORMATS_DIR": str(folder / "formats"),
            "EVENTS_DATABASE": str(folder / "events.db"),
            "SECRET_KEY": "starter",
        }
    )
    leftovers = sorted(p.name for p in folder.glob("cards.db-*"))
    assert not leftovers, f"the starter database was left open: {leftovers}"
    starter.made(folder / "cards.db")
    return folder / "cards.db"


@pytest.fixture(scope="session", autouse=True)
def _starters_in_every_worker(starter_db: Path, events_template: Path) -> None:
    """Made before any test, so every app new_app makes starts from copies of them."""


def seeded_copy(starter_db: Path, folder: Path, name: str = "cards.db") -> str:
    """A private copy of the starter database at `folder/name`: what a fresh app would
    seed there itself, made in a file copy. For tests that build their own app."""
    target = folder / name
    shutil.copyfile(starter_db, target)
    return str(target)


def migrated(folder: Path, starter_db: Path, events_database: str) -> None:
    """Run the events migrations on `events_database` as the service does (the
    documented `flask events migrate`)."""
    seeded_copy(starter_db, folder)
    app = new_app(folder, EVENTS_DATABASE=events_database)
    result = app.test_cli_runner().invoke(args=["events", "migrate"])
    assert result.exit_code == 0, result.output
    # Its connections closed now: the PostgreSQL template's are ended server-side next,
    # and a connection collected later, still open, warned in whatever test ran then.
    database = app.extensions.get(opened.KEY)
    if database is not None:
        database.close()


@pytest.fixture(scope="session")
def events_template(tmp_path_factory, starter_db) -> Path:
    """A SQLite events database at the newest schema, made once per run (per worker) by
    the migrations: the `events_database` fixture copies it (5 ms) where each test ran
    the ten migrations itself (0.1 s of CPU, in some 600 tests)."""
    folder = tmp_path_factory.mktemp("events-template")
    migrated(folder, starter_db, str(folder / "events.db"))
    template = folder / "template.db"
    # VACUUM INTO writes one self-contained file, whatever the app left in its WAL.
    with closing(sqlite3.connect(folder / "events.db")) as db:
        db.execute("VACUUM INTO ?", (str(template),))
    starter.EVENTS = template
    return template


# One PostgreSQL per worker (a fixture defined in each folder's conftest was one per folder).
TEMPLATE = "events_template"


@pytest.fixture(scope="session")
def postgres(tmp_path_factory, starter_db):
    """One PostgreSQL per worker; `fresh_database()` copies a database the migrations
    ran on once (an empty one: `postgres.database(name)`, `empty_events_database`)."""
    from events.pg import PostgresServer  # pg.py imports this module

    server = PostgresServer()
    try:
        url = server.database(TEMPLATE)
        migrated(tmp_path_factory.mktemp("pg-template"), starter_db, url)
        # A template is copied only while nobody is connected to it.
        server.sql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            f" WHERE datname = '{TEMPLATE}' AND pid <> pg_backend_pid()"
        )
        server.template = TEMPLATE
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def events_database(request, tmp_path) -> Iterator[str]:
    """A fresh events database setting (what DECKCHECK_EVENTS_DATABASE would hold), at
    the newest schema: a copy of one the migrations made (`events_template`)."""
    if request.param == "sqlite":
        path = tmp_path / "events.db"
        shutil.copyfile(request.getfixturevalue("events_template"), path)
        yield str(path)
        return
    postgres = request.getfixturevalue("postgres")
    url = postgres.fresh_database()
    yield url
    postgres.drop_later(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_events_database(request, tmp_path) -> Iterator[str]:
    """An empty events database, for the tests that run the migrations themselves."""
    if request.param == "sqlite":
        yield str(tmp_path / "events.db")
        return
    postgres = request.getfixturevalue("postgres")
    url = postgres.database(f"empty_{tmp_path.name}".lower().replace("-", "_")[:60])
    yield url
    postgres.drop_later(url)


@pytest.fixture
def cards_db(starter_db, tmp_path) -> str:
    """This test's own seeded card database (tmp_path/cards.db), copied from starter_db."""
    return seeded_copy(starter_db, tmp_path)


def new_app(folder: Path, **config) -> Flask:
    """An app keeping its files in `folder`: the card database folder/cards.db and the
    events database folder/events.db (each used as it is when there, else a copy of the
    starter one: what a new app would seed and migrate; starter.py), organizer formats;
    images off. `config` goes on top (another events database, limits...)."""
    (folder / "formats").mkdir(exist_ok=True)
    starter.copy_into(folder, config)
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(folder / "cards.db"),
            "FORMATS_DIR": str(folder / "formats"),
            "EVENTS_DATABASE": str(folder / "events.db"),
            "SECRET_KEY": "test",
            # No test may reach a card image host: image tests serve their own on 127.0.0.1.
            "CARD_IMAGES": "off",
            **config,
        }
    )
    app.jinja_env.bytecode_cache = starter.TEMPLATES
    return app


@pytest.fixture
def app(tmp_path, cards_db):
    """A fresh app: its own database (tmp_path/cards.db) seeded with the bundled starter pool."""
    return new_app(tmp_path)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture(scope="session")
def full_db(tmp_path_factory) -> str:
    """A database holding the four shared pools, imported once per test run."""
    need_shared()
    path = tmp_path_factory.mktemp("full") / "cards.db"
    db = connect(path)
    for game, source in POOLS.items():
        import_pool(db, game, str(source))
    db.close()
    return str(path)


@pytest.fixture
def full_app(full_db, tmp_path):
    (tmp_path / "formats").mkdir()
    return create_app(
        {
            "TESTING": True,
            "DATABASE": full_db,
            "FORMATS_DIR": str(tmp_path / "formats"),
            "EVENTS_DATABASE": str(tmp_path / "events.db"),
            "SEED_STARTER_POOL": False,
            "CARD_IMAGES": "off",
        }
    )


@pytest.fixture
def full_client(full_app):
    return full_app.test_client()


def in_ci() -> bool:
    return bool(os.environ.get("CI"))


@pytest.fixture
def costly_checks(monkeypatch):
    """Every deck the service judges costs 50 ms of CPU first (a test-only cost, as 20
    unknown names cost on the full pool), so a request's time budget can be spent."""
    from deckcheck import service

    real = service.check

    def costly(*args, **kwargs):
        until = time.thread_time() + 0.05
        while time.thread_time() < until:
            pass
        return real(*args, **kwargs)

    monkeypatch.setattr(service, "check", costly)


# Headless tests take Debian's headless build of the same Chromium when it is installed
# (package chromium-headless-shell, as Playwright's own headless default is): the page walk
# costs 39 s of CPU with it against 82 s with the full browser in headless mode.
CHROMIUM = (
    shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or shutil.which("chromium-browser")
)


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole run (each test opens its own context)."""
    if CHROMIUM is None:
        if in_ci():
            pytest.fail("CI must run the browser tests, but Chromium is not installed")
        pytest.skip("Chromium is not installed (apt-get install chromium): browser tests skipped")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield launched
        launched.close()


# A picture of every page open in the browser when a browser test fails, in
# test-artifacts/ (CI keeps it): what the page showed is most of the diagnosis. Pictures
# of passing tests were taken too, full-page at every width, and never looked at.
ARTIFACTS = ROOT / "test-artifacts"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call):
    report = yield
    browser = getattr(item, "funcargs", {}).get("browser")
    if report.failed and report.when == "call" and browser is not None:
        _pictures(browser, item.name)
    return report


def _pictures(browser, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    slug = "".join(c if c.isalnum() or c in "-_" else "-" for c in name)
    for c, context in enumerate(browser.contexts):
        for p, page in enumerate(context.pages):
            try:
                page.screenshot(path=str(ARTIFACTS / f"{slug}-{c}-{p}.png"), full_page=True)
            except Exception as err:  # a closed or crashed page: the failure is reported anyway
                print(f"no picture of {page.url}: {err}")


# ---------------------------------------------------------------- spreading over cores
# The README's `python -m pytest` runs on every core (pytest-xdist, pyproject.toml):
# `--dist loadfile` hands each test file whole to one worker, so a module-scoped fixture
# (a served app, a built wheel, a gunicorn) is built once, and each worker builds the
# session fixtures above once (the starter and full databases, Chromium, PostgreSQL).
# Workers take the next file as they free up, in the order below (the collection's, as
# `--no-loadscope-reorder` asks): the costliest files first, so the run does not end
# with one worker on a long file while the other waits.


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # the controller (or the one process of -n 0)
        bytecode.compile_once(config, ROOT)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto` (pyproject.toml): a worker per usable core, and one more. Some tests wait
    (a gunicorn's timeout, a killed worker's restart, a poll): with a worker per core that
    core sat idle, 55 s of a 2-core run's 231 s; a third worker fills those waits for the
    cost of one more session setup (bench/suite.py: 231 -> 208 s wall)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


# Rough seconds, by what a test uses (from the per-file figures in docs/development.md);
# they set only the order of files, never a result. GUNICORN: a module that starts real
# gunicorns (tests/production_server.py), a few seconds in all.
PLAIN, BROWSER, POSTGRES, GUNICORN = 0.05, 1.0, 0.4, 5.0


def cost(item: pytest.Item) -> float:
    """A guess at a test's seconds: a browser or a PostgreSQL database costs more than
    a test-client request."""
    # `_fixtureinfo` is pytest's record of the fixtures a test asked for (no public
    # accessor); a test that is not a function (a doctest) has none.
    info = getattr(item, "_fixtureinfo", None)
    seconds = PLAIN + (BROWSER if info is not None and "browser" in info.name2fixturedefs else 0)
    if "postgresql" in getattr(getattr(item, "callspec", None), "id", ""):
        seconds += POSTGRES
    return seconds


def starts_gunicorn(item: pytest.Item) -> bool:
    module = getattr(item, "module", None)
    helpers = vars(module).values() if module is not None else ()
    return any(getattr(value, "__module__", None) == "production_server" for value in helpers)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The costliest files first; each file's tests keep their order."""
    by_file: dict[str, float] = {}
    for item in items:
        name = item.nodeid.split("::", 1)[0]
        if name not in by_file:
            by_file[name] = GUNICORN if starts_gunicorn(item) else 0.0
        by_file[name] += cost(item)
    first = {name: place for place, name in enumerate(by_file)}
    items.sort(key=lambda item: _file_order(item, by_file, first))


def _file_order(item: pytest.Item, by_file: dict[str, float], first: dict[str, int]):
    name = item.nodeid.split("::", 1)[0]
    return (-by_file[name], first[name])


def pytest_collection_finish(session: pytest.Session) -> None:
    """Everything imported and collected stays for the run: the garbage collector stops
    scanning it. Its full passes (some 90 a worker) walked every module, function and
    test item each time: 1.2 of 4 s of collecting in a third of the suite."""
    gc.freeze()
