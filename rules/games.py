"""One description of each game: what everything else in deckcheck reads.

Adding a game means adding one `Game` here and its formats in `rules/builtin/`;
the card importers, the resolver, the charts, the exports, the API schemas and the
pages take their sections, kinds, levels and names from this registry, and so do the
rule documents' titles, the default card images and upstream, the dated lists and
products, and the section headings. Code that would test a game id (`game == ...`)
asks a `Game` what it has instead (`has_products`, `has_deck_codes`, ...).
"""

from __future__ import annotations

from dataclasses import dataclass, field

SIDE = "side"


@dataclass(frozen=True)
class Section:
    """A deck section: `title` in exported text and headings, `words` in messages,
    `heading` on pages, `headers` the header lines of pasted text that open it."""

    id: str
    title: str
    words: str
    heading: str
    headers: tuple[str, ...]


SECTIONS = {
    section.id: section
    for section in (
        Section(
            "main",
            "Main Deck",
            "main deck",
            "Main deck",
            (
                "main",
                "main deck",
                "deck",
                "maindeck",
                "digimon",
                "tamer",
                "tamers",
                "option",
                "options",
            ),
        ),  # fmt: skip
        Section(
            "eggs",
            "Digi-Egg Deck",
            "Digi-Egg deck",
            "Digi-Egg deck",
            (
                "digi-egg",
                "digi-eggs",
                "digi-egg deck",
                "digi egg",
                "digi egg deck",
                "digiegg",
                "eggs",
                "egg",
                "egg deck",
            ),
        ),  # fmt: skip
        Section(
            "destiny", "Destiny Zone", "Destiny Zone", "Destiny Zone", ("destiny", "destiny zone")
        ),
        Section(SIDE, "Side Deck", "side deck", "Side deck", ("side", "side deck", "sideboard")),
    )
}
# Header words (lower case) -> the section they open, for the parser.
HEADERS = {header: s.id for s in SECTIONS.values() for header in s.headers}
# Section id -> its heading on the pages (the event and quick-event tables).
SECTION_NAMES = {s.id: s.heading for s in SECTIONS.values()}


def section_title(section: str) -> str:
    found = SECTIONS.get(section)
    return found.title if found else section


def section_words(section: str) -> str:
    found = SECTIONS.get(section)
    return found.words if found else section


@dataclass(frozen=True)
class AutoSection:
    """Cards of these kinds or levels go to `section` when the text does not say."""

    section: str
    kinds: frozenset[str] = frozenset()
    levels: frozenset[str] = frozenset()

    def takes(self, kind: str, level: str | None) -> bool:
        return kind in self.kinds or (level or "").upper() in self.levels


@dataclass(frozen=True)
class Draws:
    """How a player's opening hand is drawn and grows (read by `rules.odds`).

    `set_aside`: cards the player picks out of the deck before shuffling (a Rookie,
    a Level III). `first_player_draws`: whether the first player draws on turn 1.
    `per_turn` None: the hand refills to its size each turn, so what is seen by a
    turn depends on play, and only the opening hand has odds. `deck_cap`: the hand
    comes from a deck of at most this many cards (DBE's 40-card deck). `security`: cards
    placed from the deck after the hand (DCG's security stack); `set_aside_level`: the
    level of the card set aside (sample hands, deckcheck.decks.sample).
    """

    hand: int
    rule: str
    set_aside: int = 0
    first_player_draws: bool = False
    per_turn: int | None = 1
    deck_cap: int | None = None
    security: int = 0
    set_aside_level: str | None = None


@dataclass(frozen=True)
class Document:
    """A rule document as players know it: `source` is the file name (or the address
    prefix) a format's sources cite it by (../shared/rules-docs/), `title` and `url`
    what pages show instead (deckcheck.documents)."""

    source: str
    title: str
    url: str | None = None


@dataclass(frozen=True)
class Dated:
    """A game's dated facts, files in `rules/data/`: `lists` its banned / restricted
    list history (imported and synced over by `cardpool lists`), `releases` its
    products' release days (a card is legal from its product's day; numbers of a known
    product the list lacks are unconfirmed; organizers make products legal early),
    `starter_decks` the fixed contents of its starter decks (collections add them)."""

    lists: str | None = None
    releases: str | None = None
    starter_decks: str | None = None


