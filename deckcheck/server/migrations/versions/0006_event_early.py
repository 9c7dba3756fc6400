"""Products an event makes legal early (a pre-release event, issue 43): their codes,
comma-separated; their cards count as released from the event's date.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # NULL on events stored before: no product is legal early.
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("early", sa.String(200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("early")
