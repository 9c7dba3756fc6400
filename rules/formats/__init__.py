"""The built-in formats of the contract, one small declaration per game."""

from rules.format import Format
from rules.formats.dbe import DBE
from rules.formats.dcg import DCG
from rules.formats.digibattle import DIGIBATTLE
from rules.formats.dmcg import DMCG, DMCG_TOURNAMENT

BUILT_IN: dict[str, Format] = {f.id: f for f in (DCG, DBE, DIGIBATTLE, DMCG, DMCG_TOURNAMENT)}

__all__ = ["BUILT_IN"]
