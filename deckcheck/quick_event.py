"""Organizer pages: check a whole event, print registration sheets, compare a deck at
the table with the registered list (deck lock)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from flask import Blueprint, Flask, current_app, render_template, request, url_for
from itsdangerous import BadSignature, URLSafeSerializer

from deckcheck import budgets, service, unread, words
from deckcheck.csvout import csv_response
from deckcheck.days import read_day
from deckcheck.errors import ApiError
from deckcheck.format_registry import registry
from deckcheck.report_json import report_json
from deckcheck.server.verdicts import unresolved_lines
from deckcheck.web import pack
from rules import roster
from rules.format import Format
from rules.games import DEFAULT_FORMAT, SECTION_NAMES
from rules.lock import compare_decks
from rules.model import Report
from rules.verdict import UNCONFIRMED, verdict_of

bp = Blueprint("event", __name__)
# The results page hands the whole event back to the browser in one hidden field
# (signed, compressed): bounded by what one form may carry.
PAYLOAD_LIMIT = 1024 * 1024
# Work the checks of one event page may do, counted as a batch counts it
# (budgets.deck_work; about 0.6 s of one core: contract, every request under 2 s, and
# the page's own rendering takes about as long again for a full event). Lists left when
# it is done are shown "not checked", the same lists on a quiet or a busy machine.
# 2,048 real lists take about half of it.
CHECK_WORK = 120_000
# The CSV and the sheets of a results page check again the lists the page checked, no
# more, no fewer (its signed field says which); their budget is this many times the
# page's (a card pool changed meanwhile may read more lines as unknown), and when even
# that is spent, or the time guard runs out, they refuse rather than disagree with it.
RECHECK_FACTOR = 4


@dataclass(frozen=True)
class Row:
    submission: roster.Submission
    report: Report | None

    @property
    def legal(self) -> bool:
        return self.report is not None and self.report.legal

    @property
    def verdict(self) -> str:
        if self.report is None:
            return "not checked"
        if self.report.legal:
            return "legal"
        # Contract, "Verdicts deckcheck cannot confirm": cards the list lacks yet.
        return "can't confirm" if verdict_of(self.report.violations) == UNCONFIRMED else "not legal"

    @property
    def summary(self) -> str:
        if self.report is None:
            return self.submission.problem or ""
        codes: dict[str, int] = {}
        for violation in self.report.violations:
            codes[violation.code] = codes.get(violation.code, 0) + 1
        return ", ".join(f"{c} ×{n}" if n > 1 else c for c, n in codes.items())

    @property
    def problems(self) -> list[str]:
        """Each problem named by the cards behind it, for the results table."""
        if self.report is None:
            return []
        return [words.problem_words(v, self.report) for v in self.report.violations]

    @property
    def unread(self) -> list[dict]:
        """Lines that named no card, with their line numbers and counts."""
        return unresolved_lines(self.report) if self.report else []

    @property
    def totals(self) -> dict[str, str]:
        """Section totals in words, counting the cards on unread lines apart."""
        if self.report is None:
            return {}
        return unread.section_totals(self.report.deck, self.submission.decklist)


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="deckcheck.quick-event")


def _unpack_payload(token: str) -> tuple[dict, list[roster.Submission], bool]:
    """The signed event of an earlier results page: tampered or oversized, a 400."""
    if len(token) > PAYLOAD_LIMIT:
        raise ApiError(400, "bad-payload", "This event is too large to send back; check it again.")
    try:
        data = _serializer().loads(token)
        subs = [roster.Submission(**item) for item in data.pop("submissions")]
        decided = data.pop("decided", False) is True
    except (BadSignature, KeyError, TypeError, AttributeError) as err:
        raise ApiError(
            400, "bad-payload", "This results page was changed or damaged; check the event again."
        ) from err
    return data, subs, decided


def _event_request() -> tuple[dict, list[roster.Submission], bool]:
    """Event details and submissions from the form, or from a signed earlier form; and
    whether a results page already decided which lists are checked (`_check_all`)."""
    if request.form.get("payload"):
        return _unpack_payload(request.form["payload"])
    meta = {
        "name": request.form.get("event", "").strip()[:200] or "Event",
        "format": request.form.get("format", DEFAULT_FORMAT),
        "date": request.form.get("date") or "",
    }
    subs: list[roster.Submission] = []
    upload = request.files.get("csv")
    if upload and upload.filename:
        try:
            subs += roster.from_csv(upload.read().decode("utf-8", errors="replace"))
        except roster.RosterError as err:
            raise ApiError(400, "bad-event-csv", str(err)) from err
    for file in request.files.getlist("files"):
        if file and file.filename:
            subs.append(
                roster.from_file(file.filename, file.read().decode("utf-8", errors="replace"))
            )
    subs += roster.from_pasted(request.form.get("pasted", ""))
    if not subs:
        raise ApiError(400, "empty-event", "Upload a CSV, choose files or paste lists first.")
    _within_players(subs)
    return meta, subs, False


def _within_players(subs: list[roster.Submission]) -> None:
    """422 for more lists than one check reads (the roster readers stop one past it, so
    a list beyond is refused here, never dropped)."""
    limit = roster.MAX_SUBMISSIONS
    if len(subs) > limit:
        raise ApiError(
            422,
            "event-too-large",
            f"This event has more than {limit:,} lists; one check takes at most {limit:,}. "
            "Check the event in parts.",
            {"limit": limit},
        )


def _event_day(meta: dict) -> date | None:
    try:
        return read_day(meta["date"]) if meta.get("date") else None
    except ValueError as err:  # unreadable, or outside the years deckcheck judges (as /report)
        raise ApiError(422, "bad-date", str(err)) from err


def _check_all(
    fmt: Format, subs: list[roster.Submission], on: date | None, decided: bool = False
) -> list[Row]:
    """Each list checked within the page's budget; the rest noted "not checked".

    `decided`: the lists come from a results page's signed field, where the lists that
    page did not check are already noted. They are checked once, there: here the others
    are checked again, all of them, so the page, its CSV and its sheets give one answer.
    """
    budget = budgets.BatchBudget(CHECK_WORK * (RECHECK_FACTOR if decided else 1))
    rows = []
    for sub in subs:
        if sub.problem:
            rows.append(Row(sub, None))
        elif _spent(budget, decided):
            rows.append(Row(_noted(sub, NOT_CHECKED), None))
        else:
            lines = sub.decklist.count("\n") + 1
            try:
                report = service.check(fmt, {"decklist": sub.decklist}, on)
            except ApiError as err:
                rows.append(Row(_noted(sub, err.message), None))
                budget.did(budgets.deck_work(lines))
                continue
            rows.append(Row(sub, report))
            budget.did(budgets.report_work(lines, report))
    return rows


def _spent(budget: budgets.BatchBudget, decided: bool) -> bool:
    """Is the page's budget spent? A CSV or sheets of a decided page refuse instead (503)."""
    try:
        spent = budget.spent()
    except budgets.Overtime as err:
        if decided:
            raise ApiError(503, "request-timeout", RECHECK_TOO_SLOW) from err
        raise
    if spent and decided:
        raise ApiError(503, "request-timeout", RECHECK_TOO_SLOW)
    return spent


