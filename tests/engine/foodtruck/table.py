"""A scorekeeper's table for the Food Truck rule tests: enter events by short calls, and check
that the referee refuses an event with a given code (factories over big JSON fixtures)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.errors import RuleViolation
from engine.foodtruck.events import (
    CompanyPlayed,
    DishRevealed,
    Event,
    GameStarted,
    MarketTaken,
    RoundStarted,
)
from engine.foodtruck.referee import check
from engine.foodtruck.replay import step
from engine.foodtruck.rules import EFFECTS
from engine.foodtruck.state import GameState


class Table:
    def __init__(self, players: Sequence[str] = ("ana", "ben", "cleo"), version: int = 1) -> None:
        self.players = tuple(players)
        self.state = GameState()
        self.events: list[Event] = []
        self.play(GameStarted(self.players, version))

    def play(self, event: Event) -> GameState:
        step(self.state, event)
        self.events.append(event)
        return self.state

    def refuses(self, event: Event, code: str) -> RuleViolation:
        with pytest.raises(RuleViolation) as refused:
            check(self.state, event)
        assert refused.value.code == code, refused.value
        return refused.value

    def start(
        self,
        first: str | None = None,
        market: Sequence[str] | None = None,
        companies: dict[str, str] | None = None,
    ) -> GameState:
        """Start the next round; by default the marker's holder (or the first seat) starts, the
        market is tacos, and every player turns over the round's effect in EFFECTS order."""
        number = self.state.round_no + 1
        if first is None:
            first = self.state.marker or self.players[0]
        if market is None:
            market = ["taco"] * len(self.players)
        effect = EFFECTS[(number - 1) % len(EFFECTS)]
        chosen = {p: effect for p in self.players}
        chosen.update(companies or {})
        return self.play(RoundStarted(number, first, tuple(market), tuple(chosen.items())))

    def reveal(self, player: str, dish: str) -> GameState:
        return self.play(DishRevealed(player, dish))

    def take(self, player: str, dish: str = "taco") -> GameState:
        return self.play(MarketTaken(player, dish))

    def company(self, player: str, effect: str, **fields: str) -> GameState:
        return self.play(CompanyPlayed(player, effect, **fields))

    def quick_round(self, winner: str) -> GameState:
        """A round ``winner`` wins, with no Company card: players before the winner in turn
        order serve their dessert, the winner a burger, everybody else is refused a burger."""
        self.start()
        order = self.turn_order()
        k = order.index(winner)
        for player in order[:k]:
            self.reveal(player, "dessert")
        self.reveal(winner, "burger")
        for player in order[k + 1 :] + order[:k]:
            self.reveal(player, "burger")
            self.take(player, self.state.market[0])
        assert self.state.rounds[-1].winner == winner
        return self.state

    def turn_order(self) -> list[str]:
        first = self.state.round_first
        assert first is not None
        i = self.players.index(first)
        return list(self.players[i:] + self.players[:i])
