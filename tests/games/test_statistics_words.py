"""Every statistic and feat each game's rules can mine has its words in every language, through
the registry (games.statistics_words and each game's ``statistics`` hook): a member page never
shows a raw code for a known one, and Russian says "1 раздачу, 2 раздачи, 5 раздач"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation

from engine.registry import RULES, statistics_of
from games import statistics_words
from games.gametypes import GAME_TYPES, game_module
from games.gametypes.base import Described
from games.tricknchef import statistics as tricknchef_words
from tests.highcard.game.gametype import HIGH_CARD
from tests.web.i18n_compiled import ensure_compiled

pytestmark = pytest.mark.one_backend

LANGUAGES = ("en", "fr", "ru", "ja")
SEEDS = range(3)


def mined() -> Iterator[tuple[str, str, str]]:
    """(game, "statistic" or "feat", code) for every code the games' records give, over a few
    simulated games at every table size (the suits in play differ with the seed and size)."""
    seen: set[tuple[str, str, str]] = set()
    for key, rules in RULES.items():
        mines = statistics_of(rules)
        assert mines is not None, key
        for players in rules.players:
            for seed in SEEDS:
                for figures in mines.statistics(rules.simulate(seed, players)).values():
                    seen |= {(key, "statistic", s.code) for s in figures.statistics}
                    seen |= {(key, "feat", f.code) for f in figures.feats}
    return iter(sorted(seen))


CODES = list(mined())
STATISTICS = [(game, code) for game, kind, code in CODES if kind == "statistic"]
FEATS = [(game, code) for game, kind, code in CODES if kind == "feat"]


@pytest.fixture(autouse=True, scope="module")
def compiled() -> Iterator[None]:
    ensure_compiled()
    yield
    translation.deactivate()


def test_the_simulated_games_give_every_game_and_kind_of_code() -> None:
    assert {game for game, _ in STATISTICS} == set(RULES) == {game for game, _ in FEATS}
    codes = {code for _, code in STATISTICS}
    assert {"tnc.chefs_taken.blue", "tnc.score_seat.4", "ck.upgrades_bought"} <= codes


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("game", "code"), STATISTICS)
def test_every_statistic_has_its_words(language: str, game: str, code: str) -> None:
    with translation.override(language):
        found = statistics_words.describe(game, code)
        assert isinstance(found, Described)
        assert found.label and found.label != code and "%(" not in found.label
        assert found.per and found.per != code
        words = found.sample_words(31, 12)
        assert "31" in words and "12" in words and "%(" not in words
        assert statistics_words.label(game, code) == found.label
        assert statistics_words.sample_words(game, code, 31, 12) == words


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("game", "code"), FEATS)
def test_every_feat_has_its_words(language: str, game: str, code: str) -> None:
    with translation.override(language):
        said = statistics_words.describe_feat(game, code)
        assert said and said != code
        where = statistics_words.feat_round(game, code, 2)
        assert where is not None and "2" in where and "%(" not in where
        assert statistics_words.feat_round(game, code, None) is None


def test_the_words_are_the_languages() -> None:
    game = "trick-n-chef"
    expected = {
        "en": ("Chefs taken: green Chef", "31 in 12 deals", "Best deal score", "deal 2"),
        "fr": (
            "Chefs pris : chef vert",
            "31 en 12 donnes",
            "Meilleur score d'une donne",
            "donne 2",
        ),
        "ru": (
            "Взятые шефы: зелёный шеф",
            "31 за 12 раздач",
            "Лучший результат за раздачу",
            "раздача 2",
        ),
        "ja": ("取ったシェフ：緑のシェフ", "12ディールで31", "1ディールの最高得点", "ディール2"),
    }
    for language, (chefs, deals, feat, where) in expected.items():
        with translation.override(language):
            assert statistics_words.label(game, "tnc.chefs_taken.green") == chefs
            assert statistics_words.sample_words(game, "tnc.tricks_won", 31, 12) == deals
            assert statistics_words.describe_feat(game, "tnc.best_deal_score") == feat
            assert statistics_words.feat_round(game, "tnc.best_deal_score", 2) == where
    with translation.override("ru"):
        assert statistics_words.label(game, "tnc.score_seat.3") == "Очки с места 3 за столом"
        assert statistics_words.sample_words("food-truck", "ft.victory_points", 3, 4) == (
            "3 за 4 раунда"
        )


@pytest.mark.parametrize(("game", "code"), STATISTICS)
def test_russian_says_each_plural_form(game: str, code: str) -> None:
    """Where English says 1 and 2 apart, Russian does too, and 2 and 5 apart where its
    grammar does (the genitive after "из" is one form for both): never one form for all."""
    found = {}
    for language in ("en", "ru"):
        with translation.override(language):
            found[language] = [
                statistics_words.sample_words(game, code, 7, n).replace(str(n), "N")
                for n in (1, 2, 5, 21)
            ]
    english, russian = found["en"], found["ru"]
    assert english[0] != english[1]
    assert russian[0] != russian[2]
    assert russian[0] == russian[3]  # 21 is said as 1


def test_deals_and_rounds_take_three_russian_forms() -> None:
    with translation.override("ru"):
        assert [
            statistics_words.sample_words("trick-n-chef", "tnc.tricks_won", 4, n) for n in (1, 3, 5)
        ] == [
            "4 за 1 раздачу",
            "4 за 3 раздачи",
            "4 за 5 раздач",
        ]
        assert [statistics_words.sample_words("chefs", "chefs.steps", 4, n) for n in (1, 3, 5)] == [
            "4 за 1 раунд",
            "4 за 3 раунда",
            "4 за 5 раундов",
        ]


def test_unknown_codes_and_games_fall_back_to_the_code() -> None:
    for game, code in [
        ("trick-n-chef", "tnc.nonsense"),
        ("trick-n-chef", "tnc.chefs_taken.purple"),
        ("trick-n-chef", "tnc.score_seat.x"),
        ("trick-n-chef", "tnc.score_seat.0"),
        ("food-truck", "tnc.tricks_won"),  # another game's code is not this game's
        ("no-such-game", "tnc.tricks_won"),
    ]:
        assert statistics_words.describe(game, code) is None
        assert statistics_words.label(game, code) == code
        assert statistics_words.sample_words(game, code, 31, 12) == "31 / 12"
        assert statistics_words.describe_feat(game, code) == code
    assert tricknchef_words.describe("tnc.nonsense") is None
    assert tricknchef_words.describe_feat("tnc.nonsense") is None


def test_every_game_names_its_words_and_a_game_without_them_need_not() -> None:
    for key in RULES:
        module = game_module(key, "statistics")
        assert module is not None and module.__name__ == GAME_TYPES[key].statistics
        assert module.__name__.startswith("games.") and module.__name__.endswith(".statistics")
    assert HIGH_CARD.statistics is None  # the toy game: the default, and still a GameType
    assert game_module(HIGH_CARD.key, "statistics") is None
