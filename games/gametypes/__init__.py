"""Game types: what the event store, the pages and the tournaments need to know about a game,
and no more (the protocol: :mod:`games.gametypes.base`); the registry :data:`GAME_TYPES`.

Adding a game: its engine package (``engine/<game>/``), its games package (``games/<game>/``,
its type in ``games/<game>/gametype.py``), and one line here.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from games.chefs.gametype import Chefs
from games.crazykitchen.gametype import CrazyKitchen
from games.foodtruck.gametype import FoodTruck
from games.gametypes.base import GameType, Placement
from games.tricknchef.gametype import TrickNChef

GAME_TYPES: dict[str, GameType] = {
    kind.key: kind for kind in (TrickNChef(), FoodTruck(), Chefs(), CrazyKitchen())
}
DEFAULT_GAME_TYPE = TrickNChef.key


def game_module(game_type: str, hook: str) -> ModuleType | None:
    """The module a registered game type names for one of its hooks (``refusals``, ``phone``,
    ``hands``, ``queued_taps``...), imported by name when asked (so the registry stays free of
    Django's views); None for an unknown game, or a game that names none."""
    where = getattr(GAME_TYPES.get(game_type), hook, None)
    return importlib.import_module(where) if where else None


__all__ = ["DEFAULT_GAME_TYPE", "GAME_TYPES", "GameType", "Placement", "game_module"]
