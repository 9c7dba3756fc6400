"""The starter databases every test app begins from, and what is built from them once.

conftest.py is imported twice under importlib mode (by pytest, and by the tests'
`from conftest import ...`), each copy with its own globals; this module is imported
once, so the templates made by conftest's session fixtures and the pools read from them
are seen by every app a test makes.

Some 860 apps are made in a run, nearly all on a copy of the starter card database,
and each built the DCG card index (4,391 cards read and indexed: about 0.1 s) and the
card search table (0.07 s) from its copy: 90 s of CPU in all (py-spy, whole run). A copy
whose pools row is still the starter's holds the starter's cards, because every write to
a game's cards (an import's swap, `cardpool add`) moves its generation on: its cards,
index and search table are built once per process. Any other database (an import, an
added product, another list) is read and built for real.
"""

from __future__ import annotations

import dataclasses
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

from jinja2.bccache import Bucket, BytecodeCache

from cardpool.search import table as search_table
from deckcheck import db as pool_cache
from rules.cache import Bounded

# The settings every gunicorn a test starts adds to its own: no background pass over the
# saved decks. A pass is a `flask decks rejudge` process of its own, started by a
# server's first request: 16 s of CPU over a run (/proc sampled), for nothing any of
# those tests looks at; tests/decks/test_rejudge.py starts its passes itself.
SERVER_ENV = {"DECKCHECK_DECKS_REJUDGE_EVERY": "off"}

# Set by conftest's session fixtures (starter_db, events_template).
CARDS: Path | None = None
EVENTS: Path | None = None
POOLS: dict[str, tuple] = {}  # game -> the starter database's pools row

_read_cards = pool_cache.load_cards
_make_index = pool_cache.CardIndex
_load_table = search_table._load
_cards: dict[str, tuple[int, list]] = {}
_indexes: dict[tuple[str, str | None], object] = {}
_tables: dict[str, object] = {}


def made(cards: Path) -> None:
    """The starter card database is `cards`: its pools rows are the ones shared."""
    global CARDS
    CARDS = cards
    with closing(sqlite3.connect(cards)) as db:
        POOLS.update({row[0]: row for row in db.execute("SELECT * FROM pools")})


def copy_into(folder: Path, config: dict) -> None:
    """Give a new app in `folder` copies of the starter databases it would otherwise
    seed and migrate itself (same contents; a copy takes 5 ms), unless the test chose
    its own database or asked for no seeding."""
    seeded = "SEED_STARTER_POOL" not in config and "DATABASE" not in config
    if seeded and CARDS is not None and not (folder / "cards.db").exists():
        shutil.copyfile(CARDS, folder / "cards.db")
    chosen = "EVENTS_DATABASE" in config
    if not chosen and EVENTS is not None and not (folder / "events.db").exists():
        shutil.copyfile(EVENTS, folder / "events.db")


class Templates(BytecodeCache):
    """Compiled templates kept for every app of the process. Each app has its own Jinja
    environment, which compiled every template it rendered again (Jinja keys a kept
    compilation by the template's name and a checksum of its source)."""

    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.kept:
            bucket.bytecode_from_string(self.kept[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()


TEMPLATES = Templates()


def _is_starter(db, game: str) -> bool:
    starter = POOLS.get(game)
    row = db.execute("SELECT * FROM pools WHERE game = ?", [game]).fetchone()
    return starter is not None and tuple(row or ()) == starter


def _load_cards(db, game: str):
    if not _is_starter(db, game):
        return _read_cards(db, game)
    if game not in _cards:
        loaded = _read_cards(db, game)
        if not _is_starter(db, game):  # an import landed while it was read
            return loaded
        _cards[game] = loaded
    return _cards[game]


def _card_index(game: str, cards, updated: str | None = None):
    shared = _cards.get(game)
    if shared is None or cards is not shared[1]:
        return _make_index(game, cards, updated=updated)
    if (game, updated) not in _indexes:
        _indexes[game, updated] = _make_index(game, cards, updated=updated)
    return _indexes[game, updated]


def _search_table(db, game: str):
    if not _is_starter(db, game):
        return _load_table(db, game)
    if game not in _tables:
        _tables[game] = _load_table(db, game)
    # Its columns are shared; the relevance places it keeps as it answers are its own.
    return dataclasses.replace(_tables[game], ranks=Bounded(search_table.MAX_RANKED))


pool_cache.load_cards = _load_cards
pool_cache.CardIndex = _card_index
search_table._load = _search_table
