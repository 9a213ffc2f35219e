"""The state of a Food Truck game, as the fold (:mod:`engine.foodtruck.apply`) builds it.

A player's dish pile is face down and its programmed order is hidden (FT3.3). The engine keeps
what the table can know about it (FT8):

* ``hidden``: the cards on top whose order nobody but the owner knows (a multiset), and
* ``tail``: below them, the cards known to lie at the bottom in this order (put under the pile by
  the under or remove effects, FT6.2, FT6.4).

Any card of ``hidden`` may be the top one; when ``hidden`` is empty the top is ``tail[0]``.
"""

from __future__ import annotations

import enum
from collections import Counter
from typing import NamedTuple

from engine.foodtruck.rules import next_in_round


class Phase(enum.Enum):
    """What the game waits for."""

    NOT_STARTED = "game_started"
    ROUND_START = "round_started"
    TURN = "turn"
    """The current player's turn, before their dish is turned over."""
    SERVED = "served"
    """The current player served; they may still play a Company card (rearrange, remove), or the
    next player starts their turn."""
    MARKET_PICK = "market_taken"
    """The current player was eliminated and must take a market card."""
    OVER = "over"


class RoundResult(NamedTuple):
    round: int
    first_player: str
    winner: str
    eliminated: tuple[str, ...]
    """In the order they were eliminated (the first took the first-player marker)."""
    last_market_card: str


class PlayerState:
    __slots__ = ("hand", "hidden", "tail", "served", "aside", "taken", "company", "company_pile")

    def __init__(self) -> None:
        self.hand: Counter[str] = Counter()
        """Between rounds: every dish card the player owns."""
        self.hidden: Counter[str] = Counter()
        self.tail: list[str] = []
        self.served: Counter[str] = Counter()
        """Dishes served this round, with how many of each (2 or more is a stack)."""
        self.aside: list[str] = []
        """The dish that eliminated the player this round (not served, blocks nothing)."""
        self.taken: list[str] = []
        """Market cards taken this round."""
        self.company: str | None = None
        """The Company card turned over this round, while not yet played."""
        self.company_pile: set[str] = set()
        """The Company effects still in the pile (not turned over since the last reshuffle)."""

    def pile_size(self) -> int:
        return self.hidden.total() + len(self.tail)

    def owned(self) -> Counter[str]:
        """Every dish card the player owns now, wherever it lies."""
        total = self.hand + self.hidden + self.served
        total.update(self.tail)
        total.update(self.aside)
        total.update(self.taken)
        return total

    def copy(self) -> PlayerState:
        other = PlayerState()
        other.hand = Counter(self.hand)
        other.hidden = Counter(self.hidden)
        other.tail = list(self.tail)
        other.served = Counter(self.served)
        other.aside = list(self.aside)
        other.taken = list(self.taken)
        other.company = self.company
        other.company_pile = set(self.company_pile)
        return other


class GameState:
    __slots__ = (
        "players",
        "phase",
        "round_no",
        "rounds",
        "points",
        "marker",
        "market",
        "market_pile",
        "cards_dealt",
        "seats",
        "in_round",
        "eliminated",
        "round_first",
        "current",
        "must_play",
        "copy_active",
        "version",
        "turn_no",
    )

    def __init__(self) -> None:
        self.players: tuple[str, ...] = ()
        self.phase = Phase.NOT_STARTED
        self.round_no = 0
        self.rounds: list[RoundResult] = []
        self.points: dict[str, int] = {}
        self.marker: str | None = None
        """Who holds the first-player marker (None before round 1 is started)."""
        self.market: list[str] = []
        self.market_pile = 0
        """Cards left in the market's face-down draw pile."""
        self.cards_dealt = 0
        """Dish cards brought into the game so far: starting hands and market lay-outs."""
        self.seats: dict[str, PlayerState] = {}
        self.in_round: list[str] = []
        """Players still in the round, in seat order."""
        self.eliminated: list[str] = []
        self.round_first: str | None = None
        self.current: str | None = None
        """Whose turn it is (TURN, SERVED, MARKET_PICK)."""
        self.must_play: str | None = None
        """After a swap: the market dish the current player must now play (FT6.3)."""
        self.copy_active = False
        """The current player played the copy effect for this turn's dish (FT6.5)."""
        self.version = 1
        """The record format's version, from ``game_started`` (docs/foodtruck-record-format.md)."""
        self.turn_no = 0
        """The turns begun this round (1 during its first turn): with ``round_no``, the slot a
        phone's tap is for (games/foodtruck/queue.py)."""

    def copy(self) -> GameState:
        other = GameState()
        other.players = self.players
        other.phase = self.phase
        other.round_no = self.round_no
        other.rounds = list(self.rounds)
        other.points = dict(self.points)
        other.marker = self.marker
        other.market = list(self.market)
        other.market_pile = self.market_pile
        other.cards_dealt = self.cards_dealt
        other.seats = {p: s.copy() for p, s in self.seats.items()}
        other.in_round = list(self.in_round)
        other.eliminated = list(self.eliminated)
        other.round_first = self.round_first
        other.current = self.current
        other.must_play = self.must_play
        other.copy_active = self.copy_active
        other.version = self.version
        other.turn_no = self.turn_no
        return other

    def dish_cards(self, player: str) -> int:
        """Every dish card ``player`` owns now, the market card they swapped for included."""
        swapped = self.must_play is not None and player == self.current
        return self.seats[player].owned().total() + swapped

    def turn_of(self, player: str) -> int:
        """The turn a move of ``player`` now belongs to: the next one when the current player
        has served and ``player`` is the next to act, else this one."""
        if self.phase is Phase.SERVED and player != self.current:
            return self.turn_no + 1
        return self.turn_no

    def next_player(self) -> str | None:
        """Who plays after the current player (SERVED): the next clockwise still in the round."""
        if self.current is None or not self.in_round:
            return None
        return next_in_round(self.players, self.in_round, self.current)
