"""Many decklists at once, as organizers collect them: a CSV (Google Forms exports
included), files, or pasted lists under player headers (Discord-style `Alice:` too).

Each submission becomes a `Submission`; a record that cannot be read becomes one with
a `problem`, so it is reported while the rest are still checked. Records are counted
from the first one after the header: a quoted decklist spans many file lines, so a
file line number would point at the wrong place.

No regular expression reads the user's text here: headers and ids are found with
string methods, so a strange line costs time linear in its length.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from rules.games import HEADERS

# Lists one event check reads. The readers stop one past it, so a caller can tell an
# event over it (and refuse it) from one exactly at it: nothing is dropped unsaid.
MAX_SUBMISSIONS = 10000
MAX_HEADER = 200  # a player header longer than this is a deck line, not a name

# Header words, matched against the header's words (case-insensitive).
_ID_WORDS = ("id", "playerid", "player_id", "bandai", "membership", "member", "konami")
_NAME_WORDS = ("player", "name", "player_name", "playername")


class RosterError(ValueError):
    """A file of many players' lists that cannot be read as a whole (its header row);
    the message says why, in words an organizer can act on."""


@dataclass(frozen=True)
class Submission:
    player: str
    player_id: str
    decklist: str
    source: str  # where it came from: "record 3", "file alice.txt", "list 2"
    problem: str | None = None


@dataclass(frozen=True)
class CsvRoster:
    """The submissions of a CSV and the columns it did not use (named, never silent)."""

    submissions: list[Submission]
    ignored: list[str] = field(default_factory=list)
    columns: dict[str, str] = field(default_factory=dict)


def _words(header: str) -> list[str]:
    cleaned = "".join(c if c.isalnum() or c == "_" else " " for c in header.casefold())
    return cleaned.split()


def _find_columns(fieldnames: list[str]) -> dict[str, str]:
    """Which header holds the player, the id and the list: by the words in it.

    "Decklist" / "List" beat a bare "Deck" (a form may also ask for a "Deck name").
    """
    found: dict[str, str] = {}
    for wanted in (("decklist", "list"), ("deck",)):
        for name in fieldnames:
            if "deck" not in found and any(w in wanted for w in _words(name or "")):
                found["deck"] = name
    for name in fieldnames:
        words = _words(name or "")
        if name == found.get("deck") or not words:
            continue
        if "id" not in found and any(w in _ID_WORDS for w in words):
            found["id"] = name
        elif "player" not in found and any(w in _NAME_WORDS for w in words):
            found["player"] = name
    return found


def read_csv(text: str) -> CsvRoster:
    """Columns found by their headers: player / name, an id, decklist / list / deck."""
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff"), newline=""))
    try:
        header = next(reader, [])
    except csv.Error as err:
        raise RosterError(f"the CSV's header row cannot be read: {err}") from err
    columns = _find_columns(header)
    if "player" not in columns or "deck" not in columns:
        raise RosterError(
            "the CSV needs a header row with a player (or name) column and a decklist "
            f"(or list, or deck) column; its headers are: {', '.join(header) or '(none)'}"
        )
    position = {key: header.index(name) for key, name in columns.items()}
    ignored = [name for name in header if name not in columns.values() and name.strip()]
    found: list[Submission] = []
    number = 0
    try:
        for number, row in enumerate(reader, start=1):
            if not any(cell.strip() for cell in row):
                continue
            found.append(_csv_record(row, position, f"record {number}"))
            if len(found) > MAX_SUBMISSIONS:
                break
    except csv.Error as err:
        found.append(
            Submission("(unreadable)", "", "", f"record {number + 1}", f"broken CSV: {err}")
        )
    return CsvRoster(found, ignored, dict(columns))


def _csv_record(row: list[str], position: dict[str, int], where: str) -> Submission:
    def cell(key: str) -> str:
        index = position.get(key)
        return row[index] if index is not None and index < len(row) else ""

    name = cell("player").strip()
    text = cell("deck")
    problem = None
    if not name:
        problem = "no player name"
    elif not text.strip():
        problem = "no decklist"
    return Submission(name or "(no name)", cell("id").strip(), text, where, problem)


def from_csv(text: str) -> list[Submission]:
    return read_csv(text).submissions


def player_header(line: str) -> str | None:
    """The player named by a header line, or None for a deck line.

    Headers: `=== Name ===`, `## Name`, `Player: Name`, and Discord-style `Name:`
    (or `**Name**:`) alone on a line, unless the name is a deck section ("Main:").
    """
    if len(line) > 10 * MAX_HEADER:
        return None
    text = " ".join(line.split())
    if not text or len(text) > MAX_HEADER:
        return None
    if text.startswith("=="):
        return text.strip("=").strip() or None
    if text.startswith("##"):
        return text.lstrip("#").strip() or None
    label, colon, rest = text.partition(":")
    if colon and label.strip().casefold() == "player":
        return rest.strip() or None
    if text.endswith(":"):
        name = text[:-1].strip().strip("*_").strip().removesuffix(":").strip().strip("*_")
        name = name.strip()
        if _looks_like_name(name):
            return name
    return None


def _looks_like_name(text: str) -> bool:
    if not text or text[0].isdigit() or text[0] in "/#-*•·([{<>|" or ":" in text:
        return False
    if " ".join(text.casefold().split()) in HEADERS:
        return False
    return any(c.isalpha() for c in text)


def from_pasted(text: str) -> list[Submission]:
    """Lists separated by player headers (see `player_header`)."""
    blocks: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        name = player_header(line)
        if name is not None:
            blocks.append((name, []))
        elif blocks:
            blocks[-1][1].append(line)
        elif line.strip():
            blocks.append(("", [line]))
    found = []
    for number, (header, lines) in enumerate(blocks, start=1):
        name, ident = split_id(header)
        body = "\n".join(lines)
        problem = None if name else "no player header above this list"
        if name and not body.strip():
            problem = "no decklist under this player"
        found.append(Submission(name or "(no name)", ident, body, f"list {number}", problem))
    return found[: MAX_SUBMISSIONS + 1]


def from_file(filename: str, text: str) -> Submission:
    base = filename.replace("\\", "/").rsplit("/", 1)[-1]
    stem, dot, suffix = base.rpartition(".")
    if not dot or not stem or not (1 <= len(suffix) <= 5 and suffix.isalnum()):
        stem = base
    name, ident = split_id(stem.replace("_", " ").strip())
    problem = None if text.strip() else "the file is empty"
    return Submission(name or base, ident, text, f"file {filename}", problem)


def split_id(text: str) -> tuple[str, str]:
    """`Alice (1234)` or `Alice [1234]` -> ("Alice", "1234")."""
    text = text.strip()
    for opening, closing in (("(", ")"), ("[", "]")):
        if text.endswith(closing):
            start = text.rfind(opening)
            inner = text[start + 1 : -1].strip() if start > 0 else ""
            if inner and not any(c in inner for c in "()[]"):
                return " ".join(text[:start].split()), inner
    return " ".join(text.split()), ""
