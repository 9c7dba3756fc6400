"""Names as the contract reads them (section "Events"): player, player_id and event names
are normalised before they are stored or compared, so that `"  CAROL "`, `"Car\\u200bol"`
and `"carol"` are one player, and a blank or invisible name is refused.

normalise: NFKC, the invisible and bidirectional control characters removed, runs of white
space made one space, trimmed. Two names are the same player when their `fold`s are equal.
A name that is empty after that, or holds a NUL or another control character, is refused.

A stored list is at most MAX_LIST_BYTES, whichever product keeps it (`check_list_size`).
"""

from __future__ import annotations

import json
import re
import unicodedata

from deckcheck.errors import ApiError

PLAYER_MAX, PLAYER_ID_MAX, EVENT_MAX = 100, 100, 200
MAX_LIST_BYTES = 64 * 1024
# Case-folding grows a character into at most 3 ("ß" -> "ss", "ΐ" -> 3): a stored key
# is sized for that, so PostgreSQL (which checks lengths) and SQLite (which does not)
# accept the same names.
FOLD_GROWTH = 3

# Characters that show nothing: zero-width spaces and joiners, bidirectional embeddings,
# overrides and isolates, the byte order mark, and the fillers and joiners that pass for
# blanks (soft hyphen, Hangul fillers, Mongolian vowel separator, variation selectors).
INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\U000e0000-\U000e007f]"
)
# Control characters (C0, DEL, C1) other than white space (tab, newline... are white
# space and become one space), and lone surrogates (no text can hold them).
FORBIDDEN = re.compile(
    "[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\ud800-\udfff]"
)  # fmt: skip


class FieldError(ApiError):
    """A 422 for one field, in the shape the schemas' errors have."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(
            422,
            "invalid-request",
            "Some fields are missing or wrong.",
            {"fields": {field: [message]}},
        )


def normalise(text: str) -> str:
    """NFKC, invisible characters removed, white space collapsed, trimmed (idempotent:
    the invisible characters go before and after NFKC, which can make new ones)."""
    text = INVISIBLE.sub("", unicodedata.normalize("NFKC", INVISIBLE.sub("", text)))
    return " ".join(text.split())


def fold(name: str) -> str:
    """The form two names are compared in: case-folded, then NFKC again (folding can
    leave a string that is not in normal form)."""
    return unicodedata.normalize("NFKC", name.casefold())


def clean(field: str, value: object, limit: int, required: bool = True) -> str:
    """The normalised name of a request field, or a 422 that says what is wrong."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise FieldError(field, "Not a text.")
    # Before any work: a name is short, and a megabyte of it must not be normalised.
    if len(value) > limit * 20:
        raise FieldError(field, f"At most {limit} characters.")
    if FORBIDDEN.search(value):
        raise FieldError(field, "Holds a control character (such as NUL); write it without.")
    name = normalise(value)
    if FORBIDDEN.search(name):
        raise FieldError(field, "Holds a control character (such as NUL); write it without.")
    if required and not name:
        raise FieldError(field, "Empty: write a name with at least one visible character.")
    if not name and value.strip():
        # Left blank, an optional name is no name; written with invisible characters
        # only, it is a name nobody can read (contract: empty after normalising: 422).
        raise FieldError(
            field, "Only invisible characters: write at least one visible one, or leave it out."
        )
    if len(name) > limit:
        raise FieldError(field, f"At most {limit} characters.")
    return name


def text_field(field: str, value: object, limit: int) -> str:
    """A free text (an event's description): any line breaks, no other control
    character, at most `limit` characters after trimming."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise FieldError(field, "Not a text.")
    if FORBIDDEN.search(value):
        raise FieldError(field, "Holds a control character (such as NUL); write it without.")
    value = value.strip()
    if len(value) > limit:
        raise FieldError(field, f"At most {limit} characters.")
    return value


def player_key(player: str, player_id: str) -> str:
    """Who a submission belongs to: the id when given, else the name; both folded."""
    if player_id:
        return "id:" + fold(player_id)
    return "name:" + fold(player)


KEY_MAX = len("name:") + FOLD_GROWTH * max(PLAYER_MAX, PLAYER_ID_MAX)

# Ids the service makes (secrets.token_urlsafe): anything else is no event or submission,
# answered before the database sees it (PostgreSQL refuses a NUL in a query: a 500).
ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def is_id(text: str) -> bool:
    return ID.fullmatch(text) is not None


def check_list_size(entry: dict, taker: str = "an event takes") -> None:
    """A submitted list is at most 64 KB (text as UTF-8, a structured deck as JSON);
    `taker` says who refuses it ("a saved deck holds")."""
    if "decklist" in entry:
        text = entry["decklist"]
        size = (
            len(text) if len(text) * 4 <= MAX_LIST_BYTES else len(text.encode("utf-8", "replace"))
        )
    else:
        size = len(json.dumps(entry["deck"], separators=(",", ":")))
    if size > MAX_LIST_BYTES:
        raise ApiError(
            413,
            "list-too-large",
            f"This list is {size:,} bytes; {taker} lists of at most "
            f"{MAX_LIST_BYTES // 1024} KB. Send only the deck's lines.",
            {"bytes": size, "limit": MAX_LIST_BYTES},
        )
