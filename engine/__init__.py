"""The Trick-n-Chef rules engine: the referee of a game record (docs/rules.md).

Pure Python, no Django. The pieces, in the order an event meets them:

- :mod:`engine.events` -- the v1 record's events (frozen dataclasses) and their JSON form;
- :mod:`engine.referee` -- ``check(state, event)``: may this happen now? (and the legal moves);
- :mod:`engine.apply` -- ``apply(state, event)``: the fold, which never validates;
- :mod:`engine.rules` -- the rules as small pure functions (trump, winner, Chef, coins, scores);
- :mod:`engine.replay` -- ``step``, ``replay`` and reading whole records;
- :mod:`engine.summary` -- the JSON that ``python -m engine replay`` prints.
"""

from __future__ import annotations

from engine.apply import apply
from engine.errors import BadEvent, InvalidRecord, InvariantError, RuleViolation
from engine.events import (
    CardPlayed,
    ChefChosen,
    ChefTaken,
    Event,
    GameStarted,
    RoundStarted,
    dumps,
    loads,
)
from engine.referee import check, expected_next, legal_cards
from engine.replay import replay, replay_lines, replay_record, step
from engine.state import GameState, Phase
from engine.summary import summarize

__all__ = [
    "BadEvent",
    "CardPlayed",
    "ChefChosen",
    "ChefTaken",
    "Event",
    "GameStarted",
    "GameState",
    "InvalidRecord",
    "InvariantError",
    "Phase",
    "RoundStarted",
    "RuleViolation",
    "apply",
    "check",
    "dumps",
    "expected_next",
    "legal_cards",
    "loads",
    "replay",
    "replay_lines",
    "replay_record",
    "step",
    "summarize",
]
