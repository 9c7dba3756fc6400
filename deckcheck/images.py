"""Card images by URL template (contract "Card images").

deckcheck never stores, proxies or ships a card image: a card object carries the
address the configured template gives it, and the player's browser asks that host.
`DECKCHECK_CARD_IMAGES` maps games to templates:

    dcg=https://world.digimoncard.com/images/cardlist/card/{number}.png,dmcg=off

`{number}` is the number as printed (`BT1-010_P1`), `{number_base}` the number
without its alternate-art tail (`BT1-010`). `off` alone turns every game's images off.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from flask import Flask, current_app

from rules.games import GAMES

# One host name (letters, digits, dots, dashes) or a bracketed IPv6 address, then a port.
_NETLOC = re.compile(r"(?P<host>[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(?P<port>[^:]*))?")
FIELDS = ("{number}", "{number_base}")


@dataclass(frozen=True)
class Images:
    """The templates in force: game -> template."""

    templates: dict[str, str]

    def url(self, game: str, number: str) -> str | None:
        template = self.templates.get(game)
        if not template or not number:
            return None
        # Quoted: a number is the card list's text, and an address is no place for `/` or `?`.
        printed = quote(number, safe="-_.")
        base = quote(number.partition("_")[0], safe="-_.")
        return template.replace("{number_base}", base).replace("{number}", printed)

    @property
    def hosts(self) -> list[str]:
        """The origins images come from, in a stable order, for the CSP's img-src."""
        found: list[str] = []
        for template in self.templates.values():
            parts = urlsplit(template)
            origin = f"{parts.scheme}://{parts.netloc}"
            if origin not in found:
                found.append(origin)
        return found


def defaults() -> dict[str, str]:
    """Each game's own image address (rules.games `image_template`), read when the
    setting is, so a game registered later has its images too."""
    return {g.id: g.image_template for g in GAMES.values() if g.image_template}


def parse(text: str | None) -> Images:
    """The setting's value read whole; a template that cannot be used stops the start
    (a typo must not silently leave players without images, or point them elsewhere)."""
    text = (text or "").strip()
    templates = defaults()
    if text.lower() == "off":
        return Images({})
    given: set[str] = set()
    for item in text.split(","):
        if not item.strip():
            continue
        game, sep, template = (part.strip() for part in item.partition("="))
        if not sep or not game:
            raise ValueError(f"DECKCHECK_CARD_IMAGES: {item.strip()[:80]!r} is not game=template")
        if game not in GAMES:
            raise ValueError(
                f"DECKCHECK_CARD_IMAGES: {game[:40]!r} is not a game; the games are "
                f"{', '.join(GAMES)}"
            )
        if game in given:
            # "The last one wins" would hide the other from whoever reads the setting.
            raise ValueError(f"DECKCHECK_CARD_IMAGES: {game} is given twice; give it once")
        given.add(game)
        if template.lower() == "off":
            templates.pop(game, None)
            continue
        _check(game, template)
        templates[game] = template
    return Images(templates)


def _check(game: str, template: str) -> None:
    problem = _problem(template)
    if problem:
        raise ValueError(f"DECKCHECK_CARD_IMAGES: {game}'s template {problem}")


def _problem(template: str) -> str | None:
    """What is wrong with a template, in words; None when it can be used.

    Its origin goes into every page's Content-Security-Policy (img-src) and the whole
    address into every card object, so the host is one plain name or IP address: no
    wildcard (it would allow images from any host), no user name or password (they
    would be shown to every visitor), a port from 1 to 65535.
    """
    if any(char.isspace() or not char.isprintable() for char in template):
        return "has a space or a control character in it"
    parts = urlsplit(template)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return "must be an http(s) address"
    if "@" in parts.netloc:
        return "has a user name or password in it (user:password@): remove them"
    found = _NETLOC.fullmatch(parts.netloc)
    if "*" in parts.netloc:
        return "has a wildcard (*) in its host: name the one host images come from"
    if not found:
        return f"has a host that is not a plain name or IP address: {parts.netloc[:80]!r}"
    port = found.group("port")
    if port is not None and not (port.isascii() and port.isdigit() and 0 < int(port[:6]) < 65536):
        return f"has port {port[:20]!r}: a port is a number from 1 to 65535"
    if not any(name in template for name in FIELDS):
        return f"names no card ({' or '.join(FIELDS)})"
    return None


def images() -> Images:
    return current_app.extensions["deckcheck.images"]


def image_url(game: str, number: str) -> str | None:
    return images().url(game, number)


def init_app(app: Flask) -> None:
    """Read the setting once (`CARD_IMAGES` in the config wins over the environment)."""
    configured = app.config.get("CARD_IMAGES")
    if configured is None:
        configured = os.environ.get("DECKCHECK_CARD_IMAGES")
    app.extensions["deckcheck.images"] = parse(configured)
    app.add_template_global(image_url, "card_image")
