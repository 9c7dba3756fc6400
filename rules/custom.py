"""Organizer-defined formats: small TOML files over a built-in format (contract).

    id = "dcg-sealed"
    name = "DCG sealed (40 cards, no copy limit)"
    extends = "dcg"
    main_size = 40
    copy_limit = "none"

A file that does not parse, uses an unknown key or a built-in id is reported and
skipped; it never stops the service. So is a file that breaks the contract's limits
("Limits"): over MAX_FILE_BYTES, nested deeper than MAX_DEPTH, a value not of its
documented type, or a list of more than MAX_LIST card numbers. Checked when the file
is loaded, so nothing later (a request, a page) meets a value it cannot use.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

from rules.checks import (
    BannedCards,
    CopyLimit,
    DeckSize,
    KindTotalLimit,
    NameLimit,
    RestrictedCards,
)
from rules.format import Format
from rules.games import has_products
from rules.lists import BANNED, RESTRICTED, CardRef, Change, ListHistory
from rules.nesting import MAX_DEPTH, bracket_depth, value_depth
from rules.products import dcg_products
from rules.sets import parse_set_code

KEYS = {
    # The README's table of keys is generated from these (tests/test_docs.py holds it to them).
    "id": "the new format's id: lower-case letters, digits and dashes, not a built-in id",
    "name": "display name",
    "extends": "the format it starts from (a built-in id, or the id of a file that sorts earlier)",
    "description": "a sentence shown on the format's page",
    "main_size": "exact size of the main deck (DBE: main deck + Destiny Zone)",
    "min_main_size": "smallest allowed main deck (with or without `max_main_size`)",
    "max_main_size": "largest allowed main deck",
    "copy_limit": (
        'a number or `"none"`: replaces the copy rule (per card number; DMCG per name; DBE '
        "for every kind). A card's own `max_copies` rule (the DCG 50-copy cards) still applies"
    ),
    "allow_duplicates": '`true` is the same as `copy_limit = "none"`',
    "banned": 'card numbers added to the banned list, e.g. `["BT1-010"]`',
    "restricted": "card numbers added to the restricted-to-1 list",
    "date": ('the lists are taken as of this date (`"2025-06-01"`), whatever date a request gives'),
    "early": (
        'DCG: product codes legal early, e.g. `["BT24"]` for a pre-release event: their '
        "cards count as released from `early_from`"
    ),
    "early_from": 'the day `early` products count from (`"2026-01-17"`; default: any day)',
}
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")
MAX_FILE_BYTES = 64 * 1024
MAX_LIST = 5000
MAX_NUMBER = 64  # characters of one card number (the longest real ones have ~12)
MAX_TEXT = 500  # characters of a name or a description


class FormatFileError(ValueError):
    """A format file that cannot be used; the message says why."""


@dataclass(frozen=True)
class LoadedFormats:
    formats: dict[str, Format]
    errors: list[dict]


def load_dir(folder: Path | None, built_in: dict[str, Format]) -> LoadedFormats:
    """Every `*.toml` of `folder`, in name order, over the built-in formats."""
    formats = dict(built_in)
    errors: list[dict] = []
    if folder is None or not folder.is_dir():
        return LoadedFormats(formats, errors)
    for path in sorted(folder.glob("*.toml")):
        try:
            fmt = build(parse(path.read_bytes()), formats, built_in, path.name)
        except (FormatFileError, OSError) as err:
            errors.append({"file": path.name, "message": str(err)})
            continue
        formats[fmt.id] = fmt
    return LoadedFormats(formats, errors)


def parse(data: bytes) -> dict:
    """A format file's bytes as TOML, within the size and nesting limits."""
    if len(data) > MAX_FILE_BYTES:
        raise FormatFileError(f"larger than {MAX_FILE_BYTES // 1024} KB, skipped")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise FormatFileError(f"not UTF-8 text: {err}") from err
    # Brackets are counted before the parser sees them: tomllib recurses once per
    # level, and a file nested 1,000 deep would hit Python's recursion limit.
    if bracket_depth(text) > MAX_DEPTH:
        raise FormatFileError(f"nested more than {MAX_DEPTH} deep, skipped")
    try:
        loaded = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise FormatFileError(f"not valid TOML: {err}") from err
    except RecursionError as err:  # the count above is an upper bound; never rely on it alone
        raise FormatFileError(f"nested more than {MAX_DEPTH} deep, skipped") from err
    # Dotted keys and table headers nest without brackets: the parsed value is measured too.
    if value_depth(loaded) > MAX_DEPTH:
        raise FormatFileError(f"nested more than {MAX_DEPTH} deep, skipped")
    return loaded


