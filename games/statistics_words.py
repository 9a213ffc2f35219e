"""The words of every game's statistics (docs/season.md "Statistics"), game-neutral: a member
page asks here with the game's key and the stored code, and the game's own ``statistics`` hook
(``games/<game>/statistics.py``, named by its game type) says it in the active language. An
unknown code (or a game with no hook) falls back to the code itself.

Also the shared piece those modules build on: :class:`Unit`, what a sample counts (its column
title and its plural-aware phrase, made with ``npgettext_lazy`` on the sample so Russian's three
forms come out right), and :data:`GAMES` (a sample of one a game: wins, a seat's score).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import npgettext_lazy, pgettext_lazy

from games.gametypes import game_module
from games.gametypes.base import Described


@dataclass(frozen=True, slots=True)
class Unit:
    """What a statistic's sample counts: ``per`` its column title, ``phrase`` a plural message
    on ``count`` (the sample) with ``%(value)s``: "%(value)s in %(count)d deals"."""

    per: Promise
    phrase: Promise

    def words(self, value: int, sample: int) -> str:
        return str(self.phrase % {"value": value, "count": sample})


GAMES = Unit(
    pgettext_lazy("what a statistic's sample counts", "Games"),
    npgettext_lazy(
        "a statistic over its sample",
        "%(value)s in %(count)d game",
        "%(value)s in %(count)d games",
        "count",
    ),
)


ROUNDS = Unit(
    pgettext_lazy("what a statistic's sample counts", "Rounds"),
    npgettext_lazy(
        "a statistic over its sample",
        "%(value)s in %(count)d round",
        "%(value)s in %(count)d rounds",
        "count",
    ),
)
"""A sample of a game's rounds (the games played in rounds: Food Truck, Chefs, Crazy Kitchen)."""

ROUND = pgettext_lazy("where a feat happened", "round %(round)s")


def described(label: str, unit: Unit, rate: bool = True) -> Described:
    """A statistic's words (``label`` already in the active language) over ``unit``."""
    return Described(label=label, per=str(unit.per), rate=rate, words=unit.words)


@dataclass(frozen=True, slots=True)
class Catalogue:
    """One game's words for its codes, as its ``statistics`` hook gives them: ``figures``
    (code -> what it is, what its sample counts), ``feats`` (code -> what it is) and how the
    game says where a feat happened (``where``, with ``%(round)s``)."""

    figures: Mapping[str, tuple[Promise, Unit]]
    feats: Mapping[str, Promise]
    where: Promise = ROUND

    def describe(self, code: str) -> Described | None:
        figure = self.figures.get(code)
        return described(str(figure[0]), figure[1]) if figure is not None else None

    def describe_feat(self, code: str) -> str | None:
        feat = self.feats.get(code)
        return str(feat) if feat is not None else None

    def feat_round(self, code: str, round: int) -> str:
        return str(self.where) % {"round": round}


def describe(game_type: str, code: str) -> Described | None:
    """A statistic's words in the active language (None: an unknown game or code)."""
    module = game_module(game_type, "statistics")
    return module.describe(code) if module is not None else None


def label(game_type: str, code: str) -> str:
    """What a statistic is, in the active language; the code itself when unknown."""
    found = describe(game_type, code)
    return found.label if found is not None else code


def sample_words(game_type: str, code: str, value: int, sample: int) -> str:
    """A statistic's value over its sample in words ("31 in 12 deals"); "31 / 12" for an
    unknown code."""
    found = describe(game_type, code)
    return found.sample_words(value, sample) if found is not None else f"{value} / {sample}"


def describe_feat(game_type: str, code: str) -> str:
    """What a feat is ("Best deal score"), in the active language; the code itself when
    unknown."""
    module = game_module(game_type, "statistics")
    found = module.describe_feat(code) if module is not None else None
    return found if found is not None else code


def feat_round(game_type: str, code: str, round: int | None) -> str | None:
    """Where a feat happened ("deal 2", "round 3"); None for a whole-game feat (no round)."""
    if round is None:
        return None
    module = game_module(game_type, "statistics")
    found = module.feat_round(code, round) if module is not None else None
    return found if found is not None else str(round)
