"""Chefs as a game type: Chefs record formats v1 and v2 (docs/chefs-record-format.md), refereed
by ``engine.chefs``. New tables start v2; v1 tables and records read and replay as before."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext_noop

from engine.chefs import events
from engine.chefs.replay import replay_lines, step
from engine.chefs.results import results
from engine.chefs.rules import PLAYER_COUNTS, next_seat
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
    phone: str | None = "games.chefs.phone"
    statistics: str | None = "games.chefs.statistics"
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

    def start(self, players: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        """A new table records v2 (the meal cards laid, the organizer's end)."""
        return {
            "type": "game_started",
            "game": self.key,
            "version": events.LATEST,
            "players": list(players),
        }

    def forced(self, state: EngineState) -> events.RoundStarted | None:
        """v2, after a phone's tap (only the phones record what is forced): a round starts by
        itself once its meal cards are laid, its starting chef the one to the left of the last
        (CH3.2); round 1 with seat 1, the phones' convention (any chef may start it: the
        scorekeeper's table page still chooses)."""
        game: ChefsState = state.state
        if game.version < 2 or game.phase is not Phase.ROUND_START:
            return None
        if game.starting is None:
            return events.RoundStarted(1, game.players[0])
        return events.RoundStarted(game.round_no + 1, next_seat(game.players, game.starting))

    def results(self, state: EngineState, entry: Mapping[str, Any]) -> dict[str, Any]:
        """``entry``: ``{"positions": {chef: final position}}``."""
        return results(list(state.state.players), entry)
