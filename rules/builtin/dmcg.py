"""Digital Monster Card Game (Japan, 1999-2005): `dmcg` and `dmcg-tournament`."""

from dataclasses import replace

from rules.checks import DeckSize, NameLimit, RequiredCard, SetAllowed, WrongSection
from rules.checks.filters import levelled
from rules.format import Format

WIKI = "DMCG wiki"

DMCG = Format(
    id="dmcg",
    game="dmcg",
    name="Digital Monster Card Game (Hyper Colosseum)",
    checks=(
        DeckSize(f'{WIKI}, "Net Ocean" (Hyper Colosseum: 30 cards)', exact=30),
        WrongSection(f'{WIKI}, "Net Ocean"', allowed={"main": None}),
        NameLimit(f'{WIKI}, "Net Ocean" (at most 3 cards of one name)', limit=3),
        RequiredCard(
            f'{WIKI}, "Net Ocean" (at least 1 Level III Digimon)',
            levelled("Level III Digimon", "digimon", "III"),
        ),
    ),
    summary=(
        "The deck has exactly 30 cards (Hyper Colosseum).",
        "At least one Level III Digimon.",
        "At most 3 cards of one name, whatever their numbers (Greymon St-2 and St-91 "
        "count together), unless the card says otherwise.",
    ),
    sources=('dmcg-wiki.txt, "Net Ocean"',),
)

DMCG_TOURNAMENT = replace(
    DMCG,
    id="dmcg-tournament",
    name="Digital Monster Card Game (official tournament)",
    checks=(
        *DMCG.checks,
        SetAllowed(f'{WIKI}, "Card Number" (official tournaments)', ("St", "Sx", "Bo", "Bx")),
    ),
    summary=(
        *DMCG.summary,
        "Official tournaments: only cards numbered St-, Sx- (starters), Bo- or Bx- "
        "(boosters); no promo cards.",
    ),
    sources=(*DMCG.sources, 'dmcg-wiki.txt, "Card Number"'),
    extends="dmcg",
)
