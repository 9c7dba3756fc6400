"""`flask --app deckcheck cardpool ...`: a thin layer over `cardpool`."""

from __future__ import annotations

import contextlib
import sqlite3
import sys
from typing import Any

import click
from flask import Flask, current_app
from flask.cli import AppGroup

from cardpool import list_store
from cardpool.adding import add_product
from cardpool.db import connect
from cardpool.errors import CardPoolError
from cardpool.imports import Progress, database_problem, import_pool
from cardpool.store import pool_info
from cardpool.syncing import sync_lists_one, sync_one
from rules.games import GAME_IDS, LISTS_GAME

cardpool_cli = AppGroup("cardpool", help="Import, sync and inspect the card database.")


@contextlib.contextmanager
def _all_or_nothing(db: Any, failed: str) -> Any:
    """Turn an import's failure into one message (`<failed>, nothing changed: ...`), and
    close the database whatever happens: card pools and list histories alike."""
    try:
        yield
    except CardPoolError as err:
        raise click.ClickException(f"{failed}, nothing changed: {err}") from err
    except sqlite3.Error as err:
        raise click.ClickException(f"{failed}, nothing changed: {database_problem(err)}") from err
    finally:
        db.close()


@contextlib.contextmanager
def _progress():
    """Progress bars on a terminal; silence in pipes, logs and CI."""
    if not sys.stderr.isatty():
        yield Progress()
        return
    bars: dict[str, Any] = {}

    def download(chunk: int, total: int | None) -> None:
        if "download" not in bars:
            bars["download"] = click.progressbar(
                length=total or 0, label="downloading", file=sys.stderr
            )
            bars["download"].__enter__()
        bars["download"].update(chunk)

    def total_rows(count: int) -> None:
        bars["rows"] = click.progressbar(length=count, label="importing", file=sys.stderr)
        bars["rows"].__enter__()

    try:
        yield Progress(download, lambda n: bars["rows"].update(n), total_rows)
    finally:
        for bar in bars.values():
            bar.__exit__(None, None, None)


def _db():
    try:
        return connect(current_app.config["DATABASE"])
    except sqlite3.Error as err:
        raise click.ClickException(database_problem(err)) from err


@cardpool_cli.command("import")
@click.argument("game", type=click.Choice(GAME_IDS))
@click.argument("source")
def import_command(game: str, source: str) -> None:
    """Replace GAME's cards with the list at SOURCE (a file path or an http(s) URL).

    All or nothing: on any error the previous pool stays, whole.
    """
    db = _db()
    with _all_or_nothing(db, "import failed"), _progress() as progress:
        count = import_pool(db, game, source, progress)
    click.echo(f"imported {count} cards")


@cardpool_cli.command("add")
@click.argument("game", type=click.Choice(GAME_IDS))
@click.argument("source")
@click.option("--replace", is_flag=True, help="Replace cards the list already holds.")
def add_command(game: str, source: str, replace: bool) -> None:
    """Merge one product's cards from SOURCE (a file path or an http(s) URL: a deckcheck
    card CSV, or for dcg the community JSON list) into GAME's cards, keeping the rest.

    All or nothing, as an import. A later import or sync that holds the same numbers
    takes their place.
    """
    db = _db()
    with _all_or_nothing(db, "add failed"), _progress() as progress:
        done = add_product(db, game, source, replace, progress)
    if done.kept:
        click.echo(f"kept {done.kept} cards the list already held (--replace replaces them)")
    click.echo(f"{done.product} from {source}")
    click.echo(f"added {done.added} cards")


@cardpool_cli.command("sync")
@click.argument("game", required=False, type=click.Choice(GAME_IDS))
def sync_command(game: str | None) -> None:
    """Import from the configured upstream URLs, skipping lists unchanged since last time.

    Upstreams: DECKCHECK_SYNC_URLS="game=url,..." (default: dcg's public upstream).
    """
    urls = current_app.config["SYNC_URLS"]
    games = [game] if game else sorted(urls)
    failed = False
    db = _db()
    try:
        for name in games:
            if name not in urls:
                click.echo(
                    f"{name}: no upstream URL configured (set DECKCHECK_SYNC_URLS)", err=True
                )
                failed = True
                continue
            with _progress() as progress:
                outcome = sync_one(db, name, urls[name], progress)
            if outcome.result == "failed":
                click.echo(f"{name}: {outcome.message}", err=True)
                failed = True
            else:
                click.echo(f"{name}: {outcome.message}")
    finally:
        db.close()
    if failed:
        sys.exit(1)


@cardpool_cli.command("stats")
def stats_command() -> None:
    """Cards per game, where they came from and when."""
    db = _db()
    try:
        info = pool_info(db)
    finally:
        db.close()
    for game in GAME_IDS:
        row = info.get(game)
        if row is None:
            click.echo(f"{game:<11} no cards (import a list with: cardpool import {game} SOURCE)")
        else:
            click.echo(f"{game:<11} {row['count']:>5} cards  {row['imported_at']}  {row['source']}")


lists_cli = AppGroup("lists", help="The DCG banned / restricted / choice list history.")
cardpool_cli.add_command(lists_cli)


@lists_cli.command("import")
@click.argument("game", type=click.Choice(list_store.GAMES_WITH_LISTS))
@click.argument("source")
def lists_import_command(game: str, source: str) -> None:
    """Replace GAME's list history with the one at SOURCE (a file path or an http(s) URL).

    Checked whole first; a bad file changes nothing and the message names the entry.
    """
    db = _db()
    with _all_or_nothing(db, "lists not imported"):
        stored, warnings = list_store.import_lists(db, game, source)
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)
    click.echo(f"imported {len(stored.history.changes)} list changes for {game}")


@lists_cli.command("sync")
def lists_sync_command() -> None:
    """Import the list history at DECKCHECK_LISTS_URL, unless unchanged since last time."""
    url = current_app.config["LISTS_URL"]
    if not url:
        raise click.ClickException("no list history URL configured (set DECKCHECK_LISTS_URL)")
    db = _db()
    try:
        outcome = sync_lists_one(db, LISTS_GAME, url)
    finally:
        db.close()
    if outcome.result == "failed":
        raise click.ClickException(outcome.message)
    click.echo(f"{LISTS_GAME} lists: {outcome.message}")


@lists_cli.command("show")
@click.argument("game", type=click.Choice(list_store.GAMES_WITH_LISTS))
def lists_show_command(game: str) -> None:
    """The list history in use and the one it replaced."""
    db = _db()
    try:
        click.echo(f"current:  {list_store.describe(list_store.current(db, game))}")
        click.echo(f"previous: {list_store.describe(list_store.previous(db, game))}")
    finally:
        db.close()


def init_app(app: Flask) -> None:
    app.cli.add_command(cardpool_cli)
