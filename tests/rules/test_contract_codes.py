"""Every violation code of the contract is produced by some check or by the resolver."""

import re

import pytest
from conftest import SHARED

from rules.builtin import BUILT_IN

RESOLVER_CODES = {"unknown-card", "ambiguous-card", "unparsed-line"}


def contract_codes():
    path = SHARED / "spec" / "CONTRACT.md"
    if not path.exists():
        pytest.skip("the shared contract is absent")
    table = path.read_text().split("## Violation codes", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z-]+)`", table, re.M))


def test_every_contract_code_has_a_producer():
    produced = RESOLVER_CODES | {check.code for fmt in BUILT_IN.values() for check in fmt.checks}
    assert contract_codes() - produced == set()


# Warnings the contract names in its prose (they never make a deck illegal).
WARNING_CODES = {"upcoming-change", "release-unverified", "list-change-reported"}


def test_every_warning_code_of_the_contract_has_a_producer():
    path = SHARED / "spec" / "CONTRACT.md"
    if not path.exists():
        pytest.skip("the shared contract is absent")
    text = path.read_text()
    assert all(f"`{code}`" in text for code in WARNING_CODES)
    checks = [check for fmt in BUILT_IN.values() for check in fmt.checks]
    produced = {check.code for check in checks} | {getattr(c, "unsure", "") for c in checks}
    assert WARNING_CODES <= produced
