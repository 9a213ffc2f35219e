"""Chefs as a game type: Chefs record format v1 (docs/chefs-record-format.md), refereed by
``engine.chefs``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_noop

from engine.chefs import events
from engine.chefs.replay import replay_lines, step
from engine.chefs.results import results
from engine.chefs.rules import PLAYER_COUNTS
from engine.chefs.state import ChefsState, Phase
from engine.chefs.summary import summarize
from games.gametypes.base import DemoTournament, StandingsRule
from games.gametypes.engine_backed import EngineGameType, EngineState


class Chefs(EngineGameType):
    key = events.GAME
    name = "Chefs"
    table_sizes: tuple[int, ...] = PLAYER_COUNTS
    record_types = frozenset(events.EVENT_TYPES)
    pages = "games.chefs.pages"
    api = "games.chefs.api"
    refusals = "games.chefs.refusals"
    phone: str | None = None
    standings_rule: StandingsRule | None = StandingsRule(
        "place",
        ("game_tiebreaks", "game_points", "first_places"),
        game_points=(
            gettext_noop("Final positions"),
            gettext_noop(
                "The chef's final positions on the board added up over all games (a bye adds none)."
            ),
        ),
        order=gettext_noop(
            "%(game)s ranks players equal on placement points by the game's points, then first "
            "places"
        ),
    )
    demo: DemoTournament | None = DemoTournament(
        "Demo Chefs race",
        ("Kai", "Lena", "Milo", "Nora", "Omar", "Pia", "Quinn", "Rosa", "Sven", "Tara", "Uma"),
    )
    engine_new = staticmethod(ChefsState)
    engine_parse = staticmethod(events.from_json)
    engine_encode = staticmethod(events.to_json)
    engine_step = staticmethod(step)
    engine_summary = staticmethod(summarize)
    engine_over = staticmethod(lambda state: state.phase is Phase.OVER)
    engine_loads = staticmethod(events.loads)
    engine_dumps = staticmethod(events.dumps)
    engine_replay_lines = staticmethod(replay_lines)

    def results(self, state: EngineState, entry: Mapping[str, Any]) -> dict[str, Any]:
        """``entry``: ``{"positions": {chef: final position}}``."""
        return results(list(state.state.players), entry)
