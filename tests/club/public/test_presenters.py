"""The club pages' words: a game's statistics named by the game's own catalogue (or by their
code while it has none), numbers in the reader's language, the rules in words."""

from __future__ import annotations

import pytest
from django.utils import translation

from club.domain import LeagueRules
from club.public import presenters

pytestmark = pytest.mark.one_backend


def test_the_games_name_comes_from_the_registry() -> None:
    assert presenters.game_name("trick-n-chef") == "Trick-n-Chef"
    assert presenters.game_name("food-truck") == "Food Truck"
    assert presenters.game_name("no-such-game") == "no-such-game"


def test_numbers_follow_the_language() -> None:
    with translation.override("fr"):
        assert presenters.decimal(23.14) == "23,1"
        assert presenters.signed(1.25) == "+1,2"
        assert presenters.signed(-0.44) == "\u22120,4"
    with translation.override("en"):
        assert presenters.decimal(-3.06) == "\u22123.1"
        assert presenters.signed(0.01) == "0.0"


def test_the_rules_in_words() -> None:
    with translation.override("en"):
        said = presenters.rule_sentences(LeagueRules(best=4, drop_worst=1, min_events=2), 6)
    assert said == [
        "Only each member's best 4 results count.",
        "Each member's 1 worst result is dropped.",
        "So far: the best 4 of 6 finished tournaments count.",
        "A member is ranked once they have taken part in 2 tournaments; a missed tournament "
        "scores nothing.",
    ]
