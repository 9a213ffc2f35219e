"""The Chefs rules as small pure functions (docs/chefs-rules.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, NamedTuple

PLAYER_COUNTS: Final[tuple[int, ...]] = (2, 3, 4, 5, 6)
MARKERS_PER_CHEF: Final = 3
"""CH1.3: three action markers each."""
HAND_AT_START: Final = 2
"""CH2.2: two ingredient cards dealt to everyone."""
INGREDIENT_CARDS: Final = 60
"""CH1.1: 6 x 10 ingredient cards."""
MEAL_CARDS: Final = 29
TAKE_AT_COUNTER: Final = 2
"""CH5.1: an action at the counter takes (up to) two ingredients."""
DOOR_CIRCLES: Final = 5
"""CH3.5: one chest for each marker at the door, and there are five chests."""
MEAL_STEPS_OFFERED: Final[tuple[int, ...]] = tuple(range(1, 9))
MEAL_INGREDIENTS_OFFERED: Final[tuple[int, ...]] = tuple(range(1, 5))
"""The meal cards a phone offers to lay (CH2.4): 1 to 8 steps, 1 to 4 ingredients. The rulebook
does not print the cards; the record takes any card of 1 step and 1 ingredient or more (the
table page enters it)."""
GOAL: Final = 20
"""CH9.1: the game ends in the round a chef passes field 20."""
LAP: Final = 20


def table_cards(players: int) -> tuple[int, int]:
    """CH2.1: (ingredient cards at the counter, meal cards at each cooker) for a table size."""
    if players == 2:
        return 4, 1
    if players <= 4:
        return 6, 2
    return 8, 3


def next_seat(players: Sequence[str], player: str) -> str:
    """The chef to the left of ``player``: the next one clockwise (CH3.2, CH8.2)."""
    return players[(players.index(player) + 1) % len(players)]


def chest_cards(chest: str) -> tuple[int, int]:
    """CH6.1: (cards given, cards drawn) for a chest written "give:draw"."""
    give, draw = chest.split(":")
    return int(give), int(draw)


def passed_goal(position: int) -> bool:
    """CH9.1: a chef has passed field 20 once they stand beyond it (21 or more)."""
    return position > GOAL


def field(position: int) -> int:
    """The board field a chef stands on: 1..20 (0 by the door); field 21 is field 1 again."""
    return 0 if position == 0 else (position - 1) % LAP + 1


def fill_up(have: int, target: int, supply: int) -> int:
    """CH8.1: cards added to bring ``have`` up to ``target`` from a deck of ``supply`` cards
    (reshuffled discards included)."""
    return max(0, min(target - have, supply))


class Rank(NamedTuple):
    player: str
    rank: int
    points: int
    tiebreaks: tuple[int, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "player": self.player,
            "rank": self.rank,
            "points": self.points,
            "tiebreaks": list(self.tiebreaks),
        }


def ranking(players: Sequence[str], positions: Mapping[str, int]) -> list[Rank]:
    """CH9.2: the farthest chef first; equal positions share the place (competition ranking
    1, 1, 3); between equals, seat order. Points are the position; there is no tie-break."""
    order = sorted(players, key=lambda p: (-positions[p], players.index(p)))
    ranks: list[Rank] = []
    for index, player in enumerate(order):
        if index and positions[player] == positions[order[index - 1]]:
            rank = ranks[-1].rank
        else:
            rank = index + 1
        ranks.append(Rank(player, rank, positions[player], ()))
    return ranks
