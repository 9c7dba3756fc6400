"""`DCG...` deck codes (Bandai Digimon Card Game; the Heroicc / niamu codec).

Spec: ../shared/data/dcg/SOURCES.md, section "Deck code ("DCG…", Heroicc / niamu
codec) – spec", checked against dcg_deckcode_test_vectors.json next to it.

A code is "DCG" + unpadded base64url of this byte buffer:

    byte 0   version (high nibble) | Digi-Egg entry count (low nibble;
             v3-4: bit 3 = language ja/en, bits 0-2 = count)
    byte 1   checksum: sum of bytes 3 .. end of card data, low 8 bits
    byte 2   name length in bytes (v5: bits 7-6 = language, bits 5-0 = length)
    byte 3   v2+: sideboard entry count (v4+: bit 7 = an icon precedes the name)
    cards    set groups: set code (v0: 4 ASCII bytes; v1+: base-36 chars, bit 7 =
             more), a byte (digit width - 1) << 6 | entry count, then the entries
             (copies, parallel id, number as a varint delta from the previous one)
    name     UTF-8, after an 8-byte space-padded icon card number if flagged

Eggs, main deck and sideboard are written one after the other, each as its own
groups; the counts in bytes 0 and 3 split the flat entry list back into the three.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import NamedTuple

PREFIX = "DCG"
CURRENT_VERSION = 5
LANGUAGES = ("ja", "en", "zh-Hans", "ko")
DEFAULT_LANGUAGE = "en"
ICON_SIZE = 8

_BASE36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_CODE_SHAPE = re.compile(r"DCG[A-Za-z0-9_-]+={0,2}")
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")
_NUMBER = re.compile(r"([0-9A-Z]+)-([0-9]{1,4})")
_V0_SET = re.compile(r"[0-9A-Z]{1,4} *")
_MAX_VARINT_SHIFT = 32


class DeckCodeError(ValueError):
    """Not a readable (or writable) DCG deck code; the message says what is wrong."""


@dataclass(frozen=True)
class CodeEntry:
    """One entry of a code: `count` copies of one printing (`parallel` 0 = normal art,
    n = the `_Pn` alternate art)."""

    number: str
    count: int
    parallel: int = 0


@dataclass(frozen=True)
class DeckCode:
    """A decoded deck code.

    `language` is one of LANGUAGES for versions 3+ and None before (those codes carry
    none). `icon` is the card number shown as the deck's icon (versions 4+).

    Entry order is what makes re-encoding exact. The spec leaves the order of set
    groups open (the Clojure encoder writes them in hash-map order), so `decode` keeps
    entries in the order the code holds them and `encode` writes each list as set
    groups keyed by (set, digit width) in order of first appearance, entries inside a
    group by ascending number, ties keeping their order. Any code that holds each
    group once per list, with minimal varints and a UTF-8 name, thus re-encodes to
    itself byte for byte; entries built by hand may come in any order.
    """

    version: int
    language: str | None
    digi_eggs: tuple[CodeEntry, ...]
    deck: tuple[CodeEntry, ...]
    sideboard: tuple[CodeEntry, ...]
    name: str
    icon: str | None = None

    @classmethod
    def new(
        cls,
        deck: tuple[CodeEntry, ...],
        digi_eggs: tuple[CodeEntry, ...] = (),
        sideboard: tuple[CodeEntry, ...] = (),
        name: str = "",
        icon: str | None = None,
    ) -> DeckCode:
        """A code in the current format (version 5, English), the default for new codes."""
        return cls(CURRENT_VERSION, DEFAULT_LANGUAGE, digi_eggs, deck, sideboard, name, icon)


def looks_like_deck_code(text: str) -> bool:
    """Cheap shape test, so callers can route input without decoding it."""
    return _CODE_SHAPE.fullmatch(text.strip()) is not None


# --- per-version limits -------------------------------------------------------------


def _header_size(version: int) -> int:
    return 4 if version >= 2 else 3


def _max_eggs(version: int) -> int:
    return 7 if version in (3, 4) else 15


def _max_sideboard(version: int) -> int:
    if version < 2:
        return 0
    return 255 if version < 4 else 127


def _max_name_bytes(version: int) -> int:
    return 63 if version >= 5 else 255


def _max_copies(version: int) -> int:
    return 4 if version == 0 else 256


def _languages(version: int) -> tuple[str, ...]:
    if version < 3:
        return ()
    return LANGUAGES if version >= 5 else LANGUAGES[:2]


# --- decoding -----------------------------------------------------------------------


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
    entries = _read_cards(_Reader(data, _header_size(header.version), header.cards_end), header)
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
    if len(data) < _header_size(version):
        raise DeckCodeError("the code is too short to hold a deck")
    side_byte = data[3] if version >= 2 else 0
    name_length = data[2] & 0x3F if version >= 5 else data[2]
    cards_end = len(data) - name_length
    if cards_end < _header_size(version):
        raise DeckCodeError("the code's name length is longer than the code itself")
    if sum(data[3:cards_end]) & 0xFF != data[1]:
        raise DeckCodeError("the checksum does not match: the code is damaged or incomplete")
    return _Header(
        version=version,
        language=_read_language(data, version),
        eggs=data[0] & _max_eggs(version),
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
        if value & 0x7F >= len(_BASE36):
            raise DeckCodeError("a set code in the code holds an impossible character")
        chars.append(_BASE36[value & 0x7F])
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


# --- encoding -----------------------------------------------------------------------

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
    if eggs > _max_eggs(version):
        raise DeckCodeError(f"a version {version} code holds at most {_max_eggs(version)} eggs")
    if side > _max_sideboard(version):
        raise DeckCodeError(
            f"a version {version} code holds at most {_max_sideboard(version)} sideboard entries"
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
    allowed = _languages(deck.version)
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
    room = _max_name_bytes(deck.version) - len(prefix)
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
    if not 1 <= entry.count <= _max_copies(version):
        raise DeckCodeError(
            f"{entry.number}: a version {version} code holds 1 to {_max_copies(version)} "
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
        out += bytes(_BASE36.index(c) | (0x80 if i < last else 0) for i, c in enumerate(set_code))
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
