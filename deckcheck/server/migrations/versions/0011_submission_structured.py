"""Each submission keeps its structured list: the cards it was read as and the reading
itself (deckcheck.server.verdicts.lists), so the organizer's table, sheets and exports
judge it again without reading the text again.

The rows stored before are filled once, by the first judging that meets a NULL (it reads
the list as the player sent it, judges it, and stores the structured list with the
verdict), not here: the structured list's cards are numbers the card pool resolved the
lines to, and a migration runs on the events database alone, with no card pool (nor a
reader pinned to this revision: a migration that read lists would judge them with
whatever reader is installed when it runs).

Revision ID: 0011_submission_structured
Revises: 0010_version_verdicts
"""

import sqlalchemy as sa
from alembic import op

revision = "0011_submission_structured"
down_revision = "0010_version_verdicts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.add_column(sa.Column("structured", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.drop_column("structured")
