"""A saved deck's changes as an Atom feed: GET /d/<id>/changes.atom.

One entry per change of the deck's verdict (a problem that came or went) and per
announced list change that will apply to it, in the words a player reads ("BT15-003 is
banned from 2026-09-01: this deck holds 2"). Reading the feed judges the deck again
when its world changed, as reading the deck does, so a feed reader is never behind.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape as xml_escape

from flask import Blueprint, Response

from deckcheck.decks import core
from deckcheck.errors import ApiError
from deckcheck.server import http, names

bp = Blueprint("decks_feed", __name__)
FEED_ID = "tag:deckcheck,2026:decks/{id}/changes"
SHOWN = 100  # the newest entries a feed holds
# What XML 1.0 cannot hold at all, escaped or not (its Char production): control
# characters but tab, newline and return, lone surrogates, U+FFFE and U+FFFF. A name may
# hold U+FFFF (names keep noncharacters); the feed leaves such characters out.
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def escape(text: str) -> str:
    """Text as XML character data: escaped, and without characters XML cannot hold."""
    return xml_escape(NOT_XML.sub("", text))


@bp.get("/d/<deck_id>/changes.atom")
def changes_feed(deck_id: str):
    row = store_row(deck_id)
    core.view_now(row)  # entries of a change nobody has judged yet
    entries = core.store().feed(deck_id, SHOWN)
    feed_id = FEED_ID.format(id=deck_id)
    link = f"{http.base_url()}/d/{deck_id}"
    updated = entries[0]["at"] if entries else row["updated_at"]
    body = "".join(entry_xml(feed_id, link, e) for e in entries)
    title = f"{row['name']}: changes to its verdict (deckcheck)"
    text = feed_xml(feed_id, title, link, updated, body)
    return Response(text, mimetype="application/atom+xml")


def store_row(deck_id: str) -> dict:
    row = core.store().deck(deck_id) if names.is_id(deck_id) else None
    if row is None:
        raise ApiError(404, "deck-not-found", "There is no saved deck at this address.")
    return row


def _moment(at: str) -> str:
    """An RFC 3339 moment as Atom wants it (the store keeps +00:00, microseconds)."""
    return at.replace("+00:00", "Z")


def feed_xml(feed_id: str, title: str, link: str, updated: str, body: str) -> str:
    """The feed around its entries (also the account's feed: deckcheck.decks.owned)."""
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom">\n'
        f"<id>{escape(feed_id)}</id>\n"
        f"<title>{escape(title)}</title>\n"
        f'<link rel="alternate" href="{escape(link)}"/>\n'
        f"<updated>{escape(_moment(updated))}</updated>\n"
        "<author><name>deckcheck</name></author>\n"
        f"{body}</feed>\n"
    )


def entry_xml(feed_id: str, link: str, entry: dict) -> str:
    return (
        "<entry>\n"
        f"<id>{feed_id}/{escape(entry['change'])}</id>\n"
        f"<title>{escape(entry['title'])}</title>\n"
        f'<link rel="alternate" href="{escape(link)}"/>\n'
        f"<updated>{escape(_moment(entry['at']))}</updated>\n"
        f'<content type="text">{escape(entry["body"])}</content>\n'
        "</entry>\n"
    )
