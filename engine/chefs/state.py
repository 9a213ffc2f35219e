"""The state of a Chefs game as the fold (:mod:`engine.chefs.apply`) builds it.

A plain mutable object: :func:`engine.chefs.replay.replay` builds a fresh one and applies events in
place. Card contents are not in the rulebook, so the state counts cards rather than naming them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from engine.chefs.rules import INGREDIENT_CARDS, MEAL_CARDS


class Phase(enum.Enum):
    """What the game waits for."""

    NOT_STARTED = "game_started"
    LAYING = "meal_laid"
    """v2: the meal cards put out at the cookers (set-up and each refill) are entered."""
    ROUND_START = "round_started"
    PLACING = "marker_placed"
    ACTING = "action"
    OVER = "over"


@dataclass(slots=True)
class ChefsState:
    players: tuple[str, ...] = ()
    version: int = 1
    """The record's version (docs/chefs-record-format.md)."""
    phase: Phase = Phase.NOT_STARTED
    round_no: int = 0
    starting: str | None = None
    """This round's starting player (the last round's between rounds)."""
    placed: int = 0
    """Markers placed this round."""
    markers: list[list[str]] = field(default_factory=lambda: [[] for _ in range(5)])
    """Per location (in location order), the chefs whose markers stand on circles 1, 2, ..."""
    location: int = 0
    """While acting: the location whose markers act now (index into LOCATIONS)."""
    circle: int = 0
    """While acting: the 0-based circle whose marker acts next at that location."""
    hands: dict[str, int] = field(default_factory=dict)
    """Ingredient cards each chef holds."""
    meals: dict[str, list[int]] = field(default_factory=dict)
    """The step values of the meal cards each chef holds, sorted."""
    positions: dict[str, int] = field(default_factory=dict)
    counter: int = 0
    """Ingredient cards at the counter of ingredients."""
    cookers: list[int] = field(default_factory=lambda: [0, 0])
    """Meal cards at the cooker at the window and the cooker at the wall."""
    laid: list[list[tuple[int, int]]] = field(default_factory=lambda: [[], []])
    """v2: the meal cards lying face up at each cooker, as (steps, ingredients needed)."""
    owed: list[int] = field(default_factory=lambda: [0, 0])
    """v2, while laying: meal cards still to be put out at each cooker (the window first)."""
    called: bool = False
    """v2: the organizer called the game for time (CH9.3)."""
    chests_taken: list[str] = field(default_factory=list)
    chef_card_used: set[tuple[str, int]] = field(default_factory=set)
    """(chef, location) pairs where the chef card was used this round."""
    ingredient_supply: int = INGREDIENT_CARDS
    """Ingredient cards in the drawing deck and the discard pile together."""
    meal_supply: int = MEAL_CARDS
    rounds: list[dict[str, int]] = field(default_factory=list)
    """The positions at the end of each round played."""
    events: int = 0

    @property
    def expected(self) -> str | None:
        """Who must act next (None between rounds, before the start and after the end)."""
        if self.phase is Phase.PLACING and self.starting is not None:
            start = self.players.index(self.starting)
            return self.players[(start + self.placed) % len(self.players)]
        if self.phase is Phase.ACTING:
            return self.markers[self.location][self.circle]
        return None
