"""Food Truck as a game type: Food Truck record format v1 (docs/foodtruck-record-format.md),
refereed by ``engine.foodtruck``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_noop

from engine.foodtruck import events, snapshot
from engine.foodtruck.replay import replay_lines, step
from engine.foodtruck.results import results
from engine.foodtruck.rules import PLAYER_COUNTS
from engine.foodtruck.state import GameState, Phase
from engine.foodtruck.summary import summarize
from games.gametypes.base import StandingsRule
from games.gametypes.recorded import Recorded, RecordedGame


class FoodTruck(RecordedGame):
    key = events.GAME_KEY
    name = "Food Truck"
    table_sizes: tuple[int, ...] = PLAYER_COUNTS
    first_player_rule = True
    """FT2.5: round 1's first player may be anyone, so a tournament table's seat 1 starts it
    (its ``round_started`` names the ``first_player``, as Trick-n-Chef's does)."""
    record_types = frozenset(events.EVENT_TYPES)
    pages = "games.pages.foodtruck"
    api = "games.foodtruck.api"
    refusals = "games.foodtruck.refusals"
    standings_rule: StandingsRule | None = StandingsRule(
        "place",
        ("game_tiebreaks", "game_points", "first_places"),
        game_points=(
            gettext_noop("Victory points"),
            gettext_noop("The victory points added up over all games (a bye adds none)."),
        ),
    )
    engine_new = staticmethod(GameState)
    engine_parse = staticmethod(events.from_json)
    engine_encode = staticmethod(events.to_json)
    engine_step = staticmethod(step)
    engine_summary = staticmethod(summarize)
    engine_over = staticmethod(lambda state: state.phase is Phase.OVER)
    engine_loads = staticmethod(events.loads)
    engine_dumps = staticmethod(events.dumps)
    engine_replay_lines = staticmethod(replay_lines)

    def snapshot(self, state: Recorded) -> dict[str, Any]:
        return snapshot.to_snapshot(state.state)

    def restore(self, data: Mapping[str, Any]) -> Recorded:
        if not data:
            return self.new_state()
        return Recorded(snapshot.from_snapshot(dict(data)))

    def step(self, state: Recorded, event: Any) -> None:
        step(state.state, event)  # its own snapshot: no need to keep the events

    def results(self, state: Recorded, entry: Mapping[str, Any]) -> dict[str, Any]:
        """``entry``: ``{"victory_points": {player: n}, "winner": player}``."""
        return results(list(state.state.players), entry)
