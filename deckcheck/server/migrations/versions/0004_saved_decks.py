"""Saved decks (every version kept), their cards, feeds and judged worlds; collections.

Revision ID: 0004
Revises: 0002 (rewired to follow 0003 when the branches are merged)
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    _decks()
    _versions_and_cards()
    _feeds_worlds_collections()


def _decks() -> None:
    """The decks, one row each."""
    op.create_table(
        "decks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("format", sa.String(80), nullable=False),
        sa.Column("notes", sa.Text, nullable=False),
        sa.Column("edit_hash", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("has_unknown", sa.Boolean, nullable=False),
        sa.Column("fingerprint", sa.String(80), nullable=False),
        sa.Column("legal", sa.Boolean, nullable=False),
        sa.Column("verdict", sa.Text, nullable=False),
        sa.Column("judged_world", sa.String(40), nullable=False),
        sa.Column("judged", sa.Text, nullable=True),
        sa.Column("judged_legal", sa.Boolean, nullable=False),
        sa.Column("judged_changed", sa.Boolean, nullable=False),
    )
    op.create_index("decks_by_world", "decks", ["format", "judged_world"])


def _versions_and_cards() -> None:
    """Every version of a deck, and the card numbers of its latest."""
    op.create_table(
        "deck_versions",
        sa.Column("deck_id", sa.String(32), sa.ForeignKey("decks.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("entry", sa.Text, nullable=False),
        sa.Column("structured", sa.Text, nullable=False),
        sa.Column("fingerprint", sa.String(80), nullable=False),
        sa.Column("legal", sa.Boolean, nullable=False),
        sa.Column("saved_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "deck_cards",
        sa.Column("deck_id", sa.String(32), sa.ForeignKey("decks.id"), primary_key=True),
        sa.Column("number", sa.String(40), primary_key=True),
    )
    op.create_index("deck_cards_by_number", "deck_cards", ["number"])


def _feeds_worlds_collections() -> None:
    """The decks' feeds and judged worlds; collections."""
    op.create_table(
        "deck_feed",
        sa.Column("deck_id", sa.String(32), sa.ForeignKey("decks.id"), primary_key=True),
        sa.Column("change", sa.String(64), primary_key=True),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("body", sa.Text, nullable=False),
    )
    op.create_index("deck_feed_by_deck", "deck_feed", ["deck_id", "at"])
    op.create_table(
        "deck_worlds",
        sa.Column("world", sa.String(40), primary_key=True),
        sa.Column("format", sa.String(80), nullable=False),
        sa.Column("facts", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "collections",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("edit_hash", sa.String(64), nullable=False),
        sa.Column("cards", sa.Text, nullable=False),
        sa.Column("entries", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("updated_at", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("collections")
    op.drop_table("deck_worlds")
    op.drop_table("deck_feed")
    op.drop_table("deck_cards")
    op.drop_table("deck_versions")
    op.drop_table("decks")
