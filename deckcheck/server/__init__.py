"""The server's own layer beneath its products (events, decks, accounts): its storage and
what every product asks of a request.

- `database`: the SQLite or PostgreSQL engine, its writer and write health (`Database`);
  `opened`: the app's Database, opened and migrated on first use, and each product's
  store on it; `migrate` and `migrations/` (Alembic); `tables/`: every table on one
  metadata, a file per product.
- `limits` and `buckets`: rate limits that hold (one UPSERT per bucket); `names`: field
  cleaning (names, ids, a stored list's size); `http`: the bearer token, the public
  address, the busy 503; `tokens`, `kept_tokens`, `packing`, `writable`.
- `sessions` (who is signed in) and `owners` (who may change a stored thing).

Products ask it; it imports no product (tests/test_layers.py).
"""