@dataclass(frozen=True)
class Game:
    """A card game: its deck sections and the vocabulary of its card list.

    `headers_decide`: section headers in pasted text place the cards (DBE); otherwise
    headers are hints and `auto_sections` sort cards by kind (DCG eggs).
    `default_format`: the format its pages pick for it; `short`: how a line of text
    names it (`4,391 DCG cards`), its name when empty. `image_template`: where its card
    images are, unless DECKCHECK_CARD_IMAGES says otherwise (deckcheck.images);
    `sync_url`: the upstream card list `cardpool sync` reads, unless
    DECKCHECK_SYNC_URLS says otherwise. `set_numbers`: a card number begins with its
    set's code (`BT1-010`: a pool's newest sets, playsets of a set). `marker`: the tag
    deck builders write beside a card name (`Agumon (DCG)`), never part of the name.
    """

    id: str
    name: str
    sections: tuple[str, ...]
    kinds: tuple[str, ...]
    levels: tuple[str, ...]
    flags: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    auto_sections: tuple[AutoSection, ...] = ()
    headers_decide: bool = False
    has_partner: bool = False
    has_deck_codes: bool = False
    # TTS arrays keep section headers only where sections are not sorted by kind.
    tts_headers: bool = False
    json_card_list: bool = False
    starter_pool: bool = False
    notes: tuple[str, ...] = field(default=())
    draws: Draws | None = None
    default_format: str = ""
    short: str = ""
    documents: tuple[Document, ...] = ()
    image_template: str | None = None
    sync_url: str | None = None
    dated: Dated = Dated()
    set_numbers: bool = False
    marker: str | None = None

    @property
    def format_id(self) -> str:
        """The format its pages pick for it: `default_format`, else the one of its id."""
        return self.default_format or self.id

    @property
    def label(self) -> str:
        return self.short or self.name

    @property
    def has_lists(self) -> bool:
        return self.dated.lists is not None

    @property
    def has_products(self) -> bool:
        return self.dated.releases is not None

    def canonical_level(self, text: str) -> str | None:
        """The canonical spelling of a level, or None when the game has no such level."""
        wanted = text.strip().casefold()
        return next((level for level in self.levels if level.casefold() == wanted), None)

    def route(self, kind: str, level: str | None, hint: str | None, has_headers: bool) -> str:
        """The section a card read from text belongs to (the contract's "Decklist input")."""
        if hint == SIDE:
            return SIDE
        if self.headers_decide and has_headers:
            return hint or "main"
        for auto in self.auto_sections:
            if auto.takes(kind, level):
                return auto.section
        return "main"


