"""What a pasted or uploaded collection says: copies per card number, the lines that
named no card (each with its reason), and, for a CSV with a header, which columns were
read and which were not (named, never guessed at).

Read, in this order:

- the save file of digimoncard.app (JSON with `"collection": [{"id", "count"}]`);
- a CSV whose first line is a header (comma, semicolon or tab): TCGplayer's collection
  export (`Quantity`, `Card Number`, `Simple Name`, ...), Cardmarket's (`Amount` or
  `Count`, the number in a number column or in the name, `Agumon (BT1-010)`), a
  `number,count` file, or any file with a count column and a number or name column;
- otherwise line by line: decklist lines (`4 Agumon BT1-010`, digimoncard.app's
  "Qty Id" collection lines `4 BT1-010`) and headerless `number,count` lines.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field

import orjson

from deckcheck.errors import ApiError
from rules.numbers import MAX_TOKEN, bare, is_number
from rules.pool import CardIndex
from rules.read import parse_lines_of

MAX_ENTRIES = 20_000
MAX_COPIES = 100_000
CSV_LINE = re.compile(r"\s*([^,\s]{1,40})\s*,\s*([0-9]{1,9})\s*,?\s*")

# Header names, folded (lower case, letters and digits only), in order of preference.
COUNT_COLUMNS = ("quantity", "count", "amount", "qty", "copies", "owned")
NUMBER_COLUMNS = ("cardnumber", "number", "collectornumber", "cardid", "id", "cardno")
NAME_COLUMNS = ("simplename", "name", "englishname", "cardname", "localname", "productname")
# Columns only one app's export has: they name the style in the answer.
STYLES = (
    ("tcgplayer", {"simplename", "productid", "sku", "printing"}),
    ("cardmarket", {"idproduct", "idarticle", "exp", "expname", "expansion"}),
)


@dataclass
class Reading:
    cards: dict[str, int] = field(default_factory=dict)
    unread: list[dict] = field(default_factory=list)
    style: str = "text"
    columns_read: list[str] = field(default_factory=list)
    columns_not_read: list[str] = field(default_factory=list)
    read: int = 0  # card lines read

    def skip(self, line: int, text: str, reason: str) -> None:
        # "why" is the key collections answered with before; "reason" the contract's.
        self.unread.append({"line": line, "text": text[:200], "reason": reason, "why": reason})

    def add(self, line: int, text: str, number: str, count: int) -> None:
        total = self.cards.get(number, 0) + count
        if total > MAX_COPIES:
            self.skip(line, text, f"more than {MAX_COPIES:,} copies")
            return
        self.cards[number] = total
        self.read += 1

    def about(self) -> dict:
        """The answer's `import`: how the text was read."""
        return {
            "style": self.style,
            "columns_read": self.columns_read,
            "columns_not_read": self.columns_not_read,
        }


def too_large(lines: int) -> ApiError:
    return ApiError(
        422,
        "collection-too-large",
        f"This collection has {lines:,} lines; a collection holds at most {MAX_ENTRIES:,}. "
        "Send one line per card number with its count.",
        {"lines": lines, "limit": MAX_ENTRIES},
    )


def read(text: str, index: CardIndex) -> Reading:
    lines = text.splitlines()
    filled = sum(1 for line in lines if line.strip())
    if filled > MAX_ENTRIES + 1:  # a header line besides 20,000 cards
        raise too_large(filled)
    stripped = text.lstrip()
    if stripped.startswith("{"):
        return _save_file(stripped, index)
    first = next((at for at, line in enumerate(lines) if line.strip()), None)
    if first is not None:
        header = _header(lines[first])
        if header is not None:
            return _table(lines, first, header, index)
    if filled > MAX_ENTRIES:
        raise too_large(filled)
    found = Reading()
    for at, raw in enumerate(lines, start=1):
        if raw.strip():
            _line(found, at, raw, index)
    return found


def _fold(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isalnum())


@dataclass(frozen=True)
class Header:
    delimiter: str
    names: list[str]
    count: int
    number: int | None
    name: int | None


def _header(line: str) -> Header | None:
    """The first line as a header, when it names a count column and a number or name
    column (a line of cards never does: its count is a digit)."""
    delimiter = max(",;\t", key=line.count)
    if not line.count(delimiter):
        return None
    names = next(csv.reader([line], delimiter=delimiter))
    folded = [_fold(n) for n in names]

    def first(options: tuple[str, ...]) -> int | None:
        return next((folded.index(o) for o in options if o in folded), None)

    count = first(COUNT_COLUMNS)
    number, name = first(NUMBER_COLUMNS), first(NAME_COLUMNS)
    if count is None or (number is None and name is None):
        return None
    return Header(delimiter, names, count, number, name)


