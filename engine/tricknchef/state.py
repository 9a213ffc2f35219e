"""The state of a game, as the fold (:mod:`engine.tricknchef.apply`) builds it from events.

The state is a plain mutable object with slots: replaying a game applies ~166 events and must stay
well under 5 us per event, which rules out copying an immutable state at every step. Ownership is
simple instead: :func:`engine.tricknchef.replay.replay` builds a fresh state; whoever keeps a state
to apply further events owns it, and :meth:`GameState.copy` gives an independent one.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from engine.tricknchef.cards import TOTAL_COINS, Card, Suit
from engine.tricknchef.rules import Play


class Phase(enum.Enum):
    """What the game waits for; the value is the type of the event expected next."""

    NOT_STARTED = "game_started"
    ROUND_START = "round_started"
    CHEF_PICK = "chef_chosen"
    PLAY = "card_played"
    CHEF_TAKE = "chef_taken"
    OVER = "over"


class CompletedTrick(NamedTuple):
    """What happened in one trick, for the record viewer and the tests (immutable)."""

    round: int
    number: int
    trump: tuple[Suit, ...]
    plays: tuple[Play, ...]
    winner: str
    chef_taker: str
    chef_suit: Suit
    paid: tuple[str, ...]
    """Players who received a coin after the trick (R8.2), in order."""


class GameState:
    __slots__ = (
        "players",
        "suits",
        "seat",
        "next_seat",
        "phase",
        "expected",
        "round_no",
        "trick_no",
        "round_scores",
        "totals",
        "first_player",
        "hands",
        "suit_counts",
        "centre",
        "chefs",
        "picked",
        "coins",
        "won",
        "tricks_won",
        "leader",
        "trump",
        "trick",
        "led_suit",
        "winner",
        "chef_taker",
        "tricks",
    )

    def __init__(self) -> None:
        self.players: tuple[str, ...] = ()
        """Seat order, clockwise."""
        self.suits: tuple[Suit, ...] = ()
        """Suits in play, canonical order."""
        self.seat: dict[str, int] = {}
        self.next_seat: dict[str, str] = {}
        self.phase = Phase.NOT_STARTED
        self.expected: str | None = None
        """The player who must make the next event (None for game_started/round_started)."""
        self.round_no = 0
        self.trick_no = 0
        self.round_scores: list[dict[str, int]] = []
        self.totals: dict[str, int] = {}
        self.first_player: str | None = None
        self.hands: dict[str, set[Card]] = {}
        self.suit_counts: dict[str, dict[Suit, int]] = {}
        """How many cards of each suit each player still holds (for R4.3)."""
        self.centre: dict[Suit, int] = {}
        self.chefs: dict[str, dict[Suit, int]] = {}
        self.picked: set[Suit] = set()
        """Suits already taken in this round's Chef picks (R3.3)."""
        self.coins: dict[str, int] = {}
        """Coins held now; coins placed in the trick in progress are not held (R4.4)."""
        self.won: dict[str, list[Card]] = {}
        self.tricks_won: dict[str, int] = {}
        self.leader: str | None = None
        self.trump: tuple[Suit, ...] = ()
        """Trump of the trick in progress (R5), () when no trick is in progress."""
        self.trick: list[Play] = []
        self.led_suit: Suit | None = None
        self.winner: str | None = None
        """Winner of the trick just completed, while its Chef is awaited."""
        self.chef_taker: str | None = None
        self.tricks: list[CompletedTrick] = []
        """Every completed trick of the game, in order."""

    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def reserve(self) -> int:
        """Coins in the reserve: 20 minus those held and those on the trick's cards."""
        placed = sum(abs(p.coins) for p in self.trick)
        return TOTAL_COINS - sum(self.coins.values()) - placed

    def copy(self) -> GameState:
        """An independent copy, to apply events to without touching this one."""
        other = GameState.__new__(GameState)
        other.players = self.players
        other.suits = self.suits
        other.seat = self.seat  # never mutated after game_started
        other.next_seat = self.next_seat
        other.phase = self.phase
        other.expected = self.expected
        other.round_no = self.round_no
        other.trick_no = self.trick_no
        other.round_scores = [dict(s) for s in self.round_scores]
        other.totals = dict(self.totals)
        other.first_player = self.first_player
        other.hands = {p: set(h) for p, h in self.hands.items()}
        other.suit_counts = {p: dict(c) for p, c in self.suit_counts.items()}
        other.centre = dict(self.centre)
        other.chefs = {p: dict(c) for p, c in self.chefs.items()}
        other.picked = set(self.picked)
        other.coins = dict(self.coins)
        other.won = {p: list(w) for p, w in self.won.items()}
        other.tricks_won = dict(self.tricks_won)
        other.leader = self.leader
        other.trump = self.trump
        other.trick = list(self.trick)
        other.led_suit = self.led_suit
        other.winner = self.winner
        other.chef_taker = self.chef_taker
        other.tricks = list(self.tricks)
        return other
