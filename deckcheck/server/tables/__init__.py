"""The server's database: every table of every product, on one metadata (`base`), one
file per product (`events`, `decks`, `accounts`) and the rate limits' buckets
(`limits`, the server's own). The code queries through these descriptions; the Alembic
migrations in deckcheck/server/migrations build the same schema step by step (a
migration is history and never imports this package), and tests/events/test_schema.py
holds the two equal on SQLite and PostgreSQL.

Importing this package describes the whole schema: `metadata` then holds every table.
"""

from __future__ import annotations

from deckcheck.server.tables import accounts, decks, events, limits
from deckcheck.server.tables.base import metadata

__all__ = ["accounts", "decks", "events", "limits", "metadata"]
