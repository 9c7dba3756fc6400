"""The world a verdict holds in: the same in every process, and it names exactly the cards
a change touches."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import date

from conftest import ROOT
from decks.deck_helpers import ban, import_change

from deckcheck.format_registry import get_format
from deckcheck.server.verdicts import changed_numbers, world_now

WORLD = """
import sys
from deckcheck import create_app
from deckcheck.server.verdicts import world_now
from deckcheck.format_registry import get_format
from datetime import date
app = create_app({"TESTING": True, "DATABASE": sys.argv[1], "FORMATS_DIR": sys.argv[2],
                  "EVENTS_DATABASE": sys.argv[3], "SECRET_KEY": "t"})
with app.app_context():
    print(world_now(get_format("dcg"), date(2026, 11, 29))[0].id)
"""


def test_every_process_makes_the_same_world(app, tmp_path):
    """Sets of flags and Python's string hashing differ from process to process; the
    world's id must not (two workers would judge every deck again, turn by turn)."""
    with app.app_context():
        here = world_now(get_format("dcg"), date(2026, 11, 29))[0].id
    args = [app.config["DATABASE"], app.config["FORMATS_DIR"], str(tmp_path / "e.db")]
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", WORLD, *args], cwd=ROOT, env=env, capture_output=True,
            text=True, timeout=120, check=True,
        )  # fmt: skip
        assert out.stdout.strip() == here


def test_a_list_change_names_its_cards_and_the_day_it_applies(app, tmp_path):
    day = date(2026, 11, 29)
    with app.app_context():
        before = world_now(get_format("dcg"), day)[0]
    import_change(app, tmp_path, ban("ST1-03", "2026-12-10", announced="2026-11-20"))
    with app.app_context():
        announced = world_now(get_format("dcg"), day)[0]
        eve = world_now(get_format("dcg"), date(2026, 12, 9))[0]
        applies = world_now(get_format("dcg"), date(2026, 12, 10))[0]
        still = world_now(get_format("dcg"), date(2026, 12, 11))[0]
    assert announced.id != before.id and applies.id != announced.id and still.id == applies.id
    assert changed_numbers(before.facts, announced.facts) == ({"ST1-03"}, False)
    assert changed_numbers(eve.facts, applies.facts) == ({"ST1-03"}, False)


def test_cards_that_came_or_went_are_named():
    before = {"A": "1", "B": "2"}
    assert changed_numbers(before, {"A": "1", "B": "3", "C": "4"}) == ({"B", "C"}, True)
    assert changed_numbers(before, {"A": "1"}) == ({"B"}, False)
