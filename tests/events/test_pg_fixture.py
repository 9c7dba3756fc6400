"""The test PostgreSQL server's own bookkeeping: a test's database is dropped once the
test is done (each holds 8 MB in some 300 files; left to the end of the run they were
all deleted at once, while the other worker had finished)."""

from __future__ import annotations

from sqlalchemy import create_engine, text


def _databases(postgres) -> set[str]:
    engine = create_engine(postgres.url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT datname FROM pg_database"))
            return {name for (name,) in rows}
    finally:
        engine.dispose()


def test_a_tests_database_is_dropped_after_it(postgres):
    url = postgres.fresh_database()
    name = url.split("?")[0].rsplit("/", 1)[1]
    assert name in _databases(postgres)
    postgres.drop_later(url)
    postgres.settled()  # the drop runs on the fixture's own thread
    assert name not in _databases(postgres)
