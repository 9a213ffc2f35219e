"""Every game the engine referees, by its key, and how a record says which game it is.

A record names its game on its first line: ``{"type": "game_started", "game": "food-truck",
...}``. A first line without ``"game"`` is a Trick-n-Chef record (record format v1 has no such
key, and v1 stays valid as written). ``python -m engine replay`` and ``simulate`` go through
:data:`RULES`; each game's own package (``engine/<game>/``) holds its rules, pure Python.

Adding a game: its package, one line in :data:`RULES`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from engine import chefs, crazykitchen, foodtruck, tricknchef
from engine.errors import InvalidRecord
from engine.jsonline import split_lines

DEFAULT = tricknchef.GAME_KEY


class Rules(Protocol):
    """What the command line needs of a game's rules (each package's ``RULES``)."""

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


RULES: dict[str, Rules] = {
    game.RULES.key: game.RULES for game in (tricknchef, chefs, crazykitchen, foodtruck)
}


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


__all__ = ["DEFAULT", "RULES", "InvalidRecord", "Rules", "game_of", "replay_data"]
