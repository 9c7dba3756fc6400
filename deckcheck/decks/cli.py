"""`flask --app deckcheck decks ...`: a thin layer over the saved decks."""

from __future__ import annotations

import os

import click
from flask.cli import AppGroup

from deckcheck.decks.rejudge import PASS_SECONDS, run_pass

decks_cli = AppGroup("decks", help="Saved decks (judged again when the lists change).")


@decks_cli.command("rejudge")
@click.option(
    "--seconds",
    type=click.FloatRange(1, 86400),
    default=PASS_SECONDS,
    show_default=True,
    help="Stop after this long; the next pass goes on where this one stopped.",
)
@click.option(
    "--nice",
    type=click.IntRange(0, 19),
    default=0,
    help="Run at this lower priority (the background pass uses 10), so requests go first.",
)
def rejudge_command(seconds: float, nice: int) -> None:
    """Judge again the saved decks a list change, an import or a release touched, and add
    their feed entries (what DECKCHECK_DECKS_REJUDGE_EVERY runs in the background)."""
    if nice:
        os.nice(nice)
    click.echo(run_pass(seconds).words())
