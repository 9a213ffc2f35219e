"""Food Truck as a game type: Food Truck record format v2 for new tables (v1 records still read,
docs/foodtruck-record-format.md), refereed by ``engine.foodtruck``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_noop

from engine.foodtruck import events, snapshot
from engine.foodtruck.replay import replay_lines, step
from engine.foodtruck.results import results
from engine.foodtruck.rules import PLAYER_COUNTS
from engine.foodtruck.state import GameState, Phase
from engine.foodtruck.summary import summarize
from games.gametypes.base import DemoTournament, StandingsRule
from games.gametypes.engine_backed import EngineGameType, EngineState


class FoodTruck(EngineGameType):
    key = events.GAME_KEY
    name = "Food Truck"
    table_sizes: tuple[int, ...] = PLAYER_COUNTS
    first_player_rule = True
    """FT2.5: round 1's first player may be anyone, so a tournament table's seat 1 starts it
    (its ``round_started`` names the ``first_player``, as Trick-n-Chef's does)."""
    record_types = frozenset(events.EVENT_TYPES)
    pages = "games.foodtruck.pages"
    api = "games.foodtruck.api"
    refusals = "games.foodtruck.refusals"
    phone: str | None = "games.foodtruck.phone"
    statistics: str | None = "games.foodtruck.statistics"
    queued_taps: str | None = "games.foodtruck.queue"
    standings_rule: StandingsRule | None = StandingsRule(
        "place",
        ("game_tiebreaks", "game_points", "first_places"),
        game_points=(
            gettext_noop("Victory points"),
            gettext_noop("The victory points added up over all games (a bye adds none)."),
        ),
        order=gettext_noop(
            "%(game)s ranks players equal on placement points by the game's points, then first "
            "places"
        ),
    )
    demo: DemoTournament | None = DemoTournament(
        "Demo Food Truck rally",
        ("Ada", "Basil", "Cyrus", "Dora", "Emil", "Flora", "Gino", "Hana", "Ivan", "Juno", "Kim"),
        table_size=4,
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

    def start(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        """A new table's record is v2 (docs/foodtruck-record-format.md, "Format v2")."""
        return events.to_json(events.GameStarted(tuple(players), events.CURRENT_VERSION))

    def snapshot(self, state: EngineState) -> dict[str, Any]:
        return snapshot.to_snapshot(state.state)

    def restore(self, data: Mapping[str, Any]) -> EngineState:
        if not data:
            return self.new_state()
        return EngineState(snapshot.from_snapshot(dict(data)))

    def step(self, state: EngineState, event: Any) -> None:
        step(state.state, event)  # its own snapshot: no need to keep the events

    def results(self, state: EngineState, entry: Mapping[str, Any]) -> dict[str, Any]:
        """``entry``: ``{"victory_points": {player: n}, "winner": player}``."""
        return results(list(state.state.players), entry)
