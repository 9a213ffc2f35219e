"""Game types: what the event store, the pages and the tournaments need to know about a game,
and no more (the protocol: :mod:`games.gametypes.base`).

Adding a game: its engine package (``engine/<game>/``), its module here, and one line in
:data:`GAME_TYPES`.
"""

from __future__ import annotations

from games.gametypes.base import GameType, Placement
from games.gametypes.chefs import Chefs
from games.gametypes.crazykitchen import CrazyKitchen
from games.gametypes.foodtruck import FoodTruck
from games.gametypes.tricknchef import TrickNChef

GAME_TYPES: dict[str, GameType] = {
    kind.key: kind for kind in (TrickNChef(), FoodTruck(), Chefs(), CrazyKitchen())
}
DEFAULT_GAME_TYPE = TrickNChef.key

__all__ = ["DEFAULT_GAME_TYPE", "GAME_TYPES", "GameType", "Placement"]
