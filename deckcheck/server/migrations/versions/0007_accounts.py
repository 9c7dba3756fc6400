"""Accounts with passkeys: accounts, passkeys, recovery codes, sessions, challenges,
one-time sign-in links, and the owning account of a deck or collection.

Revision ID: 0007_accounts
Revises: 0006 (the events early column)
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_accounts"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    _accounts()
    _sessions_and_secrets()
    _owners()


def _accounts() -> None:
    """Accounts, their passkeys and recovery codes."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("credential_id", sa.String(1400), nullable=False, unique=True),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.Integer, nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("last_used_at", sa.String(40), nullable=True),
    )
    op.create_index("passkeys_by_account", "passkeys", ["account_id"])
    op.create_table(
        "recovery_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
    )
    op.create_index("recovery_codes_by_account", "recovery_codes", ["account_id"])


def _sessions_and_secrets() -> None:
    """Sessions, challenges handed out and one-time sign-in links."""
    op.create_table(
        "account_sessions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("secret_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.String(40), nullable=False),
        sa.Column("last_seen_at", sa.String(40), nullable=False),
    )
    op.create_index("account_sessions_by_account", "account_sessions", ["account_id"])
    op.create_table(
        "account_challenges",
        sa.Column("challenge_hash", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(20), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(200), nullable=True),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("account_challenges_by_expiry", "account_challenges", ["expires_at"])
    op.create_table(
        "sign_in_links",
        sa.Column("secret_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("sign_in_links_by_account", "sign_in_links", ["account_id"])


def _owners() -> None:
    """Decks and collections an account owns."""
    for table in ("decks", "collections"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("owner", sa.String(32), nullable=True))
        op.create_index(f"{table}_by_owner", table, ["owner"])


def downgrade() -> None:
    for table in ("collections", "decks"):
        op.drop_index(f"{table}_by_owner", table)
        with op.batch_alter_table(table) as batch:
            batch.drop_column("owner")
    for table in ("sign_in_links", "account_challenges", "account_sessions", "recovery_codes",
                  "passkeys", "accounts"):  # fmt: skip
        op.drop_table(table)
