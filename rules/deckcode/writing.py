"""Writing a DCG deck code: entries grouped by set and digit width, numbers as varint
deltas, the header with its checksum, the name (and icon), then base64url."""

from __future__ import annotations

import base64
import re

from rules.deckcode.model import (
    BASE36,
    CURRENT_VERSION,
    DEFAULT_LANGUAGE,
    ICON_SIZE,
    PREFIX,
    CodeEntry,
    DeckCode,
    DeckCodeError,
    languages_of,
    max_copies,
    max_eggs,
    max_name_bytes,
    max_sideboard,
)

_NUMBER = re.compile(r"([0-9A-Z]+)-([0-9]{1,4})")
_Group = tuple[str, int, list[tuple[int, CodeEntry]]]


def encode(deck: DeckCode) -> str:
    """The `DCG...` code for `deck` (entry order: see DeckCode).

    A name too long for the format is cut at a character boundary; anything else
    the format cannot hold raises DeckCodeError.
    """
    version = deck.version
    if not 0 <= version <= CURRENT_VERSION:
        raise DeckCodeError(f"unknown deck code version {version} (known: 0-{CURRENT_VERSION})")
    name = _name_bytes(deck)
    cards = bytearray()
    for entries in (deck.digi_eggs, deck.deck, deck.sideboard):
        for group in _groups(entries, version):
            _write_group(cards, group, version)
    buffer = _header_bytes(deck, len(name)) + cards
    buffer[1] = sum(buffer[3:]) & 0xFF
    return PREFIX + base64.urlsafe_b64encode(bytes(buffer) + name).decode("ascii").rstrip("=")


def _header_bytes(deck: DeckCode, name_length: int) -> bytearray:
    version, eggs, side = deck.version, len(deck.digi_eggs), len(deck.sideboard)
    if eggs > max_eggs(version):
        raise DeckCodeError(f"a version {version} code holds at most {max_eggs(version)} eggs")
    if side > max_sideboard(version):
        raise DeckCodeError(
            f"a version {version} code holds at most {max_sideboard(version)} sideboard entries"
        )
    language = _language_index(deck)
    first = version << 4 | eggs
    if version in (3, 4):
        first |= language << 3
    size = language << 6 | name_length if version >= 5 else name_length
    header = bytearray([first, 0, size])
    if version >= 2:
        header.append(side | (0x80 if deck.icon is not None else 0))
    return header


def _language_index(deck: DeckCode) -> int:
    allowed = languages_of(deck.version)
    if not allowed:
        if deck.language is not None:
            raise DeckCodeError(f"version {deck.version} codes carry no language")
        return 0
    language = deck.language or DEFAULT_LANGUAGE
    if language not in allowed:
        raise DeckCodeError(
            f"version {deck.version} codes hold the languages {', '.join(allowed)}, "
            f"not {language!r}"
        )
    return allowed.index(language)


def _name_bytes(deck: DeckCode) -> bytes:
    prefix = b""
    if deck.icon is not None:
        if deck.version < 4:
            raise DeckCodeError(f"version {deck.version} codes have no icon (versions 4+ do)")
        if not deck.icon.isascii() or len(deck.icon) > ICON_SIZE:
            raise DeckCodeError(f"the icon {deck.icon!r} is not a card number of 8 characters")
        prefix = deck.icon.ljust(ICON_SIZE).encode("ascii")
    room = max_name_bytes(deck.version) - len(prefix)
    name = deck.name.encode("utf-8")[:room].decode("utf-8", "ignore").encode("utf-8")
    return prefix + name


def _groups(entries: tuple[CodeEntry, ...], version: int) -> list[_Group]:
    """Entries grouped by (set, digit width) in first-appearance order, numbers ascending."""
    groups: dict[tuple[str, int], list[tuple[int, CodeEntry]]] = {}
    for entry in entries:
        set_code, width, number = _split_number(entry, version)
        groups.setdefault((set_code, width), []).append((number, entry))
    return [(s, w, sorted(items, key=lambda item: item[0])) for (s, w), items in groups.items()]


def _split_number(entry: CodeEntry, version: int) -> tuple[str, int, int]:
    match = _NUMBER.fullmatch(entry.number.strip().upper())
    if match is None:
        raise DeckCodeError(f"{entry.number!r} is not a card number a deck code can hold")
    set_code, digits = match.groups()
    if version == 0 and len(set_code) > 4:
        raise DeckCodeError(f"a version 0 code cannot hold the set code {set_code!r}")
    if not 1 <= entry.count <= max_copies(version):
        raise DeckCodeError(
            f"{entry.number}: a version {version} code holds 1 to {max_copies(version)} "
            f"copies per entry, not {entry.count}"
        )
    if not 0 <= entry.parallel <= 7:
        raise DeckCodeError(f"{entry.number}: parallel id {entry.parallel} is not 0 to 7")
    return set_code, len(digits), int(digits)


def _write_group(out: bytearray, group: _Group, version: int) -> None:
    set_code, width, items = group
    if version == 0:
        out += set_code.ljust(4).encode("ascii")
    else:
        last = len(set_code) - 1
        out += bytes(BASE36.index(c) | (0x80 if i < last else 0) for i, c in enumerate(set_code))
    if version < 2 and len(items) > 0x3F:
        raise DeckCodeError(f"a version {version} code holds at most 63 entries of set {set_code}")
    size = _varint(len(items), 5) if version >= 2 else [len(items)]
    out += bytes([(width - 1) << 6 | size[0], *size[1:]])
    previous = 0
    for number, entry in items:
        delta, previous = number - previous, number
        if version == 0:
            chunks = _varint(delta, 2)
            out += bytes([(entry.count - 1) << 6 | entry.parallel << 3 | chunks[0], *chunks[1:]])
        else:
            chunks = _varint(delta, 4)
            out += bytes([entry.count - 1, entry.parallel << 5 | chunks[0], *chunks[1:]])


def _varint(value: int, bits: int) -> list[int]:
    """`value` as a first chunk of `bits` bits (+ more-bit), then 7-bit chunks."""
    chunks = [value & ((1 << bits) - 1)]
    value >>= bits
    while value:
        chunks[-1] |= 1 << bits if len(chunks) == 1 else 0x80
        chunks.append(value & 0x7F)
        value >>= 7
    return chunks
