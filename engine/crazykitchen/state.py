"""The state of a Crazy Kitchen game as the fold builds it (a plain mutable object)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.crazykitchen.events import RoundScored
from engine.crazykitchen.rules import ROUNDS, UPGRADE_AFTER


@dataclass(frozen=True, slots=True)
class Bought:
    """v2: one upgrade bought at a break (CK4.4)."""

    after_round: int
    team: str
    kind: str
    """``"tool"`` (a tool sped up) or ``"card"`` (a one-time card taken)."""
    cost: int
    tool: str | None = None


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
    version: int = 1
    """The record's version (docs/crazykitchen-record-format.md)."""
    head_chefs: dict[str, str] = field(default_factory=dict)
    """v2: each team's head chef (CK1.5)."""
    orders: list[tuple[str, int]] = field(default_factory=list)
    """v2: the round's orders entered so far, as they stand: ``("fulfilled", points)`` or
    ``("failed", penalty)``."""
    returned: bool = False
    """v2: the customers returned the round and the cooks have not changed it since."""
    bought: list[Bought] = field(default_factory=list)
    """v2: the upgrades bought, in record order."""
    done: dict[int, list[str]] = field(default_factory=dict)
    """v2: the teams that finished upgrading, by break (after round 2, 4)."""

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.teams)

    @property
    def over(self) -> bool:
        return len(self.rounds) == ROUNDS

    @property
    def at_break(self) -> int | None:
        """v2: the break the teams are upgrading at (after round 2 or 4), None while a round
        is played or the game is over."""
        after = len(self.rounds)
        if self.version == 2 and after in UPGRADE_AFTER and len(self.done.get(after, ())) < 2:
            return after
        return None

    def spent(self, after_round: int, team: str) -> int:
        """v2: what the team has bought for at that break."""
        return sum(b.cost for b in self.bought if b.after_round == after_round and b.team == team)

    def totals(self) -> dict[str, int]:
        """CK5.1: round points plus the smaller team's compensation."""
        return {
            name: points + (self.compensation if name == self.compensated else 0)
            for name, points in self.points.items()
        }
