"""Crazy Kitchen's statistics in words (the ``statistics`` hook of its game type; the codes:
engine/crazykitchen/statistics.py, docs/season.md "Statistics"). Every figure is the team's,
given to each of its members."""

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
ORDERS = Unit(
    pgettext_lazy("what a statistic's sample counts", "Orders"),
    npgettext_lazy(
        "a statistic over its sample",
        "%(value)s of %(count)d order",
        "%(value)s of %(count)d orders",
        "count",
    ),
)
ORDERS_FULFILLED = Unit(
    pgettext_lazy("what a statistic's sample counts", "Orders fulfilled"),
    npgettext_lazy(
        "a statistic over its sample",
        "%(value)s from %(count)d order fulfilled",
        "%(value)s from %(count)d orders fulfilled",
        "count",
    ),
)
UPGRADE_BREAKS = Unit(
    pgettext_lazy("what a statistic's sample counts", "Upgrade breaks"),
    npgettext_lazy(
        "a statistic over its sample",
        "%(value)s in %(count)d upgrade break",
        "%(value)s in %(count)d upgrade breaks",
        "count",
    ),
)

FIGURES: dict[str, tuple[Promise, Unit]] = {
    "ck.team_total": (pgettext_lazy("a player's statistic", "Team total"), GAMES),
    "ck.round_score": (pgettext_lazy("a player's statistic", "Round scores"), ROUNDS),
    "ck.orders_fulfilled": (pgettext_lazy("a player's statistic", "Orders fulfilled"), ORDERS),
    "ck.order_points": (
        pgettext_lazy("a player's statistic", "Points from orders"),
        ORDERS_FULFILLED,
    ),
    "ck.upgrades_bought": (
        pgettext_lazy("a player's statistic", "Upgrades bought"),
        UPGRADE_BREAKS,
    ),
    "ck.games_won": (pgettext_lazy("a player's statistic", "Games won"), GAMES),
}

FEATS: dict[str, Promise] = {
    "ck.best_round_score": pgettext_lazy("a player's feat", "Best round score"),
    "ck.best_team_total": pgettext_lazy("a player's feat", "Best team total"),
}


def describe(code: str) -> Described | None:
    figure = FIGURES.get(code)
    return described(str(figure[0]), figure[1]) if figure is not None else None


def describe_feat(code: str) -> str | None:
    feat = FEATS.get(code)
    return str(feat) if feat is not None else None


def feat_round(code: str, round: int) -> str:
    return pgettext("where a feat happened", "round %(round)s") % {"round": round}
