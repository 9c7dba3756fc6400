"""dmcg-ultimate, the Ultimate Battle regulation, over the shipped DMCG starter pool.

level-total-limit: at most 8 Ultimate-level Digimon; the other rules of the regulation
(60 cards or more, St- and Bo- only) alongside it.
"""

from datetime import date

import pytest

from cardpool.cards import row_to_card
from cardpool.shipped import shipped_rows
from rules.builtin import BUILT_IN
from rules.pool import CardIndex
from rules.validate import check_text

ON = date(2001, 6, 1)
FORMAT = BUILT_IN["dmcg-ultimate"]
POOL = CardIndex("dmcg", [row_to_card(r) for r in shipped_rows("dmcg")[1]])
ULTIMATES = sorted(c.number for c in POOL.cards.values() if (c.level or "").lower() == "ultimate")
# Level III and IV Digimon of distinct printed names, 3 of each, to fill a deck.
FILLER = sorted(
    {
        c.name_ja or c.name: c.number
        for c in POOL.cards.values()
        if c.kind == "digimon" and c.level in ("III", "IV") and c.number != "St-1"
    }.values()
)


def deck_text(ultimates: int, size: int = 60) -> str:
    """`ultimates` Ultimate-level cards (3 a name), one Agumon, Level III and IV up to `size`."""
    lines, left = ["1 St-1"], size - 1
    for number in ULTIMATES:
        take = min(3, ultimates, left)
        if take:
            lines.append(f"{take} {number}")
            ultimates, left = ultimates - take, left - take
    for number in FILLER:
        take = min(3, left)
        if take:
            lines.append(f"{take} {number}")
            left -= take
    assert left == 0 and ultimates == 0, "the shipped pool is too small for this deck"
    return "\n".join(lines)


def codes(text: str) -> list[str]:
    return sorted({v.code for v in check_text(FORMAT, POOL, text, ON).violations})


def test_the_shipped_pool_has_enough_ultimates_to_break_the_rule():
    assert len(ULTIMATES) * 3 > 8


@pytest.mark.parametrize(("ultimates", "expected"), [(8, []), (9, ["level-total-limit"])])
def test_at_most_eight_ultimates(ultimates, expected):
    assert codes(deck_text(ultimates)) == expected


def test_the_message_names_the_count_the_limit_and_the_cards():
    report = check_text(FORMAT, POOL, deck_text(9), ON)
    [problem] = report.violations
    assert problem.code == "level-total-limit"
    assert "9 cards that are Ultimate-level Digimon" in problem.message
    assert "at most 8" in problem.message and "Remove 1" in problem.message
    assert "Destiny Zone" not in problem.message  # DBE's words, not DMCG's
    assert set(problem.cards) <= set(ULTIMATES) and "Ultimate Battle" in problem.rule


def test_perfect_level_cards_do_not_count():
    perfect = sorted(c.number for c in POOL.cards.values() if (c.level or "").lower() == "perfect")
    text = deck_text(6, size=48) + "\n" + "\n".join(f"3 {n}" for n in perfect[:4])
    assert codes(text) == []


@pytest.mark.parametrize(("size", "expected"), [(59, ["deck-size"]), (60, []), (72, [])])
def test_sixty_cards_or_more(size, expected):
    assert codes(deck_text(0, size=size)) == expected


def test_thirty_cards_is_legal_in_dmcg_but_not_here():
    text = deck_text(0, size=30)
    assert codes(text) == ["deck-size"]
    dmcg = check_text(BUILT_IN["dmcg"], POOL, text, ON)
    assert dmcg.legal, dmcg.violations


def test_only_starter_and_booster_numbers():
    from fixture_cards import POOLS  # test-only cards: Bo-1, P-1 (no Sx-/Bx- in the pool)

    ultimate = BUILT_IN["dmcg-ultimate"].check_of("set-not-allowed")
    assert ultimate is not None and ultimate.prefixes == ("St", "Bo")
    report = check_text(FORMAT, POOLS["dmcg"], "3 St-1\n1 Bo-1\n1 P-1", ON)
    refused = [v.cards for v in report.violations if v.code == "set-not-allowed"]
    assert refused == [("P-1",)]


def test_the_format_says_its_doubt_and_its_source():
    summary = " ".join(FORMAT.summary)
    assert "Perfect" in summary and "究極体" in summary
    assert any("Ultimate Battle" in s for s in FORMAT.sources)
