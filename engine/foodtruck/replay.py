"""Replaying a Food Truck record: parse each line, let the referee check it, fold it in.

The first line that cannot be accepted stops the replay with :class:`InvalidRecord` carrying its
0-based index; nothing after it is applied.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.errors import InvalidRecord, RuleViolation
from engine.foodtruck.apply import apply
from engine.foodtruck.events import Event, loads
from engine.foodtruck.referee import check
from engine.foodtruck.state import GameState


def step(state: GameState, event: Event) -> GameState:
    """Check ``event`` against ``state`` and apply it (in place); raises RuleViolation and leaves
    ``state`` untouched if the event is not allowed."""
    check(state, event)
    return apply(state, event)


def replay(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """Fold events into a new state (or onto ``state``), checking each; raises InvalidRecord."""
    state = GameState() if state is None else state
    for index, event in enumerate(events):
        try:
            check(state, event)
        except RuleViolation as violation:
            raise InvalidRecord(index, violation) from None
        apply(state, event)
    return state


def replay_lines(
    lines: Iterable[str], state: GameState | None = None, accepted: list[Event] | None = None
) -> GameState:
    """Replay a record given as lines; raises InvalidRecord at the first line not accepted."""
    state = GameState() if state is None else state
    for index, line in enumerate(lines):
        try:
            event = loads(line)
            check(state, event)
        except RuleViolation as violation:  # BadEvent included
            raise InvalidRecord(index, violation) from None
        apply(state, event)
        if accepted is not None:
            accepted.append(event)
    return state