NOT_CHECKED = (
    "not checked: this event used up its budget of work for one page before this list; "
    "check the lists not checked as an event of their own"
)
RECHECK_TOO_SLOW = (
    "The server is too busy to check this event's lists again in time, and it will not "
    "print an answer that differs from the results page. Try again in a minute."
)


def _noted(sub: roster.Submission, problem: str) -> roster.Submission:
    return roster.Submission(sub.player, sub.player_id, sub.decklist, sub.source, problem)


def _payload(meta: dict, rows: list[Row]) -> str:
    """The event as checked: each list with its note, "not checked" ones included."""
    submissions = [row.submission.__dict__ for row in rows]
    return _serializer().dumps({**meta, "submissions": submissions, "decided": True})


@bp.get("/event")
def event_form():
    return render_template("event/form.html", formats=registry().formats.values())


@bp.post("/event")
def event_results():
    meta, subs, decided = _event_request()
    fmt = service.find_format(meta["format"])
    on = _event_day(meta)
    rows = _check_all(fmt, subs, on, decided)
    links = [
        url_for(
            "web.report",
            format=fmt.id,
            d=pack(r.submission.decklist),
            **({"date": on.isoformat()} if on else {}),
        )
        if r.report
        else None
        for r in rows
    ]
    return render_template(
        "event/results.html",
        meta=meta,
        fmt=fmt,
        rows=list(zip(rows, links, strict=True)),
        day=fmt.day(on or service.today()),
        payload=_payload(meta, rows),
        legal=sum(r.legal for r in rows),
        section_names=SECTION_NAMES,
    )


