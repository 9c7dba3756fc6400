"""Each saved deck version keeps its three-way verdict (legal / illegal / unconfirmed) as it
was saved with: `legal` alone cannot tell an unconfirmed list from an illegal one, and an
old version is never judged again.

The versions stored before were saved before unconfirmed verdicts existed (they ship
together): a list that was not legal then was told `illegal`, which is what they get.

Revision ID: 0010_version_verdicts
Revises: 0009_collection_cards
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_version_verdicts"
down_revision = "0009_collection_cards"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("deck_versions") as batch:
        batch.add_column(sa.Column("verdict", sa.String(12), nullable=True))
    versions = sa.table("deck_versions", sa.column("legal", sa.Boolean), sa.column("verdict"))
    op.get_bind().execute(
        versions.update().values(verdict=sa.case((versions.c.legal, "legal"), else_="illegal"))
    )


def downgrade() -> None:
    with op.batch_alter_table("deck_versions") as batch:
        batch.drop_column("verdict")
