"""`flask decks rejudge --seconds` takes a number of seconds from 1 to 86400: `nan`
(which click's range let through, and which never ran out), infinities, negatives and
zero are refused with a message, and the pass does not start (issue 40)."""

from __future__ import annotations

import pytest
from decks.deck_helpers import close, make_app

from deckcheck.decks import cli


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "-5", "0", "86401", "soon"])
def test_a_budget_that_is_not_a_number_of_seconds_is_refused(tmp_path, monkeypatch, value):
    app = make_app(tmp_path, str(tmp_path / "e.db"))
    started = []
    monkeypatch.setattr(cli, "run_pass", lambda *a, **k: started.append(a))
    result = app.test_cli_runner().invoke(args=["decks", "rejudge", "--seconds", value])
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--seconds'" in result.output and "Traceback" not in result.output
    assert started == []
    close(app)


def test_a_number_of_seconds_is_taken(tmp_path):
    app = make_app(tmp_path, str(tmp_path / "e.db"))
    result = app.test_cli_runner().invoke(args=["decks", "rejudge", "--seconds", "2.5"])
    assert result.exit_code == 0, result.output
    close(app)
