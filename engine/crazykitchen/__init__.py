"""Crazy Kitchen (Безумная кухня), two teams over six rounds: the engine for its records
(docs/crazykitchen-rules.md). Pure Python, no Django; the same pieces as the other engines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.crazykitchen.events import GAME, dumps, loads, to_json
from engine.crazykitchen.replay import replay, replay_lines, step
from engine.crazykitchen.results import results
from engine.crazykitchen.rules import PLAYER_COUNTS
from engine.crazykitchen.simulate import simulate
from engine.crazykitchen.state import KitchenState
from engine.crazykitchen.summary import summarize

if TYPE_CHECKING:
    from engine.statistics import PlayerStatistics


class CrazyKitchenRules:
    """The registry entry (engine.registry.RULES["crazy-kitchen"])."""

    key: str = GAME
    name: str = "Crazy Kitchen"
    players: tuple[int, ...] = PLAYER_COUNTS

    def replay(self, lines: Sequence[str]) -> dict[str, Any]:
        return summarize(replay_lines(lines))

    def simulate(self, seed: int, players: int) -> list[dict[str, Any]]:
        return [to_json(e) for e in simulate(seed, players)]

    def statistics(self, events: Sequence[Mapping[str, Any]]) -> dict[str, PlayerStatistics]:
        """Each player's statistics of a finished game's record (:mod:`.statistics`)."""
        from engine.crazykitchen.statistics import statistics

        return statistics(events)


GAME_KEY = GAME
"""The key its records name on their first line."""

RULES = CrazyKitchenRules()

__all__ = [
    "GAME_KEY",
    "RULES",
    "CrazyKitchenRules",
    "KitchenState",
    "dumps",
    "loads",
    "replay",
    "replay_lines",
    "results",
    "simulate",
    "step",
    "summarize",
]
