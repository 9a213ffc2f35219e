"""Trick-n-Chef, the trick-taking game of chefs: the rules engine for its records
(docs/rules.md, docs/record-format.md). Pure Python, no Django. The pieces, in the order an
event meets them:

- :mod:`.events` -- the v1 record's events (frozen dataclasses) and their JSON form;
- :mod:`.referee` -- ``check(state, event)``: may this happen now? (and the legal moves);
- :mod:`.apply` -- ``apply(state, event)``: the fold, which never validates;
- :mod:`.rules` -- the rules as small pure functions (trump, winner, Chef, coins, scores);
- :mod:`.replay` -- ``step``, ``replay`` and reading whole records (the kernel's engine.fold);
- :mod:`.summary` -- the JSON that ``python -m engine replay`` prints;
- :mod:`.results` (results-only entries), :mod:`.simulate`, :mod:`.snapshot`, :mod:`.cards`,
  :mod:`.bench` (``python -m engine bench``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.tricknchef.apply import apply
from engine.tricknchef.events import (
    CardPlayed,
    ChefChosen,
    ChefTaken,
    Event,
    GameStarted,
    RoundStarted,
    dumps,
    loads,
    to_json,
)
from engine.tricknchef.referee import check, expected_next, legal_cards
from engine.tricknchef.replay import replay, replay_lines, replay_record, step
from engine.tricknchef.results import check_results
from engine.tricknchef.simulate import simulate
from engine.tricknchef.state import GameState, Phase
from engine.tricknchef.summary import summarize

if TYPE_CHECKING:
    from engine.statistics import PlayerStatistics

GAME_KEY = "trick-n-chef"
"""A first line without ``"game"`` is a Trick-n-Chef record (record format v1 has no such key)."""
PLAYER_COUNTS: tuple[int, ...] = (3, 4)


class TrickNChefRules:
    """Trick-n-Chef for the engine's registry (engine.registry.RULES)."""

    key: str = GAME_KEY
    name: str = "Trick-n-Chef"
    players: tuple[int, ...] = PLAYER_COUNTS

    def replay(self, lines: Sequence[str]) -> dict[str, Any]:
        return summarize(replay_lines(lines))

    def simulate(self, seed: int, players: int) -> list[dict[str, Any]]:
        return [to_json(e) for e in simulate(seed, players)]

    def statistics(self, events: Sequence[Mapping[str, Any]]) -> dict[str, PlayerStatistics]:
        """Each player's statistics of a finished game's record (:mod:`.statistics`)."""
        from engine.tricknchef.statistics import statistics

        return statistics(events)

    def bench(self, games: int, repeat: int, players: int) -> None:
        """``python -m engine bench``: replay speed, printed (:mod:`.bench`)."""
        from engine.tricknchef.bench import run

        run(games=games, repeat=repeat, players=players)


RULES = TrickNChefRules()

__all__ = [
    "GAME_KEY",
    "PLAYER_COUNTS",
    "RULES",
    "CardPlayed",
    "ChefChosen",
    "ChefTaken",
    "Event",
    "GameStarted",
    "GameState",
    "Phase",
    "RoundStarted",
    "TrickNChefRules",
    "apply",
    "check",
    "check_results",
    "dumps",
    "expected_next",
    "legal_cards",
    "loads",
    "replay",
    "replay_lines",
    "replay_record",
    "simulate",
    "step",
    "summarize",
]
