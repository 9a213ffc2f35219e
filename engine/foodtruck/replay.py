"""Replaying a Food Truck record: parse each line, let the referee check it, fold it in (the
kernel's driver, :mod:`engine.fold`).

The first line that cannot be accepted stops the replay with :class:`InvalidRecord` carrying its
0-based index; nothing after it is applied.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import fold
from engine.foodtruck.apply import apply
from engine.foodtruck.events import Event, loads
from engine.foodtruck.referee import check
from engine.foodtruck.state import GameState


def step(state: GameState, event: Event) -> GameState:
    """Check ``event`` against ``state`` and apply it (in place); raises RuleViolation and leaves
    ``state`` untouched if the event is not allowed."""
    return fold.step(state, event, check, apply)


def replay(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """Fold events into a new state (or onto ``state``), checking each; raises InvalidRecord."""
    return fold.replay(events, GameState() if state is None else state, check, apply)


def replay_lines(
    lines: Iterable[str], state: GameState | None = None, accepted: list[Event] | None = None
) -> GameState:
    """Replay a record given as lines; raises InvalidRecord at the first line not accepted."""
    start = GameState() if state is None else state
    return fold.replay_lines(lines, start, loads, check, apply, accepted)
