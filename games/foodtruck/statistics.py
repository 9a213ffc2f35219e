"""Food Truck's statistics in words (the ``statistics`` hook of its game type; the codes:
engine/foodtruck/statistics.py, docs/season.md "Statistics"). The French words are its French
rulebook's (manche, plat, carte Compagnie, points de Victoire)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import npgettext_lazy, pgettext_lazy

from games.statistics_words import GAMES, ROUNDS, Catalogue, Unit

DISHES_SERVED = Unit(
    pgettext_lazy("what a statistic's sample counts", "Dishes served"),
    npgettext_lazy(
        "a statistic over its sample",
        "%(value)s of %(count)d dish served",
        "%(value)s of %(count)d dishes served",
        "count",
    ),
)

FIGURES: dict[str, tuple[Promise, Unit]] = {
    "ft.victory_points": (pgettext_lazy("a player's statistic", "Victory points"), ROUNDS),
    "ft.dishes_served": (pgettext_lazy("a player's statistic", "Dishes served"), ROUNDS),
    "ft.dishes_refused": (pgettext_lazy("a player's statistic", "Dishes refused"), ROUNDS),
    "ft.stacks": (pgettext_lazy("a player's statistic", "Dishes stacked"), DISHES_SERVED),
    "ft.company_played": (
        pgettext_lazy("a player's statistic", "Company cards played"),
        ROUNDS,
    ),
    "ft.games_won": (pgettext_lazy("a player's statistic", "Games won"), GAMES),
}

FEATS: dict[str, Promise] = {
    "ft.most_dishes_in_round": pgettext_lazy("a player's feat", "Most dishes served in one round"),
    "ft.tallest_stack": pgettext_lazy("a player's feat", "Tallest stack"),
}


WORDS = Catalogue(FIGURES, FEATS)
describe = WORDS.describe
describe_feat = WORDS.describe_feat
feat_round = WORDS.feat_round
