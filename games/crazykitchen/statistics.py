"""Crazy Kitchen's statistics in words (the ``statistics`` hook of its game type; the codes:
engine/crazykitchen/statistics.py, docs/season.md "Statistics"). Every figure is the team's,
given to each of its members."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import npgettext_lazy, pgettext_lazy

from games.statistics_words import GAMES, ROUNDS, Catalogue, Unit

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


WORDS = Catalogue(FIGURES, FEATS)
describe = WORDS.describe
describe_feat = WORDS.describe_feat
feat_round = WORDS.feat_round
