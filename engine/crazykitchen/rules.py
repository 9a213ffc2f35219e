"""The Crazy Kitchen rules as small pure functions (docs/crazykitchen-rules.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

ROUNDS: Final = 6
UPGRADE_AFTER: Final[tuple[int, ...]] = (2, 4)
DEFAULT_COMPENSATION: Final = 15
MIN_TEAM: Final = 2
"""CK1.2: a team needs two players, so that as customers one can check an order while the
other holds the order token."""
PLAYER_COUNTS: Final[tuple[int, ...]] = tuple(range(4, 13))
ORDER_CARDS: Final = 57
TOOLS: Final[tuple[str, ...]] = ("knife", "grater", "pan", "pot", "oven", "blender", "sink")
"""CK4.4: the tools a v2 record may speed up, by code (the scoreboard's tool pictures; the
rulebook names the knife, the oven and the sink; the sink only matters with plates)."""


def customers_in(round_no: int, first: str, second: str) -> str:
    """CK2.1: the team that does not cook in the round."""
    return second if round_no % 2 == 1 else first


def cooks_in(round_no: int, first: str, second: str) -> str:
    """CK2.1: the teams swap roles every round; ``first`` cooks in rounds 1, 3, 5."""
    return first if round_no % 2 == 1 else second


def round_score(fulfilled: Sequence[int], penalties: Sequence[int]) -> int:
    """CK3.2: fulfilled orders' points minus the penalties, never below 0."""
    return max(0, sum(fulfilled) - sum(penalties))


def default_compensation(sizes: Sequence[int]) -> int:
    """CK1.4: 15 for the smaller team when the number of players is odd, else nothing."""
    return DEFAULT_COMPENSATION if sum(sizes) % 2 else 0


class Upgrade(NamedTuple):
    """CK4: one upgrade break, after round 2 or 4."""

    after_round: int
    points: dict[str, int]
    """Each team's points over the previous two rounds (compensation not counted)."""
    order: tuple[str, str]
    """Who upgrades first, then second."""
    limits: dict[str, int]
    """Each team may upgrade for up to the other team's points."""

    def as_dict(self) -> dict[str, object]:
        return {
            "after_round": self.after_round,
            "points": dict(self.points),
            "order": list(self.order),
            "limits": dict(self.limits),
        }


def upgrade(after_round: int, points: dict[str, int], cooked_first: str) -> Upgrade:
    """CK4.1-CK4.3: the team with fewer points over the two rounds upgrades first (on equal
    points, the team that cooked first in the game: it also cooks first after the break)."""
    a, b = points
    tied = points[a] == points[b]
    first = cooked_first if tied else (a if points[a] < points[b] else b)
    second = b if first == a else a
    return Upgrade(
        after_round, dict(points), (first, second), {first: points[second], second: points[first]}
    )


class Rank(NamedTuple):
    team: str
    players: tuple[str, ...]
    rank: int
    points: int

    def as_dict(self) -> dict[str, object]:
        return {
            "team": self.team,
            "players": list(self.players),
            "rank": self.rank,
            "points": self.points,
            "tiebreaks": [],
        }


def ranking(teams: Sequence[tuple[str, tuple[str, ...]]], totals: dict[str, int]) -> list[Rank]:
    """CK5.2: the most points wins; equal totals are a draw (both rank 1)."""
    order = sorted(range(len(teams)), key=lambda i: (-totals[teams[i][0]], i))
    out: list[Rank] = []
    for position, index in enumerate(order):
        name, players = teams[index]
        rank = position + 1
        if out and totals[name] == out[-1].points:
            rank = out[-1].rank
        out.append(Rank(name, players, rank, totals[name]))
    return out
