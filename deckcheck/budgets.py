"""Budgets of work for requests that judge many decks (validate-batch, the quick event
page): counted in units of work, never in seconds, so that the same request gets the
same answer on a quiet and on a busy machine (issue 40). A time guard stays, only to
stop a runaway, and it answers 503 ("send it again"), never a shorter answer.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from deckcheck.errors import ApiError, error_body
from rules.model import Report

# validate-batch, budgeted per request in work, never in seconds (issue 40): the same
# batch gets the same answer on a quiet and on a busy machine. The lines are counted
# before any deck is read: over MAX_BATCH_LINES is refused at once. Then each deck judged
# counts its work (`deck_work`): DECK_WORK for the deck, one for each line (or structured
# entry), UNREAD_WORK more for each line that named no card. A unit is about 5 us of one
# core (bench/batch_work.py: a one-line deck 29 us, a line of a real deck 5 us, a line
# naming no card 30 us, judged and written). A batch may do BATCH_WORK_PER_LINE units
# for each line it holds, at least BATCH_MIN_WORK: about 1.2 s per 100,000 lines, inside
# the contract's 2 s with room for the one deck judged past it (the budget is asked
# between decks) and the answer. Real decks need half of it; lines of unknown names
# 2.5 times: the decks left are answered "not checked", the same decks on any machine.
MAX_BATCH_LINES = 500_000
DECK_WORK = 5
UNREAD_WORK = 5
BATCH_WORK_PER_LINE = 2.4
BATCH_MIN_WORK = 240_000
# The most a batch's answer may hold (contract: no request grows a worker's memory by
# more than 50 MB). A real deck's result is a few hundred bytes; only decks of hundreds
# of problems each come near it, and the decks past it are answered "not checked".
BATCH_ANSWER_BYTES = 16 * 1024 * 1024
# The time guard: a batch still running after this much wall clock (a machine far too
# busy, a runaway) is stopped with a 503 "send it again", never answered shorter. None:
# two thirds of the worker's timeout (DECKCHECK_GUNICORN_TIMEOUT, gunicorn.conf.py,
# default 30 s), so the batch answers its own 503 before the watchdog has to stop it.
BATCH_GUARD_SECONDS: float | None = None
WORKER_TIMEOUT = 30


class Overtime(ApiError):
    """A request's time guard ran out: a 503 to send again (Retry-After), never a shorter
    answer than a quiet machine gives."""

    def __init__(self, seconds: float) -> None:
        super().__init__(
            503,
            "request-timeout",
            f"The server is too busy to finish this request within {seconds:g} s; nothing "
            "was answered in part. Send it again in a moment.",
            {"guard_seconds": seconds},
        )


def guard() -> float:
    """The time guard's seconds (see BATCH_GUARD_SECONDS)."""
    if BATCH_GUARD_SECONDS is not None:
        return BATCH_GUARD_SECONDS
    text = os.environ.get("DECKCHECK_GUNICORN_TIMEOUT", "").strip()
    timeout = int(text) if text.isdigit() and int(text) > 0 else WORKER_TIMEOUT
    return timeout * 2 / 3


def deck_work(lines: int, unread: int = 0) -> int:
    """The work of one deck judged: its lines (or entries), and the lines of them that
    named no card (see MAX_BATCH_LINES)."""
    return DECK_WORK + lines + UNREAD_WORK * unread


def report_work(lines: int, report: Report | None) -> int:
    return deck_work(lines, len(report.deck.unresolved) if report is not None else 0)


class BatchBudget:
    """What one request judging many decks may do: units of work (`deck_work`) and its
    answer's bytes, both counted, so that the same request gets the same answer on any
    machine; and, only to stop a runaway, a guard of wall-clock seconds that answers 503.
    """

    def __init__(
        self,
        work: float,
        answer_bytes: int = BATCH_ANSWER_BYTES,
        guard_seconds: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.work = work
        self.answer_bytes = answer_bytes
        self.guard_seconds = guard() if guard_seconds is None else guard_seconds
        self.clock = clock
        self.started = clock()
        self.done = 0
        self.written = 0
        self.skipped = 0
        self.why: str | None = None

    @classmethod
    def for_decks(cls, decks: Sequence[Mapping[str, Any]]) -> BatchBudget:
        """The budget of these decks; ApiError 422 when they hold too many lines."""
        lines = sum(deck_lines(item) for item in decks)
        if lines > MAX_BATCH_LINES:
            raise ApiError(
                422,
                "batch-too-large",
                f"This batch holds {lines:,} decklist lines; one batch may hold at most "
                f"{MAX_BATCH_LINES:,}. Send the decks in smaller batches.",
                {"lines": lines, "limit": MAX_BATCH_LINES},
            )
        return cls(max(BATCH_MIN_WORK, lines * BATCH_WORK_PER_LINE), BATCH_ANSWER_BYTES)

    def spent(self) -> bool:
        """Is the budget spent? (Once spent, it stays spent, and `why` says what ran out.)
        Past the time guard, Overtime: the request is answered 503, not in part."""
        if self.clock() - self.started > self.guard_seconds:
            raise Overtime(self.guard_seconds)
        if self.why is None:
            if self.written > self.answer_bytes:
                self.why = f"its answer reached {self.answer_bytes // (1024 * 1024)} MB"
            elif self.done > self.work:
                self.why = f"it used up its budget of work ({int(self.work):,} units)"
        return self.why is not None

    def did(self, work: int) -> None:
        """Count `work` more units done (`deck_work`)."""
        self.done += work

    def answered(self, size: int) -> None:
        """Count `size` more bytes of the answer."""
        self.written += size

    def skip(self, deck_id: object) -> dict:
        """The result of a deck left unchecked because the budget is spent."""
        self.skipped += 1
        message = (
            f"Not checked: this batch stopped before this deck, as {self.why}. "
            "Send the decks that were not checked again, in a smaller batch."
        )
        return unchecked(deck_id, error_body("over-budget", message, self._details()))

    def _details(self) -> dict:
        return {"budget_work": int(self.work), "answer_bytes": self.answer_bytes}

    def warnings(self, checked: int) -> list[dict]:
        if not self.skipped:
            return []
        return [
            {
                "code": "over-budget",
                "message": (
                    f"{self.skipped} of {checked + self.skipped} decks were not checked: the "
                    f"batch stopped as {self.why}. Their results say so; send them again in "
                    "a smaller batch."
                ),
                "details": {"checked": checked, "not_checked": self.skipped, **self._details()},
            }
        ]


def unchecked(deck_id: object, error: dict) -> dict:
    """A batch deck's result when it was not judged: no verdict, and the error saying why
    (`deckcheck.errors.error_body`)."""
    return {
        "id": deck_id,
        "legal": False,
        "verdict": "illegal",
        "violations": [],
        "warnings": [],
        "fingerprint": None,
        **error,
    }


def deck_lines(item: Mapping[str, Any]) -> int:
    """Lines a batch deck costs: its text's lines, or its structured entries (at least 1)."""
    text = item.get("decklist")
    if isinstance(text, str):
        return text.count("\n") + 1
    deck = item.get("deck")
    if isinstance(deck, Mapping):
        return 1 + sum(len(v) for v in deck.values() if isinstance(v, list))
    return 1
