"""The built-in formats of the contract, one small declaration per game."""

from rules.builtin.dbe import DBE
from rules.builtin.dcg import DCG
from rules.builtin.digibattle import DIGIBATTLE
from rules.builtin.dmcg import DMCG, DMCG_TOURNAMENT, DMCG_ULTIMATE
from rules.format import Format

BUILT_IN: dict[str, Format] = {
    f.id: f for f in (DCG, DBE, DIGIBATTLE, DMCG, DMCG_TOURNAMENT, DMCG_ULTIMATE)
}

__all__ = ["BUILT_IN"]
