"""/d/<id>.png: a picture of a saved deck for link previews (og:image), drawn here.

1200 x 630 (what link previews ask for): the deck's name, its verdict, its format and
its list, names and counts by section, in columns. No card art (deckcheck stores none).
Drawn with Pillow's own scalable default font (`ImageFont.load_default(size=...)`,
Pillow >= 10.1 built with FreeType): no font file to ship, no network. That font has
Latin letters only: a mark such as ✔ or ×, or a name in another script, is drawn as
boxes, so the picture writes "4x" and words, and a name it cannot draw still reads on
the page itself.

Drawing costs tens of milliseconds, so each picture is kept, keyed by what it shows
(`Shown.picture_key`: the deck's version and its verdict of today): a new version or a
changed verdict makes a new key. At most KEPT pictures are kept per worker (tens of KB
each); the oldest go first.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from deckcheck.decks.showing import Shown

WIDTH, HEIGHT = 1200, 630
MARGIN = 48
KEPT = 256
INK, MUTED, OK, BAD, PAPER = "#1b1f24", "#57606a", "#1a7f37", "#cf222e", "#ffffff"
LINE = 24  # the list's line height at its font size
COLUMNS = 3

_kept: OrderedDict[str, bytes] = OrderedDict()
_lock = threading.Lock()


@cache
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's scalable default font (a bitmap one only without FreeType)."""
    return ImageFont.load_default(size=size)


def picture(deck: Shown) -> bytes:
    """The PNG of `deck`, drawn once per key and then kept."""
    key = deck.picture_key()
    with _lock:
        found = _kept.get(key)
        if found is not None:
            _kept.move_to_end(key)
            return found
    made = draw(deck)
    with _lock:
        _kept[key] = made
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return made


def fitted(text: str, size: int, width: int) -> str:
    """`text` cut (with "…") to fit `width` pixels at `size`."""
    face = font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def draw(deck: Shown) -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    pen = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN
    pen.text((MARGIN, 36), fitted(deck.row["name"], 52, inner), font=font(52), fill=INK)
    colour = OK if deck.view["legal"] else BAD
    verdict = deck.verdict  # no check mark: the default font draws none (a box)
    pen.text((MARGIN, 108), verdict, font=font(34), fill=colour)
    after = MARGIN + font(34).getlength(verdict) + 24
    about = f"{deck.format_name} · {deck.cards} cards · deckcheck"
    pen.text(
        (after, 118), fitted(about, 24, WIDTH - MARGIN - int(after)), font=font(24), fill=MUTED
    )
    pen.line((MARGIN, 166, WIDTH - MARGIN, 166), fill="#d0d7de", width=2)
    _draw_list(pen, _lines(deck), top=184)
    buffer = io.BytesIO()
    # 32 colours (text, its anti-aliased edges, the verdict's colour): a PNG of about 10 KB
    # instead of 80 KB, and encoded in a third of the time a full-colour one takes.
    image.quantize(32, method=Image.Quantize.FASTOCTREE).save(buffer, "PNG", compress_level=6)
    return buffer.getvalue()


def _lines(deck: Shown) -> list[tuple[str, bool]]:
    """The list as lines: (text, is a heading)."""
    lines: list[tuple[str, bool]] = []
    partner = deck.view["deck"]["partner"]
    if partner:
        lines.append((f"Partner: {partner}", True))
    for _, heading, data in deck.sections():
        lines.append((f"{heading} · {data['count']}", True))
        lines.extend((f"{c['count']}x {c['name'] or c['number']}", False) for c in data["cards"])
    return lines


def _draw_list(pen: ImageDraw.ImageDraw, lines: list[tuple[str, bool]], top: int) -> None:
    """The lines in columns, top to bottom then left to right; what does not fit is
    counted on the last line ("… and 40 more")."""
    per_column = (HEIGHT - top - 24) // LINE
    room = per_column * COLUMNS
    if len(lines) > room:
        left = len(lines) - room + 1
        lines = [*lines[: room - 1], (f"… and {left} more lines", True)]
    width = (WIDTH - 2 * MARGIN) // COLUMNS
    for n, (text, heading) in enumerate(lines):
        column, row = divmod(n, per_column)
        x, y = MARGIN + column * width, top + row * LINE
        size = 20
        pen.text(
            (x, y),
            fitted(text, size, width - 16),
            font=font(size),
            fill=MUTED if heading else INK,
        )
