"""The saved-deck and collection tables, on the server's one metadata (migrations:
deckcheck/server/migrations, from revision 0004).

- `decks`: one row per deck: its owner's token hash, the verdict its latest version was
  saved with (`verdict`), and the verdict of today (`judged`, NULL when it is the same),
  stored with the world it was judged in (`judged_world`, deckcheck.server.verdicts.world).
- `deck_versions`: every version: what the player sent (`entry`) and the structured list
  it was read as (`structured`), which is what the deck is judged from ever after.
- `deck_cards`: the card numbers of each deck's latest version, so that a list change
  that names cards finds the decks holding them through an index.
- `deck_feed`: the entries of a deck's Atom feed; (deck, change) is its key, so two
  servers judging the same deck at once add one entry, not two.
- `deck_worlds`: what each world a verdict was judged in makes of every card (packed),
  so the background pass can name the cards that changed between two worlds.
- `collections`: a player's binder: its name, game, token hash and number of entries.
- `collection_cards`: its cards, one row per card number with its count, set and key
  (migration 0006): adding 10 cards to a 20,000-entry collection writes 10 rows, not
  20,000, and per-set completion is one grouped query.
- `collection_changes`: its last 20 changes, each with the counts it overwrote
  (`before`, packed) so that the last one can be undone.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
)

from deckcheck.server.tables.base import metadata

decks = Table(
    "decks",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("format", String(80), nullable=False),
    Column("notes", Text, nullable=False),
    Column("edit_hash", String(64), nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", String(40), nullable=False),
    Column("updated_at", String(40), nullable=False),
    Column("client", String(64), nullable=False),
    # The latest version holds lines that named no card: judged again when the pool grows.
    Column("has_unknown", Boolean, nullable=False),
    Column("fingerprint", String(80), nullable=False),
    # The verdict last shown to a reader of the deck (packed JSON: violations, warnings):
    # the one the latest version was saved with, until a read shows a changed one.
    # "changed" and "was" are measured against it (contract: "the one last shown").
    Column("legal", Boolean, nullable=False),
    Column("verdict", Text, nullable=False),
    # Today's verdict: judged in `judged_world`; `judged` NULL when equal to `verdict`.
    Column("judged_world", String(40), nullable=False),
    Column("judged", Text, nullable=True),
    Column("judged_legal", Boolean, nullable=False),
    Column("judged_changed", Boolean, nullable=False),
    # The account that owns the deck (deckcheck.server.owners); NULL: its token alone.
    Column("owner", String(32), nullable=True),
    Index("decks_by_world", "format", "judged_world"),
    Index("decks_by_owner", "owner"),
)

deck_versions = Table(
    "deck_versions",
    metadata,
    Column("deck_id", String(32), ForeignKey("decks.id"), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("entry", Text, nullable=False),
    Column("structured", Text, nullable=False),
    Column("fingerprint", String(80), nullable=False),
    Column("legal", Boolean, nullable=False),
    # legal / illegal / unconfirmed as saved (migration 0010_version_verdicts).
    Column("verdict", String(12), nullable=True),
    Column("saved_at", String(40), nullable=False),
)

deck_cards = Table(
    "deck_cards",
    metadata,
    Column("deck_id", String(32), ForeignKey("decks.id"), primary_key=True),
    Column("number", String(40), primary_key=True),
    Index("deck_cards_by_number", "number"),
)

deck_feed = Table(
    "deck_feed",
    metadata,
    Column("deck_id", String(32), ForeignKey("decks.id"), primary_key=True),
    Column("change", String(64), primary_key=True),
    Column("at", String(40), nullable=False),
    Column("title", Text, nullable=False),
    Column("body", Text, nullable=False),
    Index("deck_feed_by_deck", "deck_id", "at"),
)

deck_worlds = Table(
    "deck_worlds",
    metadata,
    Column("world", String(40), primary_key=True),
    Column("format", String(80), nullable=False),
    Column("facts", Text, nullable=False),
    Column("created_at", String(40), nullable=False),
)

collections = Table(
    "collections",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("game", String(40), nullable=False),
    Column("edit_hash", String(64), nullable=False),
    Column("entries", Integer, nullable=False),
    # Changes made so far: the next change's number in `collection_changes` (no max()).
    Column("changes", Integer, nullable=False, server_default="0"),
    Column("created_at", String(40), nullable=False),
    Column("updated_at", String(40), nullable=False),
    Column("owner", String(32), nullable=True),
    Index("collections_by_owner", "owner"),
)

# No foreign keys on the two below: SQLite's batch migration copies `collections` (0006
# drops its packed column), which a key pointing at it would forbid.
collection_cards = Table(
    "collection_cards",
    metadata,
    Column("collection_id", String(32), primary_key=True),
    Column("number", String(40), primary_key=True),
    Column("count", Integer, nullable=False),
    # The number's set and key (deckcheck.decks.collection_views), so that per-set
    # completion is one grouped query, not a pass over 20,000 rows in Python.
    Column("set_code", String(40), nullable=False),
    Column("card_key", String(40), nullable=False),
    # What some decks need, found without reading the collection's other rows.
    Index("collection_cards_by_key", "collection_id", "card_key"),
)

collection_changes = Table(
    "collection_changes",
    metadata,
    Column("collection_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("change", String(20), nullable=False),
    Column("at", String(40), nullable=False),
    Column("added", Integer, nullable=False),
    Column("removed", Integer, nullable=False),
    Column("before", Text, nullable=False),
)