def build(data: dict, known: dict[str, Format], built_in: dict[str, Format], file: str) -> Format:
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise FormatFileError(f"unknown key(s) {', '.join(unknown)}; see the README for the keys")
    fid = _text(data, "id", required=True)
    if not _ID.match(fid):
        raise FormatFileError(f"id {fid!r} must be lower-case letters, digits and dashes")
    if fid in built_in:
        raise FormatFileError(f"id {fid!r} is a built-in format; choose another id")
    if fid in known:
        raise FormatFileError(f"id {fid!r} is already defined by another file")
    base_id = _text(data, "extends", required=True)
    if base_id not in known:
        raise FormatFileError(f"extends {base_id!r}, which is not a known format")
    base = known[base_id]
    fmt = replace(
        base,
        id=fid,
        name=_text(data, "name") or fid,
        extends=base_id,
        origin=f"organizer file {file}",
        notes=tuple(filter(None, [_text(data, "description")])),
    )
    fmt = _apply_size(fmt, data, file)
    fmt = _apply_copy_limit(fmt, data, file)
    fmt = _apply_lists(fmt, data, file)
    if "date" in data:
        fmt = replace(fmt, date=_date(data["date"]))
    return _apply_early(fmt, data)


def _text(data: dict, key: str, required: bool = False) -> str:
    value = data.get(key)
    if value is None:
        if required:
            raise FormatFileError(f"the key {key!r} is required")
        return ""
    if not isinstance(value, str) or not value.strip():
        raise FormatFileError(f"{key} must be a non-empty string")
    if len(value) > MAX_TEXT:
        raise FormatFileError(f"{key} is longer than {MAX_TEXT} characters")
    return value.strip()


