"""High Card as a game type (games.gametypes.base.GameType) over its engine (tests.highcard.engine),
built on the engine-backed base every club game uses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.gametypes.base import StandingsRule
from games.gametypes.engine_backed import EngineGameType, EngineState
from tests.highcard import engine


class HighCard(EngineGameType):
    key = engine.GAME_KEY
    name = "High Card"
    table_sizes: tuple[int, ...] = (2,)
    record_types = frozenset(engine.EVENT_TYPES)
    pages = "tests.highcard.game.pages"
    refusals = "tests.highcard.game.refusals"
    api = "tests.highcard.game.api"
    phone: str | None = "tests.highcard.game.phone"
    standings_rule: StandingsRule | None = StandingsRule(
        "match",
        ("point_difference", "points_scored"),
        game_points=("Cards", "The cards played, added up over all matches."),
        points="Match points",
    )
    engine_new = staticmethod(engine.State)
    engine_parse = staticmethod(engine.from_json)
    engine_encode = staticmethod(engine.to_json)
    engine_step = staticmethod(engine.step)
    engine_summary = staticmethod(engine.summarize)
    engine_over = staticmethod(lambda state: state.over)
    engine_loads = staticmethod(engine.loads)
    engine_dumps = staticmethod(engine.dumps)
    engine_replay_lines = staticmethod(engine.replay_lines)

    def results(self, state: EngineState, entry: Mapping[str, Any]) -> dict[str, Any]:
        """``entry``: ``{"cards": {player: card}}``."""
        return engine.results(list(state.state.players), entry)


HIGH_CARD = HighCard()


class HighCardOnPaper(HighCard):
    """High Card without phones (``phone`` None): a game whose tables only their scorekeeper
    enters, for the tests of what the site shows for such a game (no seat link; a link printed
    before its phones were withdrawn opens a page that says so)."""

    phone = None


HIGH_CARD_ON_PAPER = HighCardOnPaper()
