"""Food Truck's rules as small pure functions and constants (docs/foodtruck-rules.md).

Nothing here knows about events or the game state: each function takes plain values, so the
referee, the fold, the simulator and the tests share one statement of each rule.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from typing import Final, NamedTuple

PLAYER_COUNTS: Final = (2, 3, 4, 5)
"""FT1.1: 2 to 5 players."""

DESSERT: Final = "dessert"
"""FT1.2: the joker dish; one per player, never in the market."""

STARTING_DISHES: Final = ("burger", "burger", "pizza", "hotdog", "sandwich")
"""FT2.2: every player's starting hand of dish cards (with one dessert, FT2.1)."""

STARTING_CARDS: Final = (DESSERT, *STARTING_DISHES)

DISH_CARDS: Final = 60
"""FT1.2: 65 dish cards, 5 of them desserts: 60 dish cards that are not desserts."""

EFFECTS: Final = ("rearrange", "remove", "swap", "under", "copy")
"""FT1.3: the five Company effects; each player's company has one card of each."""

REARRANGE_DEPTH: Final = 5
"""FT6.1: the rearrange effect reorders the top five dishes of the pile."""

DISH_PATTERN: Final = re.compile(r"[a-z][a-z0-9-]{0,29}")
"""FT1.2: how a dish is written in a record: lower case, e.g. "burger", "hotdog", "fish-chips"."""


def is_dish_name(name: str) -> bool:
    return DISH_PATTERN.fullmatch(name) is not None


def victory_threshold(players: int) -> int:
    """FT3.1: the victory points that win the game: 3, or 2 with 5 players."""
    return 2 if players == 5 else 3


def market_pile_size(players: int) -> int:
    """FT2.3: the market's draw pile after the starting hands are dealt."""
    return DISH_CARDS - len(STARTING_DISHES) * players


def max_rounds(players: int) -> int:
    """The longest possible game: every player one point short of the threshold, then one more
    round (each round gives exactly one victory point, FT5.1)."""
    return players * (victory_threshold(players) - 1) + 1


def opponents_serving(
    served: Mapping[str, Mapping[str, int]], player: str, dish: str
) -> list[tuple[str, int]]:
    """The opponents who have ``dish`` served in front of them, with how many (a stack is 2+)."""
    return [(p, dishes[dish]) for p, dishes in served.items() if p != player and dishes.get(dish)]


def can_serve(served: Mapping[str, Mapping[str, int]], player: str, dish: str, copy: bool) -> bool:
    """FT4.3-FT4.5 and FT6.5: may ``player`` serve the dish they turned over?

    A dessert always; otherwise if no opponent has served that dish; with the copy effect also
    if exactly ONE opponent served it and did not stack it.
    """
    if dish == DESSERT:
        return True
    others = opponents_serving(served, player, dish)
    if not others:
        return True
    return copy and len(others) == 1 and others[0][1] == 1


def removable(served: Mapping[str, int]) -> list[str]:
    """FT6.2: a player's visible dishes that are not in a stack (served exactly once)."""
    return [dish for dish, count in served.items() if count == 1]


def next_in_round(players: Sequence[str], in_round: Collection[str], after: str) -> str:
    """FT4.1: the next player clockwise after ``after`` who is still in the round."""
    seat = players.index(after)
    n = len(players)
    for step in range(1, n + 1):
        candidate = players[(seat + step) % n]
        if candidate in in_round:
            return candidate
    raise ValueError("nobody is left in the round")


class Rank(NamedTuple):
    player: str
    rank: int
    points: int
    tiebreaks: tuple[int, ...]


def ranking(players: Sequence[str], points: Mapping[str, int]) -> list[Rank]:
    """FT7.2: by victory points, highest first; equal points share the place (competition
    ranking 1, 1, 3). The rulebook has no tie-break, so ``tiebreaks`` is empty. Ties are listed
    in seat order."""
    seat = {p: i for i, p in enumerate(players)}
    order = sorted(players, key=lambda p: (-points[p], seat[p]))
    result: list[Rank] = []
    for position, player in enumerate(order, start=1):
        rank = result[-1].rank if result and result[-1].points == points[player] else position
        result.append(Rank(player, rank, points[player], ()))
    return result


def rank_dict(rank: Rank) -> dict[str, object]:
    return {
        "player": rank.player,
        "rank": rank.rank,
        "points": rank.points,
        "tiebreaks": list(rank.tiebreaks),
    }
