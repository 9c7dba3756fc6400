"""The events' tables, on the server's one metadata (deckcheck.server.tables says how
they are held equal to the migrations).

Widths: a player name is at most 100 characters and an id 100 after normalising
(deckcheck.server.names), but older rows may hold up to 200; `player_key` holds a
case-folded name or id, which can grow to 3 times its length ("ß" -> "ss").
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
    false,
    text,
)

from deckcheck.server.tables.base import metadata

events = Table(
    "events",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("format", String(80), nullable=False),
    Column("date", String(10), nullable=False),
    Column("deadline", String(40), nullable=False),
    Column("deadline_utc", String(40), nullable=False),
    Column("description", Text, nullable=False),
    Column("locked", Boolean, nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("created_at", String(40), nullable=False),
    # An IANA name or an offset (deckcheck.events.zones); NULL: the deadline's offset.
    Column("time_zone", String(64), nullable=True),
    # Products legal early (a pre-release event), comma-separated codes; NULL: none.
    Column("early", String(200), nullable=True),
    # At a venue (issue 44): which lists are published once lists close, what the lock
    # does to illegal lists, and the per-address limits as the organizer raised them
    # ("count/seconds"; NULL: the server's, deckcheck.events.limits).
    Column("publish", String(10), nullable=False, server_default="none"),
    Column("cutoff", String(10), nullable=False, server_default="none"),
    Column("address_limit", String(40), nullable=True),
    Column("new_players_limit", String(40), nullable=True),
)

submissions = Table(
    "submissions",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("event_id", String(32), ForeignKey("events.id"), nullable=False),
    Column("player_key", String(400), nullable=False),
    Column("player", String(200), nullable=False),
    Column("player_id", String(100), nullable=False),
    Column("entry", Text, nullable=False),
    Column("fingerprint", String(80), nullable=False),
    Column("legal", Boolean, nullable=False),
    Column("verdict", Text, nullable=False),
    Column("submitted_at", String(40), nullable=False),
    Column("client", String(64), nullable=False),
    Column("status", String(10), nullable=False),
    Column("seq", Integer, nullable=False),
    # SHA-256 of the player's edit token (NULL on lists stored before edit tokens:
    # only the organizer can replace those).
    Column("edit_hash", String(64), nullable=True),
    # The verdict of today, stored: judged again only when `judged_key` (judge version,
    # format and list history, card pool generation) differs from the current one.
    # `verdict`, `judged` and `sheet` are JSON, compressed when long (packing.py).
    # `judged` is NULL when that verdict is the one the player was given; `judged_key`
    # is NULL on lists stored before verdicts were (judged again at the next view).
    Column("judged_key", String(200), nullable=True),
    Column("judged", Text, nullable=True),
    Column("judged_legal", Boolean, nullable=True),
    Column("judged_changed", Boolean, nullable=True),
    # What the registration sheet prints of the list as judged with `judged_key`
    # (deckcheck.events.verdicts.sheet_json), so printing 1,000 sheets judges nothing.
    Column("sheet", Text, nullable=True),
    # The player name as names are compared (deckcheck.server.names.fold), so "the player
    # of this name" is an index lookup (NULL only on a row an older server wrote).
    Column("name_key", String(400), nullable=True),
    # The organizer's marks: published (for "marked" publishing), accepted (a "needs a
    # look" list counts as legal for the cut-off), checked in at the venue.
    Column("published", Boolean, nullable=False, server_default=false()),
    Column("accepted", Boolean, nullable=False, server_default=false()),
    Column("checked_in", Boolean, nullable=False, server_default=false()),
    # legal / illegal / unconfirmed of the verdict of today (rules.verdict.verdict_of of
    # every violation, not only the SHOWN ones); NULL on rows stored before it was.
    Column("judged_verdict", String(12), nullable=True),
    # The structured list the player's list was read as, with its reading (packed JSON,
    # deckcheck.server.verdicts.lists): what every later verdict is judged from. NULL on
    # a row stored before it was: filled by the first judging (migration 0011).
    Column("structured", Text, nullable=True),
    Index(
        "submissions_one_current",
        "event_id",
        "player_key",
        unique=True,
        sqlite_where=text("status = 'current'"),
        postgresql_where=text("status = 'current'"),
    ),
    Index("submissions_by_event", "event_id", "status"),
    Index("submissions_by_player", "event_id", "player_key", "seq"),
    Index("submissions_by_name", "event_id", "name_key"),
)

drops = Table(
    "drops",
    metadata,
    Column("submission_id", String(32), primary_key=True),
    Column("event_id", String(32), ForeignKey("events.id"), nullable=False),
    Column("player", String(200), nullable=False),
    Column("dropped_at", String(40), nullable=False),
    # Dropped by the cut-off at lock (unlock restores these), not by the organizer's hand.
    Column("cutoff", Boolean, nullable=False, server_default=false()),
    Index("drops_by_event", "event_id"),
)

# What changed in an event, in order: the organizer's page asks for the changes after
# the last id it saw. Every writer of an event holds the event's row lock (FOR UPDATE /
# BEGIN IMMEDIATE) while it adds its change, so one event's ids are committed in
# increasing order and a reader that saw id n never later finds a smaller one appear:
# the cursor works across servers sharing one PostgreSQL.
changes = Table(
    "event_changes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("event_id", String(32), nullable=False),
    Column("submission_id", String(32), nullable=False),
    Column("kind", String(12), nullable=False),
    Column("at", String(40), nullable=False),
    Index("event_changes_by_event", "event_id", "id"),
)
