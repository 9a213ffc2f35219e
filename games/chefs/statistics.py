"""Chefs' statistics in words (the ``statistics`` hook of its game type; the codes:
engine/chefs/statistics.py, docs/season.md "Statistics")."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import npgettext_lazy, pgettext, pgettext_lazy

from games.gametypes.base import Described
from games.statistics_words import GAMES, Unit, described

ROUNDS = Unit(
    pgettext_lazy("what a statistic's sample counts", "Rounds"),
    npgettext_lazy(
        "a statistic over its sample",
        "%(value)s in %(count)d round",
        "%(value)s in %(count)d rounds",
        "count",
    ),
)
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


def describe(code: str) -> Described | None:
    figure = FIGURES.get(code)
    return described(str(figure[0]), figure[1]) if figure is not None else None


def describe_feat(code: str) -> str | None:
    feat = FEATS.get(code)
    return str(feat) if feat is not None else None


def feat_round(code: str, round: int) -> str:
    return pgettext("where a feat happened", "round %(round)s") % {"round": round}
