"""Digital Monster Card Game (Japan, 1999-2005): `dmcg`, `dmcg-tournament`, `dmcg-ultimate`."""

from dataclasses import replace

from rules.checks import (
    DeckSize,
    KindTotalLimit,
    NameLimit,
    RequiredCard,
    SetAllowed,
    WrongSection,
)
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

# Bandai's "Official Tournament Regulation Ultimate Battle", as translated on the
# dhctcg.blogspot.com page (rules-docs/dmcg-ultimate-battle.md). One source only.
REGULATION = "DMCG Official Tournament Regulation, Ultimate Battle"

DMCG_ULTIMATE = replace(
    DMCG,
    id="dmcg-ultimate",
    name="Digital Monster Card Game (Ultimate Battle)",
    checks=(
        DeckSize(f'{REGULATION}, "participating deck" (60 cards or more)', minimum=60),
        WrongSection(f'{REGULATION}, "participating deck"', allowed={"main": None}),
        NameLimit(f'{REGULATION}, "participating deck" (at most 3 cards of one name)', limit=3),
        RequiredCard(
            f'{REGULATION}, "participating deck" (at least 1 Level III card)',
            levelled("Level III Digimon", "digimon", "III"),
        ),
        # "Ultimate" read as the level the card lists call ultimate (究極体); the
        # source's English word could also mean Perfect (完全体): the summary says so.
        KindTotalLimit(
            f'{REGULATION}, "participating deck" (at most 8 Ultimate-level cards)',
            levelled("Ultimate-level Digimon", "digimon", "ultimate"),
            8,
            sections=("main",),
            one_card=True,
            code="level-total-limit",
            where="deck",
        ),
        SetAllowed(
            f'{REGULATION}, "participating deck" (St- and Bo- cards only, no privilege cards)',
            ("St", "Bo"),
        ),
    ),
    summary=(
        "The deck has 60 cards or more.",
        "At least one Level III Digimon.",
        "At most 3 cards of one name, whatever their numbers, unless the card says otherwise.",
        "At most 8 Ultimate-level Digimon, whatever their type. The regulation we read is an "
        "English translation that does not give the Japanese word: deckcheck reads "
        '"Ultimate" as the level the card lists call Ultimate (究極体), not Perfect '
        "(完全体), which the English anime also called Ultimate.",
        "Only cards numbered St- (starters) or Bo- (boosters); no privilege (promo) cards.",
    ),
    sources=(
        "Digital Monster Card Game Official Tournament Regulation Ultimate Battle "
        "(Bandai; an English translation on dhctcg.blogspot.com, "
        "p/digital-monster-card-game-official.html), one source only",
        'dmcg-wiki.txt, "Ultimate Battle Level"',
    ),
    extends="dmcg",
)
