"""The app's events store, opened (and migrated) on first use.

A module of its own, under everything that asks for the store (deckcheck.events.core
and its rate limits, deckcheck.events.limits), so neither has to import the other
inside a function to reach it (issue 40: the circle core <-> limits).
"""

from __future__ import annotations

import threading

from flask import current_app

from deckcheck.events.venue_store import VenueStore

_lock = threading.Lock()


def store() -> VenueStore:
    """The app's store, opened (and migrated) on first use, so an app that never
    sees an event never creates its database."""
    found = current_app.extensions.get("deckcheck.events")
    if found is None:
        with _lock:
            found = current_app.extensions.get("deckcheck.events")
            if found is None:
                found = VenueStore(current_app.config["EVENTS_DATABASE"])
                found.migrate()
                current_app.extensions["deckcheck.events"] = found
    return found
