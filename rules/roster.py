"""Many decklists at once, as organizers collect them: a CSV, files, or pasted lists.

Each submission becomes a `Submission`; a row that cannot be read becomes one with
a `problem`, so it is reported while the rest are still checked.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

PLAYER_COLUMNS = ("player", "name", "player_name")
ID_COLUMNS = ("player_id", "id", "playerid")
DECK_COLUMNS = ("decklist", "deck", "list")
_PLAYER_HEADER = re.compile(
    r"^\s*(?:={2,}\s*(?P<a>.+?)\s*=*|#{2,}\s*(?P<b>.+?)|player\s*:\s*(?P<c>.+?))\s*$", re.IGNORECASE
)
_WITH_ID = re.compile(r"^(?P<name>.+?)\s*[(\[]\s*(?P<id>[^()\[\]]+?)\s*[)\]]$")
MAX_SUBMISSIONS = 10000


@dataclass(frozen=True)
class Submission:
    player: str
    player_id: str
    decklist: str
    source: str  # where it came from: "row 3", "file alice.txt", "block 2"
    problem: str | None = None


def from_csv(text: str) -> list[Submission]:
    """Columns: player, optional player_id, decklist (header names case-insensitive)."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff"), newline=""))
    columns = {(name or "").strip().lower(): name for name in reader.fieldnames or []}
    player = next((columns[c] for c in PLAYER_COLUMNS if c in columns), None)
    deck = next((columns[c] for c in DECK_COLUMNS if c in columns), None)
    ident = next((columns[c] for c in ID_COLUMNS if c in columns), None)
    if player is None or deck is None:
        raise ValueError("the CSV needs a header row with 'player' and 'decklist' columns")
    found = []
    try:
        for row in reader:
            where = f"row {reader.line_num}"
            name = (row.get(player) or "").strip()
            text = row.get(deck) or ""
            problem = None
            if not name:
                problem = "no player name"
            elif not text.strip():
                problem = "no decklist"
            found.append(
                Submission(
                    name or "(no name)",
                    (row.get(ident) or "").strip() if ident else "",
                    text,
                    where,
                    problem,
                )
            )
    except csv.Error as err:
        found.append(
            Submission("(unreadable)", "", "", f"row {reader.line_num}", f"broken CSV: {err}")
        )
    return found[:MAX_SUBMISSIONS]


def from_pasted(text: str) -> list[Submission]:
    """Lists separated by player headers: `=== Name ===`, `## Name` or `Player: Name (id)`."""
    blocks: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        match = _PLAYER_HEADER.match(line)
        if match:
            blocks.append(((match.group("a") or match.group("b") or match.group("c")).strip(), []))
        elif blocks:
            blocks[-1][1].append(line)
        elif line.strip():
            blocks.append(("", [line]))
    found = []
    for number, (header, lines) in enumerate(blocks, start=1):
        name, ident = _split_id(header)
        text = "\n".join(lines)
        problem = None if name else "no player header above this list"
        if name and not text.strip():
            problem = "no decklist under this player"
        found.append(Submission(name or "(no name)", ident, text, f"list {number}", problem))
    return found[:MAX_SUBMISSIONS]


def from_file(filename: str, text: str) -> Submission:
    stem = re.sub(r"\.[A-Za-z0-9]{1,5}$", "", filename.rsplit("/", 1)[-1]) or filename
    name, ident = _split_id(stem.replace("_", " ").strip())
    problem = None if text.strip() else "the file is empty"
    return Submission(name, ident, text, f"file {filename}", problem)


def _split_id(text: str) -> tuple[str, str]:
    match = _WITH_ID.match(text)
    if match:
        return match.group("name").strip(), match.group("id").strip()
    return text.strip(), ""
