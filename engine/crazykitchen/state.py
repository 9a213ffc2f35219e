"""The state of a Crazy Kitchen game as the fold builds it (a plain mutable object)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.crazykitchen.events import RoundScored
from engine.crazykitchen.rules import ROUNDS


@dataclass(slots=True)
class KitchenState:
    teams: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(name, players) for both teams, in the record's order."""
    cooks_first: str = ""
    compensation: int = 0
    compensated: str | None = None
    """The smaller team, which gets ``compensation`` in the final total (None: even teams)."""
    rounds: list[RoundScored] = field(default_factory=list)
    points: dict[str, int] = field(default_factory=dict)
    """Each team's points from the rounds (compensation not included)."""
    started: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.teams)

    @property
    def over(self) -> bool:
        return len(self.rounds) == ROUNDS

    def totals(self) -> dict[str, int]:
        """CK5.1: round points plus the smaller team's compensation."""
        return {
            name: points + (self.compensation if name == self.compensated else 0)
            for name, points in self.points.items()
        }
