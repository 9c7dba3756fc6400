"""What a verdict was judged with, as keys that are the same in every process: the judge
(deckcheck's version and the source of `rules/`), the format (its rules and list history,
as a digest of the format's content) and the generation of the game's card pool."""

from __future__ import annotations

import dataclasses
import enum
import hashlib
from datetime import date
from pathlib import Path

import rules
from deckcheck import __version__
from deckcheck.db import pools
from rules.cache import Bounded
from rules.format import Format
from rules.pool import CardIndex

# Format id -> the formats of that id met lately, with their digests. Keyed by what the
# format says (its id; then equal content, compared field by field: cheap, the fields
# are mostly the same objects), never by which object says it: a format loaded again
# with the same rules finds its digest, a changed one does not.
_digests: Bounded[str, tuple[tuple[Format, str], ...]] = Bounded(64)
DIGESTS_PER_ID = 16  # an event format per early-products setting shares its id
_judge: list[str] = []


def judge_version() -> str:
    """deckcheck's version and a digest of the rules' source: new rules, new verdicts."""
    if not _judge:
        digest = hashlib.sha256(__version__.encode())
        root = Path(rules.__file__).resolve().parent
        for path in sorted(root.rglob("*")):
            if path.is_file() and path.suffix in (".py", ".toml", ".json", ".csv"):
                digest.update(path.relative_to(root).as_posix().encode())
                digest.update(path.read_bytes())
        _judge.append(digest.hexdigest()[:16])
    return _judge[0]


def _walk(value: object, out: list[str], depth: int = 0) -> None:
    """A text of a value that is the same in every process (no object addresses)."""
    if depth > 16:
        out.append("…")
    elif value is None or isinstance(value, (str, int, float, bool, date, enum.Enum)):
        out.append(repr(value))
    elif isinstance(value, (list, tuple)):
        out.append("(")
        for item in value:
            _walk(item, out, depth + 1)
            out.append(",")
        out.append(")")
    elif isinstance(value, (set, frozenset)):
        out.append("{" + ",".join(sorted(repr(item) for item in value)) + "}")
    elif isinstance(value, dict):
        out.append("{")
        for key in sorted(value, key=repr):
            out.append(repr(key) + ":")
            _walk(value[key], out, depth + 1)
            out.append(",")
        out.append("}")
    elif callable(value) and not dataclasses.is_dataclass(value):
        out.append(getattr(value, "__qualname__", type(value).__qualname__))
    else:
        out.append(type(value).__qualname__ + "(")
        _walk(_made_of(value), out, depth + 1)
        out.append(")")


def _made_of(value: object) -> dict:
    """What makes an object, not what it remembered: a check's cache of the cards it met
    (a field with compare=False) or a private attribute differs from process to process
    and from hour to hour."""
    if dataclasses.is_dataclass(value):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.compare}
    slots = [s for c in type(value).__mro__ for s in getattr(c, "__slots__", ())]
    attributes = {s: getattr(value, s, None) for s in slots}
    attributes.update(getattr(value, "__dict__", {}))
    return {k: v for k, v in attributes.items() if not k.startswith("_")}


def format_digest(fmt: Format) -> str:
    """Its rules and list history, digested once per format content (about 8 ms)."""
    known = _digests.get(fmt.id) or ()
    for seen, digest in known:
        if seen is fmt or seen == fmt:
            return digest
    out: list[str] = []
    _walk(fmt, out)
    digest = hashlib.sha256("".join(out).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    _digests.keep(fmt.id, ((fmt, digest), *known[: DIGESTS_PER_ID - 1]))
    return digest


def judged_key(fmt: Format | None, generation: int) -> str:
    if fmt is None:
        return "format-gone"
    if generation < 0:
        return ""  # judged with a pool of unknown generation: judged again next time
    return f"{judge_version()}/{format_digest(fmt)}/{fmt.game}:{generation}"


def current_key(fmt: Format | None) -> tuple[str, CardIndex | None]:
    """(key of now, the card index to judge with)."""
    if fmt is None:
        return "format-gone", None
    generation, index = pools().indexed(fmt.game)
    return judged_key(fmt, generation), index
