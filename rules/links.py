"""Deck links players share: the Egman Events deck builder and DigimonMeta.

    https://deckbuilder.egmanevents.com/?deck=EX6-018:4,BT19-069:2,...&type=digimon
    https://digimonmeta.com/deckinfo2?dn=...&dg=4nBT24-005a4nBT14-056a...
    4nBT24-005a4nBT14-056a...                  (the bare `dg` value)

Read with `str` methods and `urllib.parse` only (linear in the link). Each entry
comes back as (number, count, None), or (None, None, problem) when it cannot be
read, so a bad piece is reported and the rest still counts.
"""

from __future__ import annotations

from urllib.parse import parse_qs, unquote

from rules.budget import OVER_ENTRIES, Budget
from rules.model import MAX_COUNT
from rules.numbers import is_number

Entry = tuple[str | None, int | None, str | None]


def deck_link(text: str, budget: Budget | None = None) -> list[Entry] | None:
    """The entries of a deck link or bare `dg` value; None when `text` is neither.

    Links as they are shared: http or https, with or without `www.`, in angle brackets,
    with other parameters around `dg` / `deck`, behind a `#/` route, or percent-encoded
    whole (`deckinfo2%3Fdn%3D...%26dg%3D...`). A link holding more entries than the
    request's `budget` has left is not read: one entry says so.
    """
    text = text.strip("<>\"'")
    if text.startswith(("http://", "https://", "www.")):
        return _link_query(text, budget)
    if text.startswith("dg="):
        return _dg(text[3:], budget)
    if text[:1].isdigit() and "n" in text[:6] and _dg_shaped(text):
        return _dg(text, budget)
    return None


def _link_query(link: str, budget: Budget | None) -> list[Entry] | None:
    if "?" not in link and "%3f" in link.lower():
        link = unquote(link)  # the whole address percent-encoded
    query = link.partition("?")[2].partition("#")[0]  # the query, wherever the route puts it
    try:
        found = parse_qs(query)
    except ValueError:
        return None
    if "deck" in found:
        return _pairs(found["deck"][0].split(","), ":", False, budget)
    if "dg" in found:
        return _dg(found["dg"][0], budget)
    return None


def _dg_shaped(text: str) -> bool:
    count, sep, rest = text.partition("n")
    return bool(sep) and count.isdigit() and is_number(rest.partition("a")[0])


def _dg(value: str, budget: Budget | None) -> list[Entry]:
    """`<count>n<number>` entries joined by `a` (numbers are upper case, so `a` splits)."""
    return _pairs(value.split("a"), "n", True, budget)


def _pairs(pieces: list[str], sep: str, count_first: bool, budget: Budget | None) -> list[Entry]:
    if budget is not None and not budget.take_entries(len(pieces)):
        return [(None, None, OVER_ENTRIES)]
    entries: list[Entry] = []
    for piece in pieces:
        piece = piece.strip()
        if not piece:
            continue
        left, found, right = piece.partition(sep)
        count_text, number = (left, right) if count_first else (right, left)
        if not found or not count_text.isascii() or not count_text.isdigit():
            entries.append((None, None, f"the link entry {piece[:40]!r} has no count"))
        elif not is_number(number):
            entries.append((None, None, f"the link entry {piece[:40]!r} has no card number"))
        elif not 1 <= (count := int(count_text) if len(count_text) <= 7 else 0) <= MAX_COUNT:
            entries.append((None, None, f"the link entry {piece[:40]!r} has a count out of range"))
        else:
            entries.append((number, count, None))
    return entries or [(None, None, "the deck link holds no cards")]
