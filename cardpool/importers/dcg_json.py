"""The DCG JSON card list: the shape of aegis-digimon-tcg's `cards.json` (its upstream).

A list of objects with `cardId`, `nameEn`, `kinds`, `level`, `colors`,
`maxCountInDeck`, ... The card's text is kept in the database the list is imported
into (shown on the card's page; the project itself ships none) and read to find the
card's `[Rule]` aliases ("Name: Also treated as [X]") and traits.
"""

from __future__ import annotations

import json
import re
from typing import Any

from marshmallow import EXCLUDE, Schema, ValidationError, fields, post_load, validate

from cardpool.cards import make_row
from cardpool.errors import SourceFormatError
from cardpool.importers.common import describe, fold_printings, raise_row_errors

# The game whose upstream list has this shape (its registry entry says `json_card_list`).
GAME = "dcg"
KIND_NAMES = {"Digimon": "digimon", "DigiEgg": "digi-egg", "Tamer": "tamer", "Option": "option"}
_ALIAS_RULE = re.compile(r"\[Rule\]\s*Name:\s*Also treated as (\[[^\n]*?\])\.*\s*$", re.M)
_TRAIT_RULE = re.compile(r"\[Rule\]\s*Trait:\s*Has (?:the )?(\[[^\n]*?\])", re.M)
_BRACKETED = re.compile(r"\[([^\]]+)\]")
# "[Rule] Card Number: Also treated as [P-009]." (printed "※Card Number: ..." on RB1-004):
# the printing shares P-009's copy limit and list entries (rules 2-3-4-5, 2-11-1).
_NUMBER_RULE = re.compile(r"Card Number:\s*Also treated as \[([A-Za-z0-9]+-\d+)\]", re.I)


class DcgCardSchema(Schema):
    """One card of the DCG JSON list."""

    class Meta:
        unknown = EXCLUDE

    cardId = fields.String(required=True, validate=validate.Length(min=3, max=40))
    set = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=40))
    nameEn = fields.String(load_default="")
    nameJp = fields.String(load_default=None, allow_none=True)
    kinds = fields.List(
        fields.String(validate=validate.OneOf(list(KIND_NAMES))),
        required=True,
        validate=validate.Length(min=1),
    )
    level = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(2, 7))
    colors = fields.List(fields.String(), load_default=list)
    types = fields.List(fields.String(), load_default=list)
    maxCountInDeck = fields.Integer(load_default=4, validate=validate.Range(1, 1000))
    playCost = fields.Integer(load_default=None, allow_none=True)
    dp = fields.Integer(load_default=None, allow_none=True)
    rarity = fields.String(load_default=None, allow_none=True)
    effectText = fields.String(load_default="", allow_none=True)
    inheritedEffectText = fields.String(load_default="", allow_none=True)
    securityEffectText = fields.String(load_default="", allow_none=True)
    attributes = fields.List(fields.String(), load_default=list)
    forms = fields.List(fields.String(), load_default=list)

    @post_load
    def _to_row(self, data: dict, **kwargs: Any) -> dict:
        text = data["effectText"] or ""
        kind = KIND_NAMES[data["kinds"][0]]
        return make_row(
            GAME,
            number=data["cardId"].strip(),
            name=data["nameEn"].strip(),
            kind=kind,
            level=str(data["level"]) if data["level"] is not None else None,
            types=data["colors"],
            aliases=_rule_names(_ALIAS_RULE, text),
            evo_names=[],
            flags=[],
            max_copies=data["maxCountInDeck"] if data["maxCountInDeck"] != 4 else None,
            set_name=(data["set"] or "").strip() or None,
            name_ja=(data["nameJp"] or "").strip() or None,
            colors=data["colors"],
            traits=[
                *data["forms"],
                *data["attributes"],
                *data["types"],
                *_rule_names(_TRAIT_RULE, text),
            ],
            play_cost=data["playCost"] if (data["playCost"] or 0) >= 0 else None,
            dp=data["dp"] if kind == "digimon" else None,
            rarity=data["rarity"],
            text=_card_text(data),
            treated_as=_treated_as(data),
        )


def _card_text(data: dict) -> str | None:
    """The card's effects as one text, each inherited / security effect on its own line."""
    parts = [
        (label + (data[key] or "").strip()) if (data[key] or "").strip() else ""
        for key, label in (
            ("effectText", ""),
            ("inheritedEffectText", "Inherited effect: "),
            ("securityEffectText", "Security effect: "),
        )
    ]
    return "\n".join(p for p in parts if p) or None


def _treated_as(data: dict) -> str | None:
    for key in ("effectText", "inheritedEffectText", "securityEffectText"):
        found = _NUMBER_RULE.search(data[key] or "")
        if found:
            return found.group(1).upper()
    return None


def _rule_names(pattern: re.Pattern, text: str) -> list[str]:
    return [name for match in pattern.findall(text) for name in _BRACKETED.findall(match)]


def parse(content: bytes, source: str) -> list[dict]:
    try:
        data = json.loads(content)
    except UnicodeDecodeError as err:
        raise SourceFormatError(f"{source}: not UTF-8 text") from err
    except ValueError as err:
        raise SourceFormatError(
            f"{source}: not valid JSON ({err}); the file may be truncated"
        ) from err
    if isinstance(data, dict) and isinstance(data.get("cards"), list):
        data = data["cards"]
    if not isinstance(data, list):
        raise SourceFormatError(
            f"{source}: expected a JSON list of card objects, got {type(data).__name__}"
        )
    schema = DcgCardSchema()
    rows: list[tuple[str, dict]] = []
    errors: list[str] = []
    for position, item in enumerate(data, start=1):
        where = f"card #{position}"
        if not isinstance(item, dict):
            errors.append(f"{where}: not an object")
            continue
        try:
            rows.append((f"{where} ({item.get('cardId')})", schema.load(item)))
        except ValidationError as err:
            errors.append(f"{where} ({item.get('cardId', 'no cardId')}): {describe(err.messages)}")
    raise_row_errors(errors, source)
    return fold_printings(rows, source)
