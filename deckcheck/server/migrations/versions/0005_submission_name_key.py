"""Each list's player name as it is compared (folded), indexed: finding "the player of
this name" in an event reads the rows of that name, not every player's.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

from deckcheck.server.names import fold

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

BATCH = 1000


def upgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.add_column(sa.Column("name_key", sa.String(400), nullable=True))
    _fill_name_keys()
    op.create_index("submissions_by_name", "submissions", ["event_id", "name_key"])


def _fill_name_keys() -> None:
    """The lists stored before: their folded names, a batch at a time (fold is Python's
    casefold + NFKC, which SQL has no equal of)."""
    conn = op.get_bind()
    table = sa.table(
        "submissions", sa.column("id", sa.String), sa.column("player", sa.String),
        sa.column("name_key", sa.String),
    )  # fmt: skip
    pending = sa.select(table.c.id, table.c.player).where(table.c.name_key.is_(None))
    while True:
        rows = conn.execute(pending.limit(BATCH)).all()
        if not rows:
            return
        conn.execute(
            table.update().where(table.c.id == sa.bindparam("row_id")),
            [{"row_id": row.id, "name_key": fold(row.player)} for row in rows],
        )


def downgrade() -> None:
    op.drop_index("submissions_by_name", "submissions")
    with op.batch_alter_table("submissions") as batch:
        batch.drop_column("name_key")
