"""Chefs, the race to field 20: the rules engine for its records (docs/chefs-rules.md).

Pure Python, no Django. The same pieces as the Trick-n-Chef engine: :mod:`.events` (records v1
and v2), :mod:`.referee` (``check`` and the legal moves), :mod:`.apply` (the fold), :mod:`.rules`,
:mod:`.replay`, :mod:`.summary`, :mod:`.results` (results-only entries), :mod:`.simulate`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.chefs.events import GAME, dumps, loads, to_json
from engine.chefs.replay import replay, replay_lines, step
from engine.chefs.results import results
from engine.chefs.rules import PLAYER_COUNTS
from engine.chefs.simulate import simulate
from engine.chefs.state import ChefsState, Phase
from engine.chefs.summary import summarize

if TYPE_CHECKING:
    from engine.statistics import PlayerStatistics


class ChefsRules:
    """The registry entry (engine.registry.RULES["chefs"])."""

    key: str = GAME
    name: str = "Chefs"
    players: tuple[int, ...] = PLAYER_COUNTS

    def replay(self, lines: Sequence[str]) -> dict[str, Any]:
        return summarize(replay_lines(lines))

    def simulate(self, seed: int, players: int) -> list[dict[str, Any]]:
        return [to_json(e) for e in simulate(seed, players)]

    def statistics(self, events: Sequence[Mapping[str, Any]]) -> dict[str, PlayerStatistics]:
        """Each player's statistics of a finished game's record (:mod:`.statistics`)."""
        from engine.chefs.statistics import statistics

        return statistics(events)


GAME_KEY = GAME
"""The key its records name on their first line."""

RULES = ChefsRules()

__all__ = [
    "GAME_KEY",
    "RULES",
    "ChefsRules",
    "ChefsState",
    "Phase",
    "dumps",
    "loads",
    "replay",
    "replay_lines",
    "results",
    "simulate",
    "step",
    "summarize",
]
