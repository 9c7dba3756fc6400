"""Card search: FTS5 over names, numbers and types, with filters and pages."""

from __future__ import annotations

import re
from dataclasses import dataclass

import sqlite_utils

from rules.numbers import looks_like_number, number_key

_WORD = re.compile(r"[\w']+", re.UNICODE)


@dataclass(frozen=True)
class Query:
    game: str | None = None
    q: str | None = None
    kind: str | None = None
    level: str | None = None
    color: str | None = None
    page: int = 1
    per_page: int = 50


def fts_expression(text: str) -> str | None:
    """Every word must match as a prefix; quoting keeps FTS syntax out of user text."""
    words = _WORD.findall(text)
    if not words:
        return None
    return " ".join(f'"{w}"*' for w in words[:12])


def find_card(db: sqlite_utils.Database, game: str, number: str) -> dict | None:
    """One card by its number, however it is typed (`bt1-10`, `BT1-010_P1`)."""
    rows = db.query("SELECT * FROM cards WHERE game = ? AND key = ?", [game, number_key(number)])
    return next(rows, None)


def search(db: sqlite_utils.Database, query: Query) -> tuple[list[dict], int]:
    """(rows of this page, total matches), ordered by game then number."""
    where, params = [], []
    if query.game:
        where.append("c.game = ?")
        params.append(query.game)
    if query.kind:
        where.append("c.kind = ?")
        params.append(query.kind)
    if query.level:
        where.append("c.level = ? COLLATE NOCASE")
        params.append(query.level)
    if query.color:
        where.append("(c.types LIKE ? OR c.colors LIKE ?)")
        params += [f"%;{query.color};%"] * 2
    if query.q and query.q.strip():
        text_match = _text_condition(query.q)
        if text_match is None:
            return [], 0
        where.append(text_match[0])
        params += text_match[1]
    clause = " AND ".join(where) or "1"
    total = db.execute(f"SELECT count(*) FROM cards c WHERE {clause}", params).fetchone()[0]
    offset = (query.page - 1) * query.per_page
    rows = list(
        db.query(
            f"SELECT c.* FROM cards c WHERE {clause} ORDER BY c.game, c.key LIMIT ? OFFSET ?",
            [*params, query.per_page, offset],
        )
    )
    return rows, total


def _text_condition(text: str) -> tuple[str, list] | None:
    expression = fts_expression(text)
    conditions, params = [], []
    if looks_like_number(text):
        key = number_key(text)
        conditions.append("c.key = ? OR c.key LIKE ?")
        params += [key, key + "%"]
    if expression:
        conditions.append("c.rowid IN (SELECT rowid FROM cards_fts WHERE cards_fts MATCH ?)")
        params.append(expression)
    if not conditions:
        return None
    return "(" + " OR ".join(conditions) + ")", params
