"""Food Truck's statistics in words (the ``statistics`` hook of its game type; the codes:
engine/foodtruck/statistics.py, docs/season.md "Statistics"). The French words are its French
rulebook's (manche, plat, carte Compagnie, points de Victoire)."""

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


def describe(code: str) -> Described | None:
    figure = FIGURES.get(code)
    return described(str(figure[0]), figure[1]) if figure is not None else None


def describe_feat(code: str) -> str | None:
    feat = FEATS.get(code)
    return str(feat) if feat is not None else None


def feat_round(code: str, round: int) -> str:
    return pgettext("where a feat happened", "round %(round)s") % {"round": round}
