"""Events, submissions (every version kept) and drops.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    _events()
    _submissions()
    _drops()


def _events() -> None:
    """The events."""
    op.create_table(
        "events",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("format", sa.String(80), nullable=False),
        sa.Column("date", sa.String(10), nullable=False),
        sa.Column("deadline", sa.String(40), nullable=False),
        sa.Column("deadline_utc", sa.String(40), nullable=False),
        sa.Column("description", sa.Text, nullable=False),
        sa.Column("locked", sa.Boolean, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
    )


def _submissions() -> None:
    """Every list sent, with its indexes."""
    op.create_table(
        "submissions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("player_key", sa.String(300), nullable=False),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("player_id", sa.String(100), nullable=False),
        sa.Column("entry", sa.Text, nullable=False),
        sa.Column("fingerprint", sa.String(80), nullable=False),
        sa.Column("legal", sa.Boolean, nullable=False),
        sa.Column("verdict", sa.Text, nullable=False),
        sa.Column("submitted_at", sa.String(40), nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
    )
    # One current list per player: the database holds the rule, not only the code.
    op.create_index(
        "submissions_one_current",
        "submissions",
        ["event_id", "player_key"],
        unique=True,
        sqlite_where=sa.text("status = 'current'"),
        postgresql_where=sa.text("status = 'current'"),
    )
    op.create_index("submissions_by_event", "submissions", ["event_id", "status"])
    op.create_index("submissions_by_player", "submissions", ["event_id", "player_key", "seq"])
    op.create_index("submissions_by_client", "submissions", ["event_id", "client", "submitted_at"])


def _drops() -> None:
    """The players dropped."""
    op.create_table(
        "drops",
        sa.Column("submission_id", sa.String(32), primary_key=True),
        sa.Column("event_id", sa.String(32), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("player", sa.String(200), nullable=False),
        sa.Column("dropped_at", sa.String(40), nullable=False),
    )
    op.create_index("drops_by_event", "drops", ["event_id"])


def downgrade() -> None:
    op.drop_table("drops")
    op.drop_table("submissions")
    op.drop_table("events")
