"""The test PostgreSQL hands out databases made ahead: each new, empty and its own, and
drops each once its test is over."""

from __future__ import annotations

import psycopg
from production_server import until


def _names(postgres) -> set[str]:
    with psycopg.connect(postgres.url) as conn:
        return {row[0] for row in conn.execute("SELECT datname FROM pg_database")}


def _tables(url: str) -> list[str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        return [row[0] for row in rows]


def test_each_database_is_new_empty_and_dropped_after(postgres):
    first, second = postgres.fresh_database(), postgres.fresh_database()
    assert first != second
    with psycopg.connect(first, autocommit=True) as conn:
        conn.execute("CREATE TABLE left_behind (x int)")
    assert _tables(first) == ["left_behind"] and _tables(second) == []
    with psycopg.connect(first) as conn:
        name = conn.execute("SELECT current_database()").fetchone()[0]
    assert name in _names(postgres)
    postgres.drop_later(first)
    postgres.drop_later(second)
    until(lambda: name not in _names(postgres), 30, f"{name} dropped")
