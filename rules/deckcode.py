"""`DCG...` deck codes (the Heroicc / niamu codec), decoded and encoded exactly.

Layout (spec: ../shared/data/dcg/SOURCES.md, "Deck code"): "DCG" + unpadded
base64url of a byte buffer.

    byte 0   version (high nibble); Digi-Egg entry count (low nibble; v3-4: bit 3
             is the language, bits 0-2 the count)
    byte 1   checksum: sum of the bytes from index 3 to the end of the card data
    byte 2   name length in bytes (v5: bits 7-6 language, bits 5-0 length)
    byte 3   v2+: sideboard entry count (v4+: bit 7 = an icon precedes the name)
    cards    set groups: set code, a byte of digit width and entry count, entries
             (count, parallel id, number as a delta within the group)
    name     UTF-8 (after an 8-byte icon card number when the icon bit is set)

Set-group order is not canonical, so a decoded code keeps its entries in the order
found and `encode` groups them by (set, width) in first-appearance order: decoding
a code and encoding the result gives the same code back.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

PREFIX = "DCG"
LANGUAGES = ("ja", "en", "zh-Hans", "ko")
_B36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_CODE_SHAPE = re.compile(r"^DCG[A-Za-z0-9_-]+={0,2}$")
_NUMBER = re.compile(r"^([0-9A-Z]+)-(\d+)$")
_BASE64URL = re.compile(r"^[A-Za-z0-9_-]*$")


class DeckCodeError(ValueError):
    """A code that is not a valid DCG deck code; the message says what is wrong."""


@dataclass(frozen=True)
class CodeEntry:
    number: str
    count: int
    parallel: int = 0


@dataclass(frozen=True)
class DeckCode:
    version: int
    language: str | None
    digi_eggs: tuple[CodeEntry, ...]
    deck: tuple[CodeEntry, ...]
    sideboard: tuple[CodeEntry, ...]
    name: str
    icon: str | None = None


def looks_like_deck_code(text: str) -> bool:
    return bool(_CODE_SHAPE.match(text.strip()))


class _Reader:
    def __init__(self, data: bytes, end: int) -> None:
        self.data, self.pos, self.end = data, 4, end

    def byte(self) -> int:
        if self.pos >= self.end:
            raise DeckCodeError("the code ends in the middle of its card list")
        value = self.data[self.pos]
        self.pos += 1
        return value

    def varint(self, first: int, bits: int) -> int:
        """A number whose first `bits` value bits share a byte; 7 bits per byte after."""
        value = first & ((1 << bits) - 1)
        more, shift = first & (1 << bits), bits
        while more:
            if shift > 35:
                raise DeckCodeError("a number in the code is impossibly large")
            chunk = self.byte()
            value |= (chunk & 0x7F) << shift
            more, shift = chunk & 0x80, shift + 7
        return value


def _unpack(code: str) -> bytes:
    text = code.strip()
    if not text.startswith(PREFIX):
        raise DeckCodeError("a deck code starts with DCG")
    body = text[len(PREFIX) :].rstrip("=")
    if not _BASE64URL.match(body):
        raise DeckCodeError("the code is not valid base64url (letters, digits, - and _ only)")
    try:
        return base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
    except (binascii.Error, ValueError) as err:
        raise DeckCodeError(f"the code is not valid base64url ({err})") from err


def decode(code: str) -> DeckCode:
    data = _unpack(code)
    if len(data) < 4:
        raise DeckCodeError("the code is too short")
    version = data[0] >> 4
    if version > 5:
        raise DeckCodeError(f"unknown deck code version {version}")
    if version in (3, 4):
        language: str | None = LANGUAGES[(data[0] >> 3) & 1]
        eggs = data[0] & 0x07
    else:
        language = LANGUAGES[data[2] >> 6] if version == 5 else None
        eggs = data[0] & 0x0F
    name_length = data[2] & 0x3F if version == 5 else data[2]
    side = data[3] & 0x7F if version >= 4 else (data[3] if version >= 2 else 0)
    has_icon = version >= 4 and bool(data[3] & 0x80)
    end = len(data) - name_length
    start = 4 if version >= 2 else 3
    if end < start:
        raise DeckCodeError("the name length is longer than the code")
    if sum(data[3:end]) & 0xFF != data[1]:
        raise DeckCodeError("the checksum does not match: the code is damaged or incomplete")
    entries = _read_entries(data, start, end, version)
    if eggs + side > len(entries):
        raise DeckCodeError("the code counts more Digi-Egg or side entries than it holds")
    name_bytes = data[end:]
    icon = None
    if has_icon:
        icon, name_bytes = name_bytes[:8].decode("ascii", "replace").strip(), name_bytes[8:]
    return DeckCode(
        version,
        language,
        tuple(entries[:eggs]),
        tuple(entries[eggs : len(entries) - side]),
        tuple(entries[len(entries) - side :]),
        name_bytes.decode("utf-8", "replace"),
        icon,
    )


def _read_entries(data: bytes, start: int, end: int, version: int) -> list[CodeEntry]:
    reader = _Reader(data, end)
    reader.pos = start
    entries: list[CodeEntry] = []
    while reader.pos < end:
        set_code = _read_set(reader, version)
        head = reader.byte()
        width = (head >> 6) + 1
        count = reader.varint(head & 0x3F, 5) if version >= 2 else head & 0x3F
        number = 0
        for _ in range(count):
            if version == 0:
                packed = reader.byte()
                copies, parallel = (packed >> 6) + 1, (packed >> 3) & 0x07
                number += reader.varint(packed & 0x07, 2)
            else:
                copies = reader.byte() + 1
                packed = reader.byte()
                parallel = packed >> 5
                number += reader.varint(packed & 0x1F, 4)
            entries.append(CodeEntry(f"{set_code}-{number:0{width}d}", copies, parallel))
    return entries


def _read_set(reader: _Reader, version: int) -> str:
    if version == 0:
        return bytes(reader.byte() for _ in range(4)).decode("ascii", "replace").strip()
    chars = []
    while True:
        value = reader.byte()
        if (value & 0x3F) >= len(_B36):
            raise DeckCodeError("a set code in the code has an impossible character")
        chars.append(_B36[value & 0x3F])
        if not value & 0x80:
            return "".join(chars)
        if len(chars) > 8:
            raise DeckCodeError("a set code in the code is impossibly long")


def _varint(value: int, bits: int) -> list[int]:
    first = value & ((1 << bits) - 1)
    value >>= bits
    if not value:
        return [first]
    out = [first | (1 << bits)]
    while value:
        chunk = value & 0x7F
        value >>= 7
        out.append(chunk | (0x80 if value else 0))
    return out


def _split(number: str) -> tuple[str, int, int]:
    match = _NUMBER.match(number.upper())
    if not match:
        raise DeckCodeError(f"{number!r} is not a card number a deck code can hold")
    return match.group(1), len(match.group(2)), int(match.group(2))


def _groups(entries: tuple[CodeEntry, ...]) -> list[tuple[str, int, list[tuple[int, CodeEntry]]]]:
    groups: dict[tuple[str, int], list[tuple[int, CodeEntry]]] = {}
    for entry in entries:
        set_code, width, number = _split(entry.number)
        groups.setdefault((set_code, width), []).append((number, entry))
    return [(s, w, sorted(items, key=lambda item: item[0])) for (s, w), items in groups.items()]


def _write_group(
    out: bytearray, set_code: str, width: int, items: list[tuple[int, CodeEntry]], version: int
) -> None:
    if version == 0:
        out += set_code.ljust(4)[:4].encode("ascii")
    else:
        for i, char in enumerate(set_code):
            out.append(_B36.index(char) | (0x80 if i < len(set_code) - 1 else 0))
    if version >= 2:
        head = _varint(len(items), 5)
        out.append(((width - 1) << 6) | head[0])
        out += bytes(head[1:])
    else:
        out.append(((width - 1) << 6) | len(items))
    previous = 0
    for number, entry in items:
        delta = _varint(number - previous, 2 if version == 0 else 4)
        previous = number
        if version == 0:
            out.append(((entry.count - 1) << 6) | (entry.parallel << 3) | delta[0])
        else:
            out.append(entry.count - 1)
            out.append((entry.parallel << 5) | delta[0])
        out += bytes(delta[1:])


def encode(deck: DeckCode) -> str:
    version = deck.version
    cards = bytearray()
    for entries in (deck.digi_eggs, deck.deck, deck.sideboard):
        for entry in entries:
            limit = 4 if version == 0 else 256
            if not 1 <= entry.count <= limit or not 0 <= entry.parallel <= 7:
                raise DeckCodeError(f"{entry.number}: {entry.count} copies do not fit a code")
        for set_code, width, items in _groups(entries):
            _write_group(cards, set_code, width, items, version)
    name = deck.name.encode("utf-8")
    if deck.icon:
        name = deck.icon.ljust(8)[:8].encode("ascii") + name
    language = LANGUAGES.index(deck.language) if deck.language in LANGUAGES else 1
    eggs = len(deck.digi_eggs)
    first = (version << 4) | (((language & 1) << 3 | eggs) if version in (3, 4) else eggs)
    size = (language << 6 | len(name)) if version == 5 else len(name)
    header = bytearray([first, 0, size])
    if version >= 2:
        header.append(len(deck.sideboard) | (0x80 if deck.icon else 0))
    buffer = header + cards
    buffer[1] = sum(buffer[3:]) & 0xFF
    encoded = base64.urlsafe_b64encode(bytes(buffer) + name).decode().rstrip("=")
    return PREFIX + encoded