def _size(data: dict, key: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1000:
        raise FormatFileError(f"{key} must be a whole number from 1 to 1000")
    return value


def _own_rule(file: str, data: dict, *keys: str) -> str:
    """Where an organizer's change to a rule is written: its file and its keys, so a
    violation never cites the rule it replaced (`at most 3 cards` for a limit of 1)."""
    said = ", ".join(f"{key} = {_toml(data[key])}" for key in keys if key in data)
    return f"organizer file {file} ({said}): this event's own rule"


def _toml(value: object) -> str:
    """A value as the organizer wrote it in TOML (`true`, `"none"`, `40`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return f'"{value}"' if isinstance(value, str) else str(value)


def _apply_size(fmt: Format, data: dict, file: str) -> Format:
    exact, low, high = (_size(data, k) for k in ("main_size", "min_main_size", "max_main_size"))
    if exact is None and low is None and high is None:
        return fmt
    if exact is not None and (low is not None or high is not None):
        raise FormatFileError("use main_size, or min_main_size / max_main_size, not both")
    if low is not None and high is not None and low > high:
        raise FormatFileError("min_main_size is larger than max_main_size")
    current = fmt.check_of("deck-size")
    if not isinstance(current, DeckSize):
        raise FormatFileError(f"{fmt.extends} has no deck size to change")
    rule = _own_rule(file, data, "main_size", "min_main_size", "max_main_size")
    sized = replace(current, exact=exact, minimum=low, maximum=high, rule=rule)
    return fmt.with_check("deck-size", sized)


def _copy_limit(data: dict) -> int | None | bool:
    """The new limit; None for "no limit"; False when the file does not change it."""
    duplicates = data.get("allow_duplicates")
    if duplicates is not None and not isinstance(duplicates, bool):
        raise FormatFileError("allow_duplicates must be true or false")
    limit = data.get("copy_limit")
    if limit is None:
        return None if duplicates else False
    if limit == "none":
        return None
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1000:
        raise FormatFileError('copy_limit must be a whole number from 1 to 1000 or "none"')
    if duplicates:
        raise FormatFileError("allow_duplicates = true and a numeric copy_limit disagree")
    return limit


def _apply_copy_limit(fmt: Format, data: dict, file: str) -> Format:
    limit = _copy_limit(data)
    if limit is False:
        return fmt
    rule = _own_rule(file, data, "copy_limit", "allow_duplicates")
    names = fmt.check_of("name-limit")
    if isinstance(names, NameLimit):
        return fmt.with_check("name-limit", replace(names, limit=limit, rule=rule))
    copies = fmt.check_of("copy-limit")
    if not isinstance(copies, CopyLimit):
        raise FormatFileError(f"{fmt.extends} has no copy limit to change")
    fmt = _totals_count_one_card(fmt)
    if limit is None:
        return fmt.with_check("copy-limit", None)
    limited = replace(copies, default=limit, by_kind={}, by_flag={}, rule=rule)
    return fmt.with_check("copy-limit", limited)


def _totals_count_one_card(fmt: Format) -> Format:
    """A kind's total (DBE: 1 Ace a deck) leaves copies of one card to the copy limit,
    which says the same (Ace: 1 copy). A file that changes the copy limit takes that
    away, so the total judges one card's copies again (2 copies of one Ace: over)."""
    checks = tuple(
        replace(c, one_card=True) if isinstance(c, KindTotalLimit) else c for c in fmt.checks
    )
    return replace(fmt, checks=checks)


def _numbers(data: dict, key: str) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(
        isinstance(v, str) and v.strip() and len(v) <= MAX_NUMBER for v in value
    ):
        raise FormatFileError(f'{key} must be a list of card numbers, e.g. ["BT1-010"]')
    if len(value) > MAX_LIST:
        raise FormatFileError(f"{key} lists {len(value)} card numbers; at most {MAX_LIST}")
    return [v.strip() for v in value]


def _apply_lists(fmt: Format, data: dict, file: str) -> Format:
    limits = [(CardRef(n), BANNED) for n in _numbers(data, "banned")]
    limits += [(CardRef(n), RESTRICTED) for n in _numbers(data, "restricted")]
    if not limits:
        return fmt
    change = Change(date.min, limits=tuple(limits), sources=(f"organizer file {file}",))
    lists = fmt.lists.with_extra([change]) if fmt.lists else ListHistory([change])
    fmt = replace(fmt, lists=lists)
    for check in (BannedCards(), RestrictedCards()):
        if fmt.check_of(check.code) is None:
            fmt = fmt.with_check(check.code, check)
    return fmt


def _date(value: object) -> date:
    # A TOML date-time is a datetime, itself a date: exactly a date is asked for, since
    # comparing a datetime with a request's date raises (a 500 on every validate).
    if type(value) is date:
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value)
        except ValueError:
            pass
    raise FormatFileError(f"date {str(value)[:40]!r} is not a date like 2024-03-01")


def early_codes(value: object, where: str = "early") -> tuple[str, ...]:
    """Product codes as organizers write them (`BT24`, `bt-24`) in their set-code form
    (`BT24`); each must be a product deckcheck knows (`GET /api/v1/formats/dcg/products`)."""
    if not isinstance(value, list) or not value or len(value) > 20:
        raise FormatFileError(f'{where} must be a list of 1 to 20 product codes, e.g. ["BT24"]')
    products = dcg_products()
    codes = []
    for item in value:
        found = parse_set_code(item.strip().replace("-", "", 1)) if isinstance(item, str) else None
        if found is None or found.code not in products.by_code:
            raise FormatFileError(
                f"{where}: {str(item)[:40]!r} is not a DCG product deckcheck knows"
            )
        codes.append(found.code)
    return tuple(dict.fromkeys(codes))


def _apply_early(fmt: Format, data: dict) -> Format:
    if "early" not in data:
        if "early_from" in data:
            raise FormatFileError("early_from needs early (the products legal early)")
        return fmt
    if not has_products(fmt.game):
        raise FormatFileError("early is for DCG formats (products with release dates)")
    start = _date(data["early_from"]) if "early_from" in data else None
    return replace(fmt, early=early_codes(data["early"]), early_from=start)
