"""The Food Truck rules engine: the referee of a Food Truck record (docs/foodtruck-rules.md,
docs/foodtruck-record-format.md). Pure Python, no Django; modelled on the Trick-n-Chef engine:

- :mod:`.events` -- the record's events (frozen dataclasses) and their strict JSON form;
- :mod:`.referee` -- ``check(state, event)`` and the legal moves;
- :mod:`.apply` -- the fold, which never validates;
- :mod:`.rules` -- the rules as small pure functions;
- :mod:`.replay`, :mod:`.summary`, :mod:`.results`, :mod:`.simulate`, :mod:`.snapshot`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.foodtruck.events import GAME_KEY, to_json
from engine.foodtruck.replay import replay_lines
from engine.foodtruck.results import results
from engine.foodtruck.rules import PLAYER_COUNTS
from engine.foodtruck.simulate import simulate
from engine.foodtruck.summary import summarize

if TYPE_CHECKING:
    from engine.statistics import PlayerStatistics


class FoodTruckRules:
    """Food Truck for the engine's registry (engine.registry.RULES)."""

    key: str = GAME_KEY
    name: str = "Food Truck"
    players: tuple[int, ...] = PLAYER_COUNTS

    def replay(self, lines: Sequence[str]) -> dict[str, Any]:
        return summarize(replay_lines(lines))

    def simulate(self, seed: int, players: int) -> list[dict[str, Any]]:
        return [to_json(e) for e in simulate(seed, players)]

    def statistics(self, events: Sequence[Mapping[str, Any]]) -> dict[str, PlayerStatistics]:
        """Each player's statistics of a finished game's record (:mod:`.statistics`)."""
        from engine.foodtruck.statistics import statistics

        return statistics(events)


RULES = FoodTruckRules()

__all__ = ["RULES", "GAME_KEY", "FoodTruckRules", "results", "summarize"]
