"""`flask --app deckcheck decks ...`: a thin layer over the saved decks."""

from __future__ import annotations

import math
import os
import subprocess
import time
from collections.abc import Callable
from typing import Any

import click
from flask import current_app
from flask.cli import AppGroup

from deckcheck.decks.rejudge import PASS_SECONDS, parts, pass_process, run_pass

PARENT_POLL = 0.5  # seconds between two looks at the parts and at the parent
decks_cli = AppGroup("decks", help="Saved decks (judged again when the lists change).")


def _part(text: str | None) -> tuple[int, int] | None:
    """`--part K/N`: the K-th of N parts (1-based)."""
    if text is None:
        return None
    k, _, n = text.partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n) <= 64):
        raise click.BadParameter("a part like 1/2 (the first of two)", param_hint="--part")
    return int(k), int(n)


class Seconds(click.FloatRange):
    """A number of seconds in range. click's FloatRange lets `nan` through (every
    comparison with it is false), and a pass with a budget of nan never stopped."""

    name = "seconds"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> float:
        seconds = float(super().convert(value, param, ctx))
        if math.isnan(seconds):
            self.fail(f"{value!r} is not a number of seconds (1 to 86400)", param, ctx)
        return seconds


@decks_cli.command("rejudge")
@click.option(
    "--seconds",
    type=Seconds(1, 86400),
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
@click.option(
    "--processes",
    type=click.IntRange(1, 16),
    default=1,
    show_default=True,
    help="Judge in this many processes at once, each its part of the decks (one per core).",
)
@click.option("--part", help="Judge only this part of the decks, K/N (what --processes runs).")
@click.option(
    "--parent",
    type=click.IntRange(1),
    help="Stop when process PID, the one that started this pass, is gone (the background "
    "pass ends with its server instead of running on to its time budget).",
)
def rejudge_command(
    seconds: float, nice: int, processes: int, part: str | None, parent: int | None
) -> None:
    """Judge again the saved decks a list change, an import or a release touched, and add
    their feed entries (what DECKCHECK_DECKS_REJUDGE_EVERY runs in the background)."""
    if nice:
        lower_priority(nice)
    alive = _child_of(parent)
    chosen = _part(part)
    if processes > 1 and chosen is None:
        _in_processes(seconds, processes, alive)
        return
    bounds = parts(chosen[1])[chosen[0] - 1] if chosen else (None, None)
    click.echo(run_pass(seconds, part=bounds, alive=alive).words())


def _child_of(parent: int | None) -> Callable[[], bool]:
    """Whether the process that started this one is still there: a process whose parent
    dies gets another (init, or a subreaper), so its parent's id changes."""
    if parent is None:
        return lambda: True
    return lambda: os.getppid() == parent


def lower_priority(nice: int) -> None:
    """Nice `nice`, and, where Linux groups processes by session for scheduling
    (autogroup), a session of its own whose group weighs as little: otherwise the nice
    value only orders this process against its own session's, and a pass started beside
    the server would take as much time as the whole server."""
    os.nice(nice)
    try:
        os.setsid()  # refused to a process group leader (a shell's job): plain nice then
    except OSError:
        return
    try:
        with open("/proc/self/autogroup", "w") as group:
            group.write(str(nice))
    except OSError:
        pass  # no autogroup (another OS, or it is off): plain nice is what counts


def _in_processes(seconds: float, processes: int, alive: Callable[[], bool]) -> None:
    """Each part in a process of its own (the priority is inherited), with this app's
    databases, each ending with this one; their outcomes, one line each. While `alive`
    turns false (the server that started this is gone), the parts are stopped."""
    parent = str(os.getpid())
    running = []
    for k in range(1, processes + 1):
        command, env = pass_process(
            current_app.config, "--seconds", str(seconds), "--part", f"{k}/{processes}",
            "--parent", parent,
        )  # fmt: skip
        running.append(subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True))
    while any(process.poll() is None for process in running):
        if not alive():
            for process in running:
                process.terminate()  # a batch being stored is one transaction: whole or not at all
            # Not a failure: the server that wanted the pass is gone (the next one goes on).
            click.echo("stopped: the process that started the pass is gone")
            return
        time.sleep(PARENT_POLL)
    failed = 0
    for k, process in enumerate(running, start=1):
        out, _ = process.communicate()
        click.echo(f"part {k}/{processes}: {out.strip()}")
        failed += process.returncode != 0
    if failed:
        raise click.ClickException(f"{failed} of {processes} parts failed")
