"""Test apps, made quickly: most tests make an app of their own (some 860 in a run).

Werkzeug compiles each URL rule of every new app: it parses the rule's text with a regular
expression (about 900 matches an app) and builds two functions from an ast (`compile()`).
Both depend only on the rule's text and settings, which are the same in every app, so the
tests do each once per process. The service makes its app once: it needs neither.
Imported for its effect by conftest.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from werkzeug.routing import rules
from werkzeug.routing.rules import Rule

# ---------------------------------------------------------------- URL builders, once each
# A builder depends only on the rule's text, its parsed parts, its defaults and their
# converters (the rule itself is passed in when a URL is built): 35 of the 40 ms an app
# took to make.
_BUILDERS: dict[tuple, Callable] = {}
_compile_builder = Rule._compile_builder


def _builder_once(rule: Rule, append_unknown: bool = True) -> Callable:
    defaults = rule.defaults or {}
    converters = {name: type(converter) for name, converter in rule._converters.items()}
    key = (rule.rule, repr(rule._trace), repr(defaults), repr(converters), append_unknown)
    if key not in _BUILDERS:
        _BUILDERS[key] = _compile_builder(rule, append_unknown)
    return _BUILDERS[key]


Rule._compile_builder = _builder_once  # type: ignore[method-assign]


# ---------------------------------------------------------------- rule text, read once
class _RememberedMatches:
    """`rules._part_re` (what `Rule._parse_rule` reads a rule's text with), each
    (text, position) matched once: 13 of the 17 ms an app then took to make. A match
    object is read only (`groupdict()`, `end()`), so one serves every app."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.seen: dict[tuple[str, int], re.Match[str] | None] = {}

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        key = (text, pos)
        if key not in self.seen:
            self.seen[key] = self.pattern.match(text, pos)
        return self.seen[key]


if not isinstance(rules._part_re, _RememberedMatches):
    rules._part_re = _RememberedMatches(rules._part_re)  # type: ignore[assignment]
