"""An event at a venue (issue 44): per-event limits, publishing and a cut-off, the
organizer's marks on each list, the cut-off's drops, and a table of changes that
the organizer's page polls.

Revision ID: 0008_venue
Revises: 0007_accounts
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_venue"
down_revision = "0007_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Events stored before publish nothing and cut nothing off (the defaults).
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("publish", sa.String(10), nullable=False, server_default="none"))
        batch.add_column(sa.Column("cutoff", sa.String(10), nullable=False, server_default="none"))
        batch.add_column(sa.Column("address_limit", sa.String(40), nullable=True))
        batch.add_column(sa.Column("new_players_limit", sa.String(40), nullable=True))
    false = sa.false()
    with op.batch_alter_table("submissions") as batch:
        for name in ("published", "accepted", "checked_in"):
            batch.add_column(sa.Column(name, sa.Boolean, nullable=False, server_default=false))
        batch.add_column(sa.Column("judged_verdict", sa.String(12), nullable=True))
    with op.batch_alter_table("drops") as batch:
        batch.add_column(sa.Column("cutoff", sa.Boolean, nullable=False, server_default=false))
    op.create_table(
        "event_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("event_id", sa.String(32), nullable=False),
        sa.Column("submission_id", sa.String(32), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
    )
    op.create_index("event_changes_by_event", "event_changes", ["event_id", "id"])


def downgrade() -> None:
    op.drop_index("event_changes_by_event", "event_changes")
    op.drop_table("event_changes")
    with op.batch_alter_table("drops") as batch:
        batch.drop_column("cutoff")
    with op.batch_alter_table("submissions") as batch:
        for name in ("published", "accepted", "checked_in", "judged_verdict"):
            batch.drop_column(name)
    with op.batch_alter_table("events") as batch:
        for name in ("publish", "cutoff", "address_limit", "new_players_limit"):
            batch.drop_column(name)
