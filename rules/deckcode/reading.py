"""Reading a DCG deck code: base64url to bytes, the header, the set groups and their
entries, the name and icon; anything malformed is a `DeckCodeError` saying what."""

from __future__ import annotations

import base64
import binascii
import re
from typing import NamedTuple

from rules.deckcode.model import (
    BASE36,
    CURRENT_VERSION,
    ICON_SIZE,
    LANGUAGES,
    PREFIX,
    CodeEntry,
    DeckCode,
    DeckCodeError,
    header_size,
    max_eggs,
)

_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")
_V0_SET = re.compile(r"[0-9A-Z]{1,4} *")
_MAX_VARINT_SHIFT = 32


class _Header(NamedTuple):
    version: int
    language: str | None
    eggs: int
    sideboard: int
    has_icon: bool
    cards_end: int


class _Reader:
    """Reads the card data, turning a read past its end into a DeckCodeError."""

    def __init__(self, data: bytes, start: int, end: int) -> None:
        self.data, self.pos, self.end = data, start, end

    def more(self) -> bool:
        return self.pos < self.end

    def byte(self) -> int:
        if self.pos >= self.end:
            raise DeckCodeError("the code ends in the middle of its card list (truncated?)")
        self.pos += 1
        return self.data[self.pos - 1]

    def varint(self, first: int, bits: int) -> int:
        """`bits` value bits of `first` (bit `bits` = more follow), then 7 bits a byte."""
        value, more, shift = first & ((1 << bits) - 1), first >> bits & 1, bits
        while more:
            if shift > _MAX_VARINT_SHIFT:
                raise DeckCodeError("a number in the code is impossibly large")
            chunk = self.byte()
            value |= (chunk & 0x7F) << shift
            more, shift = chunk >> 7, shift + 7
        return value


def decode(code: str) -> DeckCode:
    """The deck a `DCG...` code holds; DeckCodeError (only) when it is malformed."""
    data = _unpack(code)
    header = _read_header(data)
    entries = _read_cards(_Reader(data, header_size(header.version), header.cards_end), header)
    if header.eggs + header.sideboard > len(entries):
        raise DeckCodeError(
            f"the code announces {header.eggs} Digi-Egg and {header.sideboard} sideboard "
            f"entries but holds only {len(entries)} entries"
        )
    icon, name = _read_name(data[header.cards_end :], header.has_icon)
    side_start = len(entries) - header.sideboard
    return DeckCode(
        version=header.version,
        language=header.language,
        digi_eggs=tuple(entries[: header.eggs]),
        deck=tuple(entries[header.eggs : side_start]),
        sideboard=tuple(entries[side_start:]),
        name=name,
        icon=icon,
    )


def _unpack(code: str) -> bytes:
    text = code.strip()
    if not text.startswith(PREFIX):
        raise DeckCodeError("a deck code starts with DCG")
    body = text[len(PREFIX) :].rstrip("=")
    if not _BASE64URL.fullmatch(body):
        raise DeckCodeError("after DCG a deck code has only letters, digits, - and _ (base64url)")
    try:
        return base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError) as err:
        raise DeckCodeError(f"the code is not valid base64url ({err})") from err


def _read_header(data: bytes) -> _Header:
    if len(data) < 3:
        raise DeckCodeError("the code is too short to hold a deck")
    version = data[0] >> 4
    if version > CURRENT_VERSION:
        raise DeckCodeError(f"unknown deck code version {version} (known: 0-{CURRENT_VERSION})")
    if len(data) < header_size(version):
        raise DeckCodeError("the code is too short to hold a deck")
    side_byte = data[3] if version >= 2 else 0
    name_length = data[2] & 0x3F if version >= 5 else data[2]
    cards_end = len(data) - name_length
    if cards_end < header_size(version):
        raise DeckCodeError("the code's name length is longer than the code itself")
    if sum(data[3:cards_end]) & 0xFF != data[1]:
        raise DeckCodeError("the checksum does not match: the code is damaged or incomplete")
    return _Header(
        version=version,
        language=_read_language(data, version),
        eggs=data[0] & max_eggs(version),
        sideboard=side_byte & 0x7F if version >= 4 else side_byte,
        has_icon=version >= 4 and bool(side_byte & 0x80),
        cards_end=cards_end,
    )


def _read_language(data: bytes, version: int) -> str | None:
    if version < 3:
        return None
    return LANGUAGES[data[2] >> 6] if version >= 5 else LANGUAGES[data[0] >> 3 & 1]


def _read_cards(reader: _Reader, header: _Header) -> list[CodeEntry]:
    entries: list[CodeEntry] = []
    while reader.more():
        set_code = _read_set(reader, header.version)
        head = reader.byte()
        width = (head >> 6) + 1
        size = reader.varint(head & 0x3F, 5) if header.version >= 2 else head & 0x3F
        number = 0
        for _ in range(size):
            entry, number = _read_entry(reader, header.version, set_code, width, number)
            entries.append(entry)
    return entries


def _read_set(reader: _Reader, version: int) -> str:
    if version == 0:
        raw = bytes(reader.byte() for _ in range(4)).decode("latin-1")
        if not _V0_SET.fullmatch(raw):
            raise DeckCodeError(f"the set code {raw!r} in the code is not a set code")
        return raw.rstrip(" ")
    chars = []
    more = True
    while more:
        value = reader.byte()
        if value & 0x7F >= len(BASE36):
            raise DeckCodeError("a set code in the code holds an impossible character")
        chars.append(BASE36[value & 0x7F])
        more = bool(value & 0x80)
    return "".join(chars)


def _read_entry(
    reader: _Reader, version: int, set_code: str, width: int, previous: int
) -> tuple[CodeEntry, int]:
    if version == 0:
        packed = reader.byte()
        copies, parallel = (packed >> 6) + 1, packed >> 3 & 0x07
        number = previous + reader.varint(packed, 2)
    else:
        copies = reader.byte() + 1
        packed = reader.byte()
        parallel = packed >> 5
        number = previous + reader.varint(packed, 4)
    if number >= 10**width:
        raise DeckCodeError(
            f"card number {set_code}-{number} has more than the {width} digits its set allows"
        )
    return CodeEntry(f"{set_code}-{number:0{width}d}", copies, parallel), number


def _read_name(raw: bytes, has_icon: bool) -> tuple[str | None, str]:
    if not has_icon:
        return None, raw.decode("utf-8", "replace")
    if len(raw) < ICON_SIZE:
        raise DeckCodeError("the code flags an icon but its name is too short to hold one")
    try:
        icon = raw[:ICON_SIZE].decode("ascii")
    except UnicodeDecodeError as err:
        raise DeckCodeError("the code's icon is not a card number") from err
    return icon.rstrip(" "), raw[ICON_SIZE:].decode("utf-8", "replace")
