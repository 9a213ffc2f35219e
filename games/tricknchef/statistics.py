"""Trick-n-Chef's statistics in words (the ``statistics`` hook of its game type; the codes:
engine/tricknchef/statistics.py, docs/season.md "Statistics")."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import npgettext_lazy, pgettext, pgettext_lazy

from games.gametypes.base import Described
from games.statistics_words import GAMES, Catalogue, Unit, described
from games.tricknchef.cardnames import CHEF_NAMES, chef_name

DEALS = Unit(
    pgettext_lazy("what a statistic's sample counts", "Deals"),
    npgettext_lazy(
        "a statistic over its sample",
        "%(value)s in %(count)d deal",
        "%(value)s in %(count)d deals",
        "count",
    ),
)
COINS_PLACED = Unit(
    pgettext_lazy("what a statistic's sample counts", "Coins placed"),
    npgettext_lazy(
        "a statistic over its sample",
        "%(value)s of %(count)d coin placed",
        "%(value)s of %(count)d coins placed",
        "count",
    ),
)
BEHIND_AFTER_DEAL_2 = Unit(
    pgettext_lazy("what a statistic's sample counts", "Games not leading after deal 2"),
    npgettext_lazy(
        "a statistic over its sample",
        "%(value)s of %(count)d game not leading after deal 2",
        "%(value)s of %(count)d games not leading after deal 2",
        "count",
    ),
)

FIGURES: dict[str, tuple[Promise, Unit]] = {
    "tnc.tricks_won": (pgettext_lazy("a player's statistic", "Tricks won"), DEALS),
    "tnc.coins_placed": (pgettext_lazy("a player's statistic", "Coins placed"), DEALS),
    "tnc.coins_changed_winner": (
        pgettext_lazy("a player's statistic", "Coins that changed a trick's winner"),
        COINS_PLACED,
    ),
    "tnc.coins_changed_lowest": (
        pgettext_lazy("a player's statistic", "Coins that changed who took the Chef"),
        COINS_PLACED,
    ),
    "tnc.deal_score": (pgettext_lazy("a player's statistic", "Deal scores"), DEALS),
    "tnc.deal3_comeback": (
        pgettext_lazy("a player's statistic", "Comebacks in deal 3"),
        BEHIND_AFTER_DEAL_2,
    ),
    "tnc.games_won": (pgettext_lazy("a player's statistic", "Games won"), GAMES),
}

CHEFS_TAKEN = "tnc.chefs_taken."
SCORE_SEAT = "tnc.score_seat."

FEATS: dict[str, Promise] = {
    "tnc.best_deal_score": pgettext_lazy("a player's feat", "Best deal score"),
    "tnc.best_game_total": pgettext_lazy("a player's feat", "Best game total"),
    "tnc.most_tricks_in_deal": pgettext_lazy("a player's feat", "Most tricks in one deal"),
}


WORDS = Catalogue(FIGURES, FEATS, pgettext_lazy("where a feat happened", "deal %(round)s"))
describe_feat = WORDS.describe_feat
feat_round = WORDS.feat_round


def describe(code: str) -> Described | None:
    found = WORDS.describe(code)
    if found is not None:
        return found
    if code.startswith(CHEFS_TAKEN) and code[len(CHEFS_TAKEN) :] in CHEF_NAMES:
        chef = chef_name(code[len(CHEFS_TAKEN) :])
        return described(
            pgettext("a player's statistic", "Chefs taken: %(chef)s") % {"chef": chef}, DEALS
        )
    seat = code[len(SCORE_SEAT) :] if code.startswith(SCORE_SEAT) else ""
    if seat.isdigit() and int(seat) >= 1:
        return described(
            pgettext("a player's statistic", "Score from seat %(seat)s") % {"seat": int(seat)},
            GAMES,
        )
    return None
