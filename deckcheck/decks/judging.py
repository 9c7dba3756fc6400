"""A saved deck judged: read once as it was sent, kept structured, judged from that
(deckcheck.server.verdicts, the judge of every stored list); here what a deck's verdict
changing means: its feed entries.

When a deck is saved, what the player sent (text in any style, or a structured deck) is
read once; the cards it was read as (numbers and counts per section, the partner, and
the lines that named no card, kept as written) are stored as the version's structured
list. Every verdict of that version, the first one included, is judged from the
structured list: the cheap path (no text to parse again), and the same verdict whether
it is judged on save, on a read or by the background pass.
"""

from __future__ import annotations

import hashlib
from datetime import date

from deckcheck.decks.store import FeedEntry
from deckcheck.server import verdicts
from rules.format import Format
from rules.model import Report
from rules.pool import CardIndex
from rules.verdict import is_unconfirmed


def judge_saved(fmt: Format, structured: dict, on: date, index: CardIndex) -> Report:
    """A version judged from its structured list (the server's one judge of a stored list)."""
    return verdicts.judge(fmt, structured, on, index)


def _key(violation: dict) -> tuple:
    return (violation["code"], violation.get("section"), tuple(violation.get("cards") or ()))


def differs(now: dict, before: dict, before_legal: bool) -> bool:
    """Has the verdict changed: legal or not, or which problems (not their wording or
    line numbers)?"""
    if now["legal"] != before_legal:
        return True
    return {_key(v) for v in now["violations"]} != {_key(v) for v in before["violations"]}


def feed_entries(
    deck_id: str, version: int, before: dict, now: dict, report: Report, fmt: Format, on: date
) -> list[FeedEntry]:
    """One entry per problem that came, per problem that went, and per announced change
    that now applies (an `upcoming-change` warning that was not there before)."""
    entries = []
    had = {_key(v) for v in before["violations"]}
    has = {_key(v) for v in now["violations"]}
    for v in now["violations"]:
        if _key(v) not in had:
            entries.append(_entry(deck_id, version, "new", v, problem_words(v, report, fmt, on)))
    for v in before["violations"]:
        if _key(v) not in has:
            entries.append(
                _entry(deck_id, version, "gone", v, f"No longer a problem: {v['message']}")
            )
    # An announced change, and one only reported (its words say "reported", never
    # "banned": a single source is no rule).
    told = ("upcoming-change", "list-change-reported")
    warned = {(_key(w), w["message"]) for w in before["warnings"] if w["code"] in told}
    for w in now["warnings"]:
        if w["code"] in told and (_key(w), w["message"]) not in warned:
            kind = "upcoming" if w["code"] == "upcoming-change" else "reported"
            entries.append(_entry(deck_id, version, kind, w, w["message"]))
    return entries


def _entry(deck_id: str, version: int, kind: str, violation: dict, title: str) -> FeedEntry:
    """The change's key: the deck's version, the kind of change and the problem, so the
    same change found by two servers (or a read and the pass) is one entry."""
    text = "\x1f".join(
        [deck_id, str(version), kind, violation["code"], str(violation.get("section")),
         ",".join(violation.get("cards") or ()), violation["message"]]
    )  # fmt: skip
    change = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:40]
    return FeedEntry(change, title, violation["message"])


def problem_words(violation: dict, report: Report, fmt: Format, on: date) -> str:
    """A banned or restricted card in a player's words ("BT15-003 is banned from
    2026-09-01: this deck holds 2"); any other problem as its message says it."""
    cards = violation.get("cards") or []
    code = violation["code"]
    if is_unconfirmed(violation):  # a card the list lacks yet: not a broken rule
        return f"Can't confirm: {violation['message']}"
    if code not in ("banned", "restricted") or not cards or fmt.lists is None:
        return violation["message"]
    held = {stack.card.number: stack for stack in report.deck.totals}
    first = held.get(cards[0])
    listed = fmt.lists.status_on(first.card.limit_key if first else cards[0], fmt.day(on))
    holds = sum(held[n].count for n in cards if n in held)
    status = "banned" if code == "banned" else "restricted to 1 copy"
    since = f" from {listed[1].effective}" if listed and listed[1].effective else ""
    return f"{', '.join(cards)} is {status}{since}: this deck holds {holds}"