@bp.post("/event/results.csv")
def event_csv():
    meta, subs, decided = _event_request()
    fmt = service.find_format(meta["format"])
    rows = _check_all(fmt, subs, _event_day(meta), decided)
    header = [
        "player",
        "player_id",
        "verdict",
        "violations",
        "warnings",
        "fingerprint",
        "problems",
        "unread_lines",
    ]
    return csv_response(header, [_csv_row(row) for row in rows], "event-results.csv")


def _csv_row(row: Row) -> list[str]:
    report = row.report
    return [
        row.submission.player,
        row.submission.player_id,
        row.verdict,
        row.summary,
        "; ".join(w.message for w in report.warnings) if report else "",
        report.fingerprint if report else "",
        " | ".join(v.message for v in report.violations)
        if report
        else row.submission.problem or "",
        "; ".join(_unread_words(u) for u in row.unread),
    ]


def _unread_words(line: dict) -> str:
    count = line["count"] if line["count"] is not None else "?"
    where = f"line {line['line']}" if line.get("line") is not None else "entry"
    return f"{where}: {line['text']} ({count})"


# Registration sheets printed from one request: each carries its deck's whole report,
# about 9 KB of the worker's memory (10,000 of them took +87 MB; contract: 50 MB).
MAX_SHEETS = 2500


@bp.post("/event/sheets")
def event_sheets():
    meta, subs, decided = _event_request()
    if len(subs) > MAX_SHEETS:
        raise ApiError(
            422,
            "event-too-large",
            f"This event has {len(subs):,} lists; one request prints at most {MAX_SHEETS:,} "
            "registration sheets. Print them in parts.",
            {"lists": len(subs), "limit": MAX_SHEETS},
        )
    fmt = service.find_format(meta["format"])
    on = _event_day(meta)
    rows = sorted(
        _check_all(fmt, subs, on, decided),
        key=lambda r: (r.submission.player.casefold(), r.submission.player_id),
    )
    return render_template(
        "events/sheets.html",
        title=meta["name"],
        subtitle=f"{fmt.name} · {words.day_words(fmt.day(on or service.today()))}",
        sheets=[_sheet(row, fmt) for row in rows],
        section_names=SECTION_NAMES,
    )


def _sheet(row: Row, fmt: Format) -> dict:
    report = row.report
    return {
        "player": row.submission.player,
        "player_id": row.submission.player_id,
        "legal": row.legal,
        "problems": [v.message for v in report.violations] if report else [],
        "warnings": [w.message for w in report.warnings] if report else [],
        "unresolved": unresolved_lines(report) if report else [],
        "data": report_json(report, fmt) if report else None,
        "note": row.submission.problem,
    }


@bp.route("/deck-check", methods=["GET", "POST"])
def deck_check():
    if request.method == "GET":
        return render_template("event/lock.html", formats=registry().formats.values(), result=None)
    fmt = service.find_format(request.form.get("format", DEFAULT_FORMAT))
    registered_text = request.form.get("registered", "")
    presented_text = request.form.get("presented", "")
    if not registered_text.strip() or not presented_text.strip():
        raise ApiError(400, "empty-decklist", "Paste both the registered and the presented list.")
    registered = service.check(fmt, {"decklist": registered_text}, None)
    presented = service.check(fmt, {"decklist": presented_text}, None)
    return render_template(
        "event/lock.html",
        formats=registry().formats.values(),
        fmt=fmt,
        result={
            "comparison": compare_decks(registered.deck, presented.deck),
            "unread": {
                "registered": unresolved_lines(registered),
                "presented": unresolved_lines(presented),
            },
            "totals": {
                "registered": unread.section_totals(registered.deck, registered_text),
                "presented": unread.section_totals(presented.deck, presented_text),
            },
            "registered": registered,
            "presented": presented,
        },
        form=request.form,
        section_names=SECTION_NAMES,
    )


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
