"""Building Chefs tables event by event for the rule tests."""

from __future__ import annotations

from engine.chefs.events import (
    LOCATIONS,
    ActionPassed,
    Event,
    GameStarted,
    MarkerPlaced,
    RoundStarted,
)
from engine.chefs.replay import step
from engine.chefs.state import ChefsState, Phase


class Table:
    """A Chefs game in progress: ``Table(3).place("counter", ...)`` and so on."""

    def __init__(self, players: int = 3, first: str = "p1") -> None:
        self.state = ChefsState()
        self.names = tuple(f"p{i}" for i in range(1, players + 1))
        self.do(GameStarted(players=self.names))
        self.do(RoundStarted(round=1, starting_player=first))

    def do(self, *events: Event) -> Table:
        for event in events:
            step(self.state, event)
        return self

    def next_marker(self, location: str) -> MarkerPlaced:
        player = self.state.expected
        assert player is not None
        circle = len(self.state.markers[LOCATIONS.index(location)]) + 1
        return MarkerPlaced(player, location, circle)

    def place(self, *locations: str) -> Table:
        """Put down markers at ``locations``, each by the chef whose turn it is."""
        for location in locations:
            self.do(self.next_marker(location))
        return self

    def pass_all(self) -> Table:
        """Pass every remaining action of the round."""
        while self.state.phase is Phase.ACTING:
            player = self.state.expected
            assert player is not None
            self.do(ActionPassed(player))
        return self

    def passes(self, count: int) -> Table:
        """The next ``count`` markers' chefs pass."""
        for _ in range(count):
            self.do(ActionPassed(self.expected))
        return self

    def next_round(self) -> Table:
        assert self.state.phase is Phase.ROUND_START
        start = self.state.starting
        assert start is not None
        following = self.names[(self.names.index(start) + 1) % len(self.names)]
        return self.do(RoundStarted(round=self.state.round_no + 1, starting_player=following))

    @property
    def expected(self) -> str:
        player = self.state.expected
        assert player is not None
        return player
