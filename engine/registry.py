"""Every game the engine referees, by its key, and how a record says which game it is.

A record names its game on its first line: ``{"type": "game_started", "game": "food-truck",
...}``. A first line without ``"game"`` is a Trick-n-Chef record (record format v1 has no such
key, and v1 stays valid as written). ``python -m engine replay`` and ``simulate`` go through
:data:`RULES`; each game's own package (``engine/<game>/``) holds its rules, pure Python.

Adding a game: its package. :data:`RULES` holds every package of ``engine/`` that gives
``RULES`` (found when this module is first imported; the kernel's modules are not packages).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import engine
from engine.errors import InvalidRecord
from engine.jsonline import split_lines
from engine.statistics import PlayerStatistics

DEFAULT = "trick-n-chef"
"""A first line without ``"game"`` is a Trick-n-Chef record (record format v1 has no key)."""


class Rules(Protocol):
    """What the command line needs of a game's rules (each package's ``RULES``).

    Every game package of ``engine/`` also gives ``statistics(events)``
    (:class:`MinesStatistics`: a finished game's record to each player's figures,
    engine.statistics, docs/season.md "Statistics"; tests/engine/test_every_game.py checks each
    game has it). It is not required here, so that a game registered from elsewhere (the toy
    game of tests/highcard/) is still a ``Rules``: ask with :func:`statistics_of`.
    """

    key: str
    name: str
    players: tuple[int, ...]
    """The table sizes the game allows (teams: the number of players in all)."""

    def replay(self, lines: Sequence[str]) -> dict[str, Any]:
        """Check a record's lines and summarize it (what ``replay`` prints); raises
        InvalidRecord at the first line that cannot be accepted."""
        ...

    def simulate(self, seed: int, players: int) -> list[dict[str, Any]]:
        """A random legal whole game, as its record's JSON objects."""
        ...


@runtime_checkable
class MinesStatistics(Protocol):
    """A game's rules that mine its records for statistics (every game of ``engine/``)."""

    def statistics(self, events: Sequence[Mapping[str, Any]]) -> dict[str, PlayerStatistics]:
        """Each player's statistics of a finished game's record, given as its JSON objects
        (what ``simulate`` returns), by the player's name as the record lists it; ``{}`` for a
        record not finished or with no plays (results only). Raises InvalidRecord at the
        first object that cannot be accepted."""
        ...


def statistics_of(rules: Rules) -> MinesStatistics | None:
    """The game's statistics, if its rules mine them (None for a game that does not)."""
    return rules if isinstance(rules, MinesStatistics) else None


def _packages() -> dict[str, Rules]:
    """Each game package's rules by key, the packages in name order."""
    found: dict[str, Rules] = {}
    for info in sorted(pkgutil.iter_modules(engine.__path__), key=lambda i: i.name):
        if info.ispkg:
            rules = getattr(importlib.import_module(f"engine.{info.name}"), "RULES", None)
            if rules is not None:
                found[rules.key] = rules
    return found


RULES: dict[str, Rules] = _packages()


def game_of(lines: Sequence[str]) -> str:
    """The game a record's first line names (Trick-n-Chef when it names none, or when the line
    is not JSON: that game's reader then says what is wrong with it)."""
    if not lines:
        return DEFAULT
    try:
        first = json.loads(lines[0])
    except ValueError:
        return DEFAULT
    game = first.get("game") if isinstance(first, dict) else None
    return game if isinstance(game, str) and game in RULES else DEFAULT


def replay_data(data: bytes | str) -> dict[str, Any]:
    """Check and summarize a record file of any game; raises InvalidRecord."""
    lines = split_lines(data)
    return RULES[game_of(lines)].replay(lines)


__all__ = [
    "DEFAULT",
    "RULES",
    "InvalidRecord",
    "MinesStatistics",
    "Rules",
    "game_of",
    "replay_data",
    "statistics_of",
]
