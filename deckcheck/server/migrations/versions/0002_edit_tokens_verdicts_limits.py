"""Edit tokens, stored verdicts of today and sheets, rate-limit buckets; player keys sized for
case-folding.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.alter_column(
            "player_key",
            existing_type=sa.String(300),
            type_=sa.String(400),
            existing_nullable=False,
        )
        batch.add_column(sa.Column("edit_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("judged_key", sa.String(200), nullable=True))
        batch.add_column(sa.Column("judged", sa.Text, nullable=True))
        batch.add_column(sa.Column("judged_legal", sa.Boolean, nullable=True))
        batch.add_column(sa.Column("judged_changed", sa.Boolean, nullable=True))
        batch.add_column(sa.Column("sheet", sa.Text, nullable=True))
    # The rate limit no longer counts stored submissions (rate_buckets does).
    op.drop_index("submissions_by_client", table_name="submissions")
    op.create_table(
        "rate_buckets",
        sa.Column("key", sa.String(120), primary_key=True),
        sa.Column("tokens", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("allowed", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rate_buckets")
    op.create_index("submissions_by_client", "submissions", ["event_id", "client", "submitted_at"])
    with op.batch_alter_table("submissions") as batch:
        for name in (
            "sheet",
            "judged_changed",
            "judged_legal",
            "judged",
            "judged_key",
            "edit_hash",
        ):
            batch.drop_column(name)
        batch.alter_column(
            "player_key",
            existing_type=sa.String(400),
            type_=sa.String(300),
            existing_nullable=False,
        )
