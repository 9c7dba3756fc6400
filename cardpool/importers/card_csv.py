"""The deckcheck card CSV (contract): one card per row, every game."""

from __future__ import annotations

import csv
import io
from typing import Any

from marshmallow import EXCLUDE, Schema, ValidationError, fields, post_load, validates_schema
from marshmallow.validate import Length

from cardpool.cards import make_row
from cardpool.errors import SourceFormatError
from cardpool.importers.common import describe, fold_printings, raise_row_errors
from rules.games import GAMES
from rules.numbers import looks_like_number

REQUIRED_COLUMNS = ("number", "kind")


def _items(text: str) -> list[str]:
    return [item.strip() for item in text.split(";") if item.strip()]


class CardCsvRowSchema(Schema):
    """One row of the deckcheck card CSV; `game` decides the allowed kinds and levels."""

    class Meta:
        unknown = EXCLUDE

    number = fields.String(required=True, validate=Length(min=1, max=40))
    name = fields.String(load_default="", validate=Length(max=200))
    kind = fields.String(required=True)
    level = fields.String(load_default="")
    types = fields.String(load_default="")
    aliases = fields.String(load_default="")
    evo_names = fields.String(load_default="")
    flags = fields.String(load_default="")
    max_copies = fields.String(load_default="")
    set = fields.String(load_default="")
    name_ja = fields.String(load_default="")
    # Optional columns a fuller list may carry; the contract's CSV ignores unknown ones.
    colors = fields.String(load_default="")
    traits = fields.String(load_default="")
    cost = fields.String(load_default="")
    dp = fields.String(load_default="")
    text = fields.String(load_default="", validate=Length(max=4000))
    # DCG: the number this printing is also treated as (copy limit and lists shared).
    treated_as = fields.String(load_default="", validate=Length(max=40))
    rarity = fields.String(load_default="", validate=Length(max=20))

    def __init__(self, game: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = game

    @validates_schema
    def _check_vocabulary(self, data: dict, **kwargs: Any) -> None:
        errors = {}
        game = GAMES[self.game]
        if data["kind"].strip().lower() not in game.kinds:
            errors["kind"] = f"{data['kind']!r} is not one of {', '.join(game.kinds)}"
        level = data.get("level", "").strip()
        if level and game.canonical_level(level) is None:
            errors["level"] = f"{level!r} is not one of {', '.join(game.levels)}"
        unknown = [f for f in _items(data.get("flags", "")) if f.lower() not in game.flags]
        if unknown:
            errors["flags"] = f"unknown flag(s) {', '.join(unknown)}"
        copies = data.get("max_copies", "").strip()
        # Length first: int() of a 5,000-digit string is an error (and slow), not a number.
        if copies and not (copies.isdigit() and len(copies) <= 4 and 1 <= int(copies) <= 1000):
            errors["max_copies"] = f"{copies!r} is not a whole number from 1 to 1000"
        for column in ("cost", "dp"):
            value = data.get(column, "").strip()
            if value and not (value.isdigit() and len(value) <= 6):
                errors[column] = f"{value!r} is not a whole number"
        if not data["number"].strip():
            errors["number"] = "empty"
        shared = data.get("treated_as", "").strip()
        if shared and not looks_like_number(shared):
            errors["treated_as"] = f"{shared!r} is not a card number"
        if errors:
            raise ValidationError(errors)

    @post_load
    def _to_row(self, data: dict, **kwargs: Any) -> dict:
        types = _items(data["types"])
        copies = data["max_copies"].strip()
        return make_row(
            self.game,
            number=data["number"].strip(),
            name=data["name"].strip(),
            kind=data["kind"].strip().lower(),
            level=GAMES[self.game].canonical_level(data["level"]),
            types=types,
            aliases=_items(data["aliases"]),
            evo_names=_items(data["evo_names"]),
            flags=[f.lower() for f in _items(data["flags"])],
            max_copies=int(copies) if copies else None,
            set_name=data["set"].strip() or None,
            name_ja=data["name_ja"].strip() or None,
            colors=_items(data["colors"]) or [t for t in types if t in GAMES[self.game].colors],
            traits=_items(data["traits"]),
            play_cost=_whole(data["cost"]),
            dp=_whole(data["dp"]),
            rarity=data["rarity"].strip() or None,
            text=data["text"].strip() or None,
            treated_as=data["treated_as"].strip() or None,
        )


def _whole(text: str) -> int | None:
    return int(text) if text.strip() else None


def parse(game: str, content: bytes, source: str) -> list[dict]:
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise SourceFormatError(f"{source}: not UTF-8 text (byte {err.start})") from err
    # Leading `#` lines are comments (the bundled starter pool marks its origin there).
    lines = text.splitlines(keepends=True)
    skipped = next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))
    reader = csv.DictReader(io.StringIO("".join(lines[skipped:]), newline=""))
    header = [h.strip() for h in reader.fieldnames or []]
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise SourceFormatError(
            f"{source}: not a deckcheck card CSV: missing column(s) {', '.join(missing)} "
            f"in the header row"
        )
    reader.fieldnames = header
    schema = CardCsvRowSchema(game)
    rows: list[tuple[str, dict]] = []
    errors: list[str] = []
    try:
        for record in reader:
            where = f"line {reader.line_num + skipped}"
            if None in record:
                errors.append(f"{where}: more fields than the header has")
                continue
            clean = {k: (v or "") for k, v in record.items()}
            try:
                rows.append((where, schema.load(clean)))
            except ValidationError as err:
                label = clean.get("number") or "no number"
                errors.append(f"{where} (card {label}): {describe(err.messages)}")
    except csv.Error as err:
        raise SourceFormatError(f"{source}, line {reader.line_num}: broken CSV ({err})") from err
    raise_row_errors(errors, source)
    return fold_printings(rows, source)
