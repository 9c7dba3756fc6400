"""`flask --app deckcheck events ...`: a thin layer over the events store."""

from __future__ import annotations

import click
from flask.cli import AppGroup

from deckcheck.events.core import store
from deckcheck.server.opened import database

events_cli = AppGroup("events", help="The events database (submissions, drops).")


@events_cli.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, writable=True))
def backup_command(path: str) -> None:
    """Copy the SQLite events database to PATH while the service runs.

    Uses SQLite's online backup API, so the copy is consistent even mid-event.
    A PostgreSQL events database is backed up with pg_dump instead (README).
    """
    try:
        database().backup(path)
    except ValueError as err:
        raise click.ClickException(str(err)) from err
    click.echo(f"events database copied to {path}")


@events_cli.command("migrate")
def migrate_command() -> None:
    """Bring the events database to the newest schema (also done on first use)."""
    store()
    click.echo("events database is up to date")