GAMES: dict[str, Game] = {
    game.id: game
    for game in (
        Game(
            id="dcg",
            name="Digimon Card Game",
            sections=("main", "eggs"),
            kinds=("digimon", "digi-egg", "tamer", "option"),
            levels=("2", "3", "4", "5", "6", "7"),
            flags=("token",),
            colors=("Red", "Blue", "Yellow", "Green", "Black", "Purple", "White"),
            auto_sections=(AutoSection("eggs", kinds=frozenset({"digi-egg"})),),
            has_deck_codes=True,
            json_card_list=True,
            starter_pool=True,
            draws=Draws(
                hand=5,
                rule='Digimon Card Game Rule Manual, game setup steps 4 and 5 and "Draw Phase"',
                security=5,
            ),
            default_format="dcg",
            short="DCG",
            documents=(
                Document(
                    "dcg-rule-manual-en.txt",
                    "Digimon Card Game Rule Manual (English)",
                    "https://world.digimoncard.com/rule/",
                ),
                Document(
                    "dcg-comprehensive-rules-ja.txt",
                    "Digimon Card Game Comprehensive Rules (Japanese)",
                    "https://digimoncard.com/rule/",
                ),
                Document(
                    "world.digimoncard.com/rule/restriction_card",
                    "Digimon Card Game restricted and banned cards (official site)",
                    "https://world.digimoncard.com/rule/restriction_card/",
                ),
            ),
            image_template="https://world.digimoncard.com/images/cardlist/card/{number}.png",
            # The MIT-licensed community list this project's DCG importer reads (see README).
            sync_url="https://raw.githubusercontent.com/vinicius3333/aegis-digimon-tcg/main/"
            "packages/shared/src/cards/data/cards.json",
            dated=Dated(
                lists="dcg_lists.json",
                releases="dcg_releases.json",
                starter_decks="dcg_starter_decks.json",
            ),
            set_numbers=True,
            marker="dcg",
        ),
        Game(
            id="dbe",
            name="Digimon Battle Evolution",
            sections=("main", "destiny"),
            kinds=("digimon", "option", "evolution", "data", "mastery"),
            levels=("R", "C", "U", "M"),
            flags=("ace", "firewall", "proxy", "gem", "flip", "token"),
            auto_sections=(
                AutoSection("destiny", kinds=frozenset({"mastery"}), levels=frozenset({"M"})),
            ),
            headers_decide=True,
            has_partner=True,
            tts_headers=True,
            draws=Draws(
                hand=5,
                rule='DBE rules, "Pre-Game Setup" (opening hand) and "Prep Phase" (draw)',
                first_player_draws=True,
                deck_cap=40,
            ),
            default_format="dbe",
            documents=(Document("dbe-rules.txt", "Digimon Battle Evolution rules (Alice White)"),),
        ),
        Game(
            id="digibattle",
            name="Digi-Battle",
            sections=("main",),
            kinds=("digimon", "option"),
            levels=("rookie", "champion", "ultimate", "mega"),
            starter_pool=True,
            draws=Draws(
                hand=10,
                rule='Digi-Battle rules, "Set up phase" (a Rookie set aside, 10 cards drawn)',
                set_aside=1,
                per_turn=None,
                set_aside_level="rookie",
            ),
            default_format="digibattle",
            documents=(
                Document("digibattle-rules.txt", "Digi-Battle common sense rules and tips (2016)"),
            ),
        ),
        Game(
            id="dmcg",
            name="Digital Monster Card Game",
            sections=("main",),
            kinds=("digimon", "option"),
            levels=("III", "IV", "perfect", "ultimate", "hybrid"),
            starter_pool=True,
            draws=Draws(
                hand=6,
                rule="Digital Monster Card Game wiki, game setup (a Level III set aside, 6 cards)",
                set_aside=1,
                per_turn=None,
                set_aside_level="III",
            ),
            default_format="dmcg",
            documents=(
                Document(
                    "dmcg-wiki.txt",
                    "Digital Monster Card Game article (Wikimon)",
                    "https://wikimon.net/Digital_Monster_Card_Game",
                ),
            ),
        ),
    )
}

GAME_IDS = tuple(GAMES)
# The service's own game, the first: a request, form or page naming no format checks
# its default format.
DEFAULT_GAME = GAME_IDS[0]
DEFAULT_FORMAT = GAMES[DEFAULT_GAME].format_id
GAMES_WITH_LISTS = tuple(g.id for g in GAMES.values() if g.has_lists)
# The game whose dated lists and products the `/formats/dcg/...` routes, the changes
# feed, the about page and DECKCHECK_LISTS_URL serve: one game has them today (a second
# would need routes and a setting of its own).
LISTS_GAME = GAMES_WITH_LISTS[0]
PRODUCTS_GAME = next(g.id for g in GAMES.values() if g.has_products)
# The tags deck builders write beside a card name (`Agumon (DCG)`), lower case, and the
# tokens they make on a card line (`dcg`, `(dcg)`, `[dcg]`).
MARKERS = tuple(g.marker for g in GAMES.values() if g.marker)
MARKER_TOKENS = tuple(token for m in MARKERS for token in (m, f"({m})", f"[{m}]"))


def game(game_id: str) -> Game:
    """The registered game; KeyError names an id no card list or format can have."""
    return GAMES[game_id]


def game_name(game_id: str) -> str:
    found = GAMES.get(game_id)
    return found.name if found else game_id


def game_label(game_id: str) -> str:
    """How a line of text names the game (`DCG`); an unknown id as it is."""
    found = GAMES.get(game_id)
    return found.label if found else game_id


def has_products(game_id: str) -> bool:
    """Does the game have dated products (release days, early products)? An unknown
    id has none."""
    found = GAMES.get(game_id)
    return found is not None and found.has_products


def has_deck_codes(game_id: str) -> bool:
    found = GAMES.get(game_id)
    return found is not None and found.has_deck_codes
