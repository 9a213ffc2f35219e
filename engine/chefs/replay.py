"""Replaying a Chefs record: parse each line, let the referee check it, fold it in.

The first line that cannot be accepted stops the replay with InvalidRecord (its 0-based index).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.chefs.apply import apply
from engine.chefs.events import Event, loads
from engine.chefs.referee import check
from engine.chefs.state import ChefsState
from engine.errors import InvalidRecord, RuleViolation


def step(state: ChefsState, event: Event) -> ChefsState:
    """Check ``event`` and apply it in place; raises RuleViolation, leaving ``state`` as it was."""
    check(state, event)
    return apply(state, event)


def replay(events: Iterable[Event], state: ChefsState | None = None) -> ChefsState:
    """Fold checked events into a new state (or onto ``state``); raises InvalidRecord."""
    state = ChefsState() if state is None else state
    for index, event in enumerate(events):
        try:
            check(state, event)
        except RuleViolation as violation:
            raise InvalidRecord(index, violation) from None
        apply(state, event)
    return state


def replay_lines(lines: Iterable[str], state: ChefsState | None = None) -> ChefsState:
    """Replay a record given as lines; raises InvalidRecord at the first line not accepted."""
    state = ChefsState() if state is None else state
    for index, line in enumerate(lines):
        try:
            event = loads(line)
            check(state, event)
        except RuleViolation as violation:  # BadEvent included
            raise InvalidRecord(index, violation) from None
        apply(state, event)
    return state
