"""Collections as one row per card number, and their last changes (for history and undo).

A collection was one packed column of number -> count: adding 10 cards to a 20,000-entry
collection rewrote all of it. Now each card number is a row of `collection_cards`, and
`collection_changes` keeps what each change overwrote.

Revision ID: 0009_collection_cards
Revises: 0008_venue
"""

import sqlalchemy as sa
from alembic import op

from deckcheck.server.packing import pack, unpack
from rules.numbers import number_key
from rules.sets import set_of

revision = "0009_collection_cards"
down_revision = "0008_venue"
branch_labels = None
depends_on = None

BATCH = 200


def set_code(number: str) -> str:
    """A number's set, as deckcheck.decks.collection_views.set_code says it (a migration
    is history: it imports no product)."""
    found = set_of(number)
    return found.code if found is not None else number.partition("-")[0].upper()


def upgrade() -> None:
    op.create_table(
        "collection_cards",
        sa.Column("collection_id", sa.String(32), primary_key=True),
        sa.Column("number", sa.String(40), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("set_code", sa.String(40), nullable=False),
        sa.Column("card_key", sa.String(40), nullable=False),
    )
    op.create_table(
        "collection_changes",
        sa.Column("collection_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("change", sa.String(20), nullable=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("added", sa.Integer, nullable=False),
        sa.Column("removed", sa.Integer, nullable=False),
        sa.Column("before", sa.Text, nullable=False),
    )
    _copy_cards()
    op.create_index("collection_cards_by_key", "collection_cards", ["collection_id", "card_key"])
    with op.batch_alter_table("collections") as batch:
        batch.drop_column("cards")
        batch.add_column(sa.Column("changes", sa.Integer, nullable=False, server_default="0"))


def _old_collections() -> sa.TableClause:
    return sa.table("collections", sa.column("id", sa.String), sa.column("cards", sa.Text))


def _copy_cards() -> None:
    """Each stored collection's packed cards as rows, a batch of collections at a time."""
    conn = op.get_bind()
    old = _old_collections()
    rows = sa.table(
        "collection_cards", sa.column("collection_id", sa.String),
        sa.column("number", sa.String), sa.column("count", sa.Integer),
        sa.column("set_code", sa.String), sa.column("card_key", sa.String),
    )  # fmt: skip
    after = ""
    while True:
        page = conn.execute(
            sa.select(old.c.id, old.c.cards).where(old.c.id > after).order_by(old.c.id).limit(BATCH)
        ).all()
        if not page:
            return
        for collection_id, packed in page:
            cards = [
                {"collection_id": collection_id, "number": number, "count": count,
                 "set_code": set_code(number), "card_key": number_key(number)}
                for number, count in unpack(packed).items()
            ]  # fmt: skip
            if cards:
                conn.execute(rows.insert(), cards)
        after = page[-1].id


def downgrade() -> None:
    with op.batch_alter_table("collections") as batch:
        batch.add_column(sa.Column("cards", sa.Text, nullable=False, server_default="{}"))
        batch.drop_column("changes")
    conn = op.get_bind()
    old = _old_collections()
    rows = sa.table(
        "collection_cards", sa.column("collection_id", sa.String),
        sa.column("number", sa.String), sa.column("count", sa.Integer),
    )  # fmt: skip
    for (collection_id,) in conn.execute(sa.select(old.c.id)).all():
        cards = conn.execute(
            sa.select(rows.c.number, rows.c.count).where(rows.c.collection_id == collection_id)
        ).all()
        conn.execute(old.update().where(old.c.id == collection_id).values(cards=pack(dict(cards))))
    op.drop_table("collection_changes")
    op.drop_index("collection_cards_by_key", "collection_cards")
    op.drop_table("collection_cards")
