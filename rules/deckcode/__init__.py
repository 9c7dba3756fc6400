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

from rules.deckcode.model import (
    CURRENT_VERSION,
    DEFAULT_LANGUAGE,
    LANGUAGES,
    PREFIX,
    CodeEntry,
    DeckCode,
    DeckCodeError,
    looks_like_deck_code,
)
from rules.deckcode.reading import decode
from rules.deckcode.writing import encode

__all__ = [
    "CURRENT_VERSION",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "PREFIX",
    "CodeEntry",
    "DeckCode",
    "DeckCodeError",
    "decode",
    "encode",
    "looks_like_deck_code",
]
