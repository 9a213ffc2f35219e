"""Build games event by event for the engine tests, in the scorekeeper's terms.

table = Table()                                  # p1..p4, all suits
table.deal(p1="G10 R3 ...", p2="...", ..., first="p1")
table.picks("green", "red", "yellow", "blue")    # in pick order
table.trick("G10", "G1", "G2", "G3", chef="blue")  # cards in play order, coins as "R9+2"
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from engine.tricknchef.cards import sort_cards
from engine.tricknchef.events import (
    CardPlayed,
    ChefChosen,
    ChefTaken,
    Event,
    GameStarted,
    RoundStarted,
    dumps,
)
from engine.tricknchef.referee import legal_cards
from engine.tricknchef.replay import step
from engine.tricknchef.state import GameState, Phase


def card_and_coins(spec: str) -> tuple[str, int]:
    """``"R9+2"`` -> ``("R9", 2)``; ``"R1-1"`` -> ``("R1", -1)``; ``"G3"`` -> ``("G3", 0)``."""
    for sign in "+-":
        if sign in spec:
            card, count = spec.split(sign)
            return card, int(sign + count)
    return spec, 0


@dataclass
class Table:
    players: tuple[str, ...] = ("p1", "p2", "p3", "p4")
    suits: tuple[str, ...] | None = None
    state: GameState = field(default_factory=GameState)
    events: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.do(GameStarted(self.players, self.suits))

    def do(self, event: Event) -> Table:
        step(self.state, event)
        self.events.append(event)
        return self

    def deal(self, first: str = "p1", **hands: str) -> Table:
        """Start the next round with these hands (``p1="G10 R3 ..."``)."""
        dealt = tuple((p, tuple(hands[p].split())) for p in self.players)
        return self.do(RoundStarted(self.state.round_no + 1, first, dealt))

    def picks(self, *suits: str) -> Table:
        for suit in suits:
            assert self.state.expected is not None
            self.do(ChefChosen(self.state.expected, suit))
        return self

    def play(self, spec: str) -> Table:
        assert self.state.expected is not None
        card, coins = card_and_coins(spec)
        return self.do(CardPlayed(self.state.expected, card, coins))

    def trick(self, *specs: str, chef: str | None = None) -> Table:
        for spec in specs:
            self.play(spec)
        if chef is not None:
            assert self.state.expected is not None
            self.do(ChefTaken(self.state.expected, chef))
        return self

    def play_lowest(self, tricks: int, chef: str | None = None) -> Table:
        """Play ``tricks`` whole tricks, everyone playing their first legal card (canonical
        order) with no coins; the Chef taken is ``chef`` or the first suit left in the centre."""
        for _ in range(tricks):
            while self.state.phase is Phase.PLAY:
                self.play(sort_cards(legal_cards(self.state))[0])
            suit = chef or next(s for s in self.state.suits if self.state.centre[s])
            assert self.state.expected is not None
            self.do(ChefTaken(self.state.expected, suit))
        return self

    def copy(self) -> Table:
        twin = Table.__new__(Table)
        twin.players, twin.suits = self.players, self.suits
        twin.state, twin.events = self.state.copy(), list(self.events)
        return twin

    def lines(self) -> list[str]:
        return [dumps(e) for e in self.events]


def line(**fields: object) -> str:
    return json.dumps(fields)


# p1 wins trick 1 (G10 G1 G2 G4, p2 takes a green Chef), p2 trick 2 (Y1 Y10 Y6 Y8, p1 takes a
# yellow Chef): p3 and p4 then hold 2 coins each, p2 leads trick 3, everyone holds red.
COIN_DEAL = {
    "p1": "G10 G9 R3 R5 R7 Y1 Y2 Y3 B1 B2",
    "p2": "G1 Y10 R2 R4 R6 R8 Y4 Y5 B3 B4",
    "p3": "G2 Y6 R9 R1 Y7 B8 B5 B6 B7 G3",
    "p4": "G4 Y8 R10 G5 G6 G7 G8 Y9 B9 B10",
}


def coins_table() -> Table:
    table = Table().deal(first="p1", **COIN_DEAL).picks("green", "red", "yellow", "blue")
    table.trick("G10", "G1", "G2", "G4", chef="green")
    table.trick("Y1", "Y10", "Y6", "Y8", chef="yellow")
    assert table.state.coins == {"p1": 0, "p2": 0, "p3": 2, "p4": 2}
    assert table.state.expected == "p2"
    return table


# A deal (4 players, p1 first) for the worked examples: trick 1 is G10 G1 G2 G3 (p1 wins, p2 takes
# a Chef); p4 holds no red.
EXAMPLE_DEAL = {
    "p1": "G10 R3 R2 R4 R5 B1 B2 B3 B4 Y1",
    "p2": "G1 R1 R6 R8 R9 B5 B6 Y2 Y3 Y4",
    "p3": "G2 R7 R10 B7 B8 B9 Y5 Y6 Y7 G4",
    "p4": "G3 G5 G6 G7 G8 G9 B10 Y8 Y9 Y10",
}

# p3 and p4 hold no red; p1 holds every red but R1.
BLUE_FIVE_DEAL = {
    "p1": "G10 R2 R3 R4 R5 R6 R7 R8 R9 R10",
    "p2": "G1 R1 G4 G5 G6 G7 G8 G9 Y1 Y2",
    "p3": "G2 Y10 Y3 Y4 Y5 Y6 Y7 Y8 Y9 B1",
    "p4": "G3 B5 B2 B3 B4 B6 B7 B8 B9 B10",
}


def blue_trump_table(deal: dict[str, str]) -> Table:
    """Trick 1 played so that p2 takes a blue Chef: trick 2 has blue as the only trump."""
    table = Table().deal(first="p1", **deal).picks("green", "red", "yellow", "blue")
    table.trick("G10", "G1", "G2", "G3", chef="blue")
    assert table.state.trump == ("blue",)
    return table
