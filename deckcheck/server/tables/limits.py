"""The server's own table: the rate limits' token buckets, for every product."""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, String, Table

from deckcheck.server.tables.base import metadata

# Rate limits as token buckets, one row per (what, address): checked and counted by one
# UPSERT statement, so simultaneous requests cannot all pass (deckcheck.server.limits).
rate_buckets = Table(
    "rate_buckets",
    metadata,
    Column("key", String(120), primary_key=True),
    Column("tokens", Float, nullable=False),
    Column("at", Float, nullable=False),
    Column("allowed", Boolean, nullable=False),
)
