"""The game registry holds a game (issue 40 item 6): what modules used to decide by
testing `game == "dcg"` is a fact of the `Game`, asked through rules.games."""

from importlib import resources

import pytest

from deckcheck.documents import Source, document
from rules import games
from rules.builtin import BUILT_IN
from rules.games import GAMES, Dated, Game

# What each game has, as the branches on its id said before the registry held it.
HAS = {
    "dcg": {"products": True, "lists": True, "deck_codes": True, "set_numbers": True},
    "dbe": {"products": False, "lists": False, "deck_codes": False, "set_numbers": False},
    "digibattle": {"products": False, "lists": False, "deck_codes": False, "set_numbers": False},
    "dmcg": {"products": False, "lists": False, "deck_codes": False, "set_numbers": False},
}


@pytest.mark.parametrize("game_id", sorted(HAS))
def test_a_game_says_what_it_has(game_id):
    game = GAMES[game_id]
    has = HAS[game_id]
    assert games.has_products(game_id) is game.has_products is has["products"]
    assert game.has_lists is has["lists"] and game.set_numbers is has["set_numbers"]
    assert games.has_deck_codes(game_id) is has["deck_codes"]
    assert game.format_id == game_id  # each game's default format is the one of its id


def test_an_unknown_game_has_nothing_and_is_named_as_written():
    assert not games.has_products("nope") and not games.has_deck_codes("nope")
    assert games.game_label("nope") == "nope"


def test_the_services_own_game_serves_the_lists_and_products():
    assert games.DEFAULT_GAME == games.DEFAULT_FORMAT == "dcg"
    assert games.GAMES_WITH_LISTS == ("dcg",)
    assert games.LISTS_GAME == games.PRODUCTS_GAME == "dcg"


def test_labels_markers_and_headings():
    assert [games.game_label(g) for g in GAMES] == [
        "DCG",
        "Digimon Battle Evolution",
        "Digi-Battle",
        "Digital Monster Card Game",
    ]
    assert games.MARKER_TOKENS == ("dcg", "(dcg)", "[dcg]")
    assert games.SECTION_NAMES["eggs"] == "Digi-Egg deck"
    assert set(games.SECTION_NAMES) == set(games.SECTIONS)


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_a_games_dated_files_ship(game: Game):
    data = resources.files("rules.data")
    for name in (game.dated.lists, game.dated.releases, game.dated.starter_decks):
        assert name is None or data.joinpath(name).is_file(), name


def test_a_game_without_a_default_format_picks_the_one_of_its_id():
    bare = Game(id="toy", name="Toy", sections=("main",), kinds=("monster",), levels=())
    assert bare.format_id == "toy" and bare.label == "Toy"
    assert not bare.has_lists and not bare.has_products and bare.dated == Dated()


def test_a_cited_rule_document_is_shown_by_its_title_and_address():
    found = document('dcg-rule-manual-en.txt, "Decks"')
    assert found == Source(
        'Digimon Card Game Rule Manual (English), "Decks"', "https://world.digimoncard.com/rule/"
    )
    assert document("dbe-rules.txt").text == "Digimon Battle Evolution rules (Alice White)"
    assert document("https://example.org/x") == Source(
        "https://example.org/x", "https://example.org/x"
    )


@pytest.mark.parametrize("fmt", BUILT_IN.values(), ids=lambda f: f.id)
def test_every_file_a_built_in_format_cites_is_a_document_of_its_game(fmt):
    own = {doc.source for doc in GAMES[fmt.game].documents}
    for source in fmt.sources:
        cited = source.split(",")[0].split(" ")[0]
        if cited.endswith(".txt"):
            assert cited in own, source
            assert cited not in document(source).text  # players see its title
