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
from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from flask import Flask, current_app

DEFAULT = {"dcg": "https://world.digimoncard.com/images/cardlist/card/{number}.png"}
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


def parse(text: str | None) -> Images:
    """The setting's value read whole; a template that cannot be used stops the start
    (a typo must not silently leave players without images, or point them elsewhere)."""
    text = (text or "").strip()
    templates = dict(DEFAULT)
    if text.lower() == "off":
        return Images({})
    for item in text.split(","):
        if not item.strip():
            continue
        game, sep, template = (part.strip() for part in item.partition("="))
        if not sep or not game:
            raise ValueError(f"DECKCHECK_CARD_IMAGES: {item.strip()[:80]!r} is not game=template")
        if template.lower() == "off":
            templates.pop(game, None)
            continue
        _check(game, template)
        templates[game] = template
    return Images(templates)


def _check(game: str, template: str) -> None:
    parts = urlsplit(template)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"DECKCHECK_CARD_IMAGES: {game}'s template must be an http(s) address")
    if not any(name in template for name in FIELDS):
        raise ValueError(
            f"DECKCHECK_CARD_IMAGES: {game}'s template names no card ({' or '.join(FIELDS)})"
        )


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
