"""The event's time zone, which the organizer's sheets and table write times in.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # NULL on events stored before: they are read in their deadline's offset (zones.py).
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("time_zone", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("time_zone")