def _table(lines: list[str], first: int, header: Header, index: CardIndex) -> Reading:
    found = Reading(style="csv")
    folded = {_fold(n) for n in header.names}
    found.style = next((s for s, marks in STYLES if marks & folded), "csv")
    used = [i for i in (header.count, header.number, header.name) if i is not None]
    found.columns_read = [header.names[i] for i in used]
    found.columns_not_read = [n for i, n in enumerate(header.names) if i not in used]
    for at, raw in enumerate(lines[first + 1 :], start=first + 2):
        if not raw.strip():
            continue
        row = next(csv.reader([raw], delimiter=header.delimiter))
        if len(row) == 1:  # a decklist line in a `number,count` file: read as one
            _line(found, at, raw, index)
        else:
            _row(found, at, row, header, index)
    if len(found.cards) > MAX_ENTRIES:
        raise too_large(len(found.cards))
    return found


def _cell(row: list[str], at: int | None) -> str:
    return row[at].strip() if at is not None and at < len(row) else ""


def _row(found: Reading, at: int, row: list[str], header: Header, index: CardIndex) -> None:
    text = header.delimiter.join(row)
    count_text = _cell(row, header.count)
    if not count_text.isdigit() or len(count_text) > 9:
        found.skip(at, text, f"the {header.names[header.count]} column holds no count")
        return
    count = int(count_text)
    if not 1 <= count <= MAX_COPIES:
        found.skip(at, text, f"a count from 1 to {MAX_COPIES:,}")
        return
    card = _named(_cell(row, header.number), _cell(row, header.name), index)
    if card is None:
        found.skip(at, text, "no card of the card list has this number or name")
        return
    found.add(at, text, card, count)


def _named(number: str, name: str, index: CardIndex) -> str | None:
    """The card a row names: by its number column, else a number written in its name
    (`Agumon (BT1-010)`), else its name when only one card has it."""
    for text in (number, *name.replace("(", " ").replace(")", " ").split()):
        text = bare(text)  # as a decklist reads it: `EX-13-001` is EX13-001
        if text and len(text) <= MAX_TOKEN and is_number(text):
            card = index.by_number(text)
            if card is not None:
                return card.number
    card = index.only_card_named(name) if name else None
    return card.number if card is not None else None


def _save_file(text: str, index: CardIndex) -> Reading:
    """digimoncard.app's save file: its `collection` list of {"id", "count"}."""
    found = Reading(style="digimoncard.app")
    try:
        body = orjson.loads(text)
    except orjson.JSONDecodeError:
        found.skip(1, text, "starts like JSON but is not JSON")
        return found
    items = body.get("collection") if isinstance(body, dict) else None
    if not isinstance(items, list):
        found.skip(1, text, 'JSON without a "collection" list (digimoncard.app\'s save file)')
        return found
    if len(items) > MAX_ENTRIES:
        raise too_large(len(items))
    for at, item in enumerate(items, start=1):
        shown = orjson.dumps(item).decode()
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            found.skip(at, shown, 'an entry without an "id"')
            continue
        count = item.get("count")
        card = index.by_number(item["id"]) if len(item["id"]) <= MAX_TOKEN else None
        if card is None:
            found.skip(at, shown, "no card of the card list has this number")
        elif not isinstance(count, int) or not 1 <= count <= MAX_COPIES:
            found.skip(at, shown, f"a count from 1 to {MAX_COPIES:,}")
        else:
            found.add(at, shown, card.number, count)
    return found


def _line(found: Reading, at: int, raw: str, index: CardIndex) -> None:
    matched = CSV_LINE.fullmatch(raw)
    if matched:
        card = index.by_number(matched.group(1))
        count = int(matched.group(2))
        if card is None:
            found.skip(at, raw, "no card has this number in the card list")
        elif not 1 <= count <= MAX_COPIES:
            found.skip(at, raw, f"a count from 1 to {MAX_COPIES:,}")
        else:
            found.add(at, raw, card.number, count)
        return
    if len(raw) > 1000:
        found.skip(at, raw, "longer than 1,000 characters")
        return
    for line in parse_lines_of(at, raw):
        if line.kind in ("header", "comment"):  # `// Egg deck`, `Main:`: read as meant
            return
        if line.kind != "card":
            continue
        card = index.by_number(line.numbers[0]) if line.numbers else None
        if card is None and line.name:
            card = index.only_card_named(line.name)
        if card is None:
            found.skip(at, raw, "no card of the card list has this number or name")
        elif not 1 <= line.count <= MAX_COPIES:
            found.skip(at, raw, f"a count from 1 to {MAX_COPIES:,}")
        else:
            found.add(at, raw, card.number, line.count)
        return
    found.skip(at, raw, "not a card line")
