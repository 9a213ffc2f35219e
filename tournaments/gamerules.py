"""How a tournament ranks each game, read from the game's type (games.gametypes): the pure
ranking rules of :mod:`tournaments.placement` get their :class:`~tournaments.placement.GameRule`
from here (provided at start-up, tournaments.apps), so that no tournament module names a game.
A game registered later (a test's toy game) is ranked as soon as its type is in the registry."""

from __future__ import annotations

import functools

from games.gametypes import GAME_TYPES
from games.gametypes.base import StandingsRule
from tournaments.placement import GameRule
from tournaments.standings import TieBreak


def placement_rule(game: str) -> GameRule | None:
    """The game type's placement rule (None: an unknown game, or one ranked by
    tournaments.standings)."""
    kind = GAME_TYPES.get(game)
    rule = getattr(kind, "standings_rule", None)
    return None if rule is None else _as_placement_rule(game, rule)


@functools.lru_cache(maxsize=64)
def _as_placement_rule(game: str, rule: StandingsRule) -> GameRule:
    title, description = rule.game_points
    return GameRule(
        game,
        rule.kind,
        rule.tiebreaks,
        entrant=rule.entrant,
        points=rule.points,
        game_points=TieBreak("game_points", title, description),
    )
