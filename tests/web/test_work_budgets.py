"""Budgets count work, not seconds (issue 40): a batch (and the quick event page) stops at
the same deck on a quiet and on a busy machine, and the time guard that stops a runaway
answers 503, never a shorter answer. Before, the budget was CPU and wall seconds: at
load 8 a batch of 1,000 decks with 20,000 unknown names reported 10,160 of them."""

from __future__ import annotations

import time

import pytest

from deckcheck import budgets


def _unknown(deck: int, lines: int) -> str:
    return "\n".join(f"1 Zq{deck}x{n} Unknownmon" for n in range(lines))


UNKNOWN_DECK_WORK = budgets.deck_work(1000, 1000)  # 6,005 units


def _batch(client, decks):
    response = client.post("/api/v1/decks/validate-batch", json={"format": "dcg", "decks": decks})
    return response


@pytest.fixture
def small_budget(monkeypatch):
    """A batch of 20 decks of 1,000 unknown names may do 48,000 units (20,000 lines x 2.4):
    8 decks of 6,005 units each, the eighth the one judged past the budget."""
    monkeypatch.setattr(budgets, "BATCH_MIN_WORK", 20_000)


def test_a_batch_stops_at_the_same_deck_when_its_work_is_spent(client, small_budget):
    decks = [{"id": n, "decklist": _unknown(n, 1000)} for n in range(20)]
    body = _batch(client, decks).get_json()
    results = body["results"]
    assert [r["id"] for r in results] == list(range(20))
    checked = [r for r in results if r["fingerprint"]]
    left = [r for r in results if r.get("error", {}).get("code") == "over-budget"]
    assert len(checked) == 8 == 48_000 // UNKNOWN_DECK_WORK + 1 and len(left) == 12
    assert all(sum(v["code"] == "unknown-card" for v in r["violations"]) == 1000 for r in checked)
    assert "budget of work (48,000 units)" in left[0]["error"]["message"]
    [warning] = body["warnings"]
    assert warning["details"] == {
        "checked": 8,
        "not_checked": 12,
        "budget_work": 48_000,
        "answer_bytes": budgets.BATCH_ANSWER_BYTES,
    }


def test_a_busy_machine_gives_the_same_answer(client, small_budget, monkeypatch, costly_checks):
    """`costly_checks` makes every deck cost 50 ms more CPU, as a loaded machine would:
    the answer is byte for byte the one of a quiet machine."""
    decks = [{"id": n, "decklist": _unknown(n, 1000)} for n in range(20)]
    busy = _batch(client, decks).get_data()
    monkeypatch.undo()  # quiet again (the budget too, so set it once more)
    monkeypatch.setattr(budgets, "BATCH_MIN_WORK", 20_000)
    quiet = _batch(client, decks).get_data()
    assert busy == quiet and b"over-budget" in quiet


def test_real_decks_are_never_cut(client):
    """1,000 real decks (about 22 lines each) need about half of their budget."""
    from fixture_cards import ST1_TEXT

    body = _batch(client, [{"id": n, "decklist": ST1_TEXT} for n in range(1000)]).get_json()
    assert "warnings" not in body and all(r["fingerprint"] for r in body["results"])


def test_the_time_guard_answers_503_never_a_shorter_answer(client, monkeypatch, costly_checks):
    monkeypatch.setattr(budgets, "BATCH_GUARD_SECONDS", 0.3)
    decks = [{"id": n, "decklist": "4 ST1-03"} for n in range(40)]  # 2 s of CPU
    response = _batch(client, decks)
    assert response.status_code == 503 and response.headers["Retry-After"] == "5"
    error = response.get_json()["error"]
    assert error["code"] == "request-timeout" and "Send it again" in error["message"]


def test_the_budget_is_a_count_of_work():
    """Only work done spends it; the clock only trips the guard."""
    now = [0.0]
    budget = budgets.BatchBudget(100, guard_seconds=10, clock=lambda: now[0])
    budget.did(60)
    now[0] = 9.0  # a slow machine: nine seconds for 60 units
    assert not budget.spent()
    budget.did(41)
    assert budget.spent() and "101" not in budget.why and "100 units" in budget.why
    now[0] = 10.5
    with pytest.raises(budgets.Overtime):
        budget.spent()


def test_a_deck_s_work(client):
    assert budgets.deck_work(1) == budgets.DECK_WORK + 1
    assert budgets.deck_work(10, 3) == budgets.DECK_WORK + 10 + 3 * budgets.UNREAD_WORK
    started = time.monotonic()
    assert budgets.deck_lines({"decklist": "a\nb\nc"}) == 3
    assert budgets.deck_lines({"deck": {"main": [{}, {}], "eggs": [{}]}}) == 4
    assert time.monotonic() - started < 1
