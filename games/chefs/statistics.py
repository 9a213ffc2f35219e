"""Chefs' statistics in words (the ``statistics`` hook of its game type; the codes:
engine/chefs/statistics.py, docs/season.md "Statistics")."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import npgettext_lazy, pgettext_lazy

from games.statistics_words import GAMES, ROUNDS, Catalogue, Unit

MEALS_COOKED = Unit(
    pgettext_lazy("what a statistic's sample counts", "Meals cooked"),
    npgettext_lazy(
        "a statistic over its sample",
        "%(value)s of %(count)d meal cooked",
        "%(value)s of %(count)d meals cooked",
        "count",
    ),
)
MARKERS_PLACED = Unit(
    pgettext_lazy("what a statistic's sample counts", "Markers placed"),
    npgettext_lazy(
        "a statistic over its sample",
        "%(value)s of %(count)d marker placed",
        "%(value)s of %(count)d markers placed",
        "count",
    ),
)

FIGURES: dict[str, tuple[Promise, Unit]] = {
    "chefs.steps": (pgettext_lazy("a player's statistic", "Steps moved"), ROUNDS),
    "chefs.meals_cooked": (pgettext_lazy("a player's statistic", "Meals cooked"), ROUNDS),
    "chefs.meals_served": (pgettext_lazy("a player's statistic", "Meals served"), ROUNDS),
    "chefs.chef_card_used": (
        pgettext_lazy("a player's statistic", "Meals cooked with the chef card"),
        MEALS_COOKED,
    ),
    "chefs.actions_passed": (
        pgettext_lazy("a player's statistic", "Actions passed"),
        MARKERS_PLACED,
    ),
    "chefs.games_won": (pgettext_lazy("a player's statistic", "Games won"), GAMES),
}

FEATS: dict[str, Promise] = {
    "chefs.most_steps_in_round": pgettext_lazy("a player's feat", "Most steps in one round"),
    "chefs.biggest_meal_served": pgettext_lazy("a player's feat", "Biggest meal served"),
}


WORDS = Catalogue(FIGURES, FEATS)
describe = WORDS.describe
describe_feat = WORDS.describe_feat
feat_round = WORDS.feat_round
