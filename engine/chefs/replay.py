"""Replaying a Chefs record: parse each line, let the referee check it, fold it in (the kernel's
driver, :mod:`engine.fold`).

The first line that cannot be accepted stops the replay with InvalidRecord (its 0-based index).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import fold
from engine.chefs.apply import apply
from engine.chefs.events import Event, loads
from engine.chefs.referee import check
from engine.chefs.state import ChefsState


def step(state: ChefsState, event: Event) -> ChefsState:
    """Check ``event`` and apply it in place; raises RuleViolation, leaving ``state`` as it was."""
    return fold.step(state, event, check, apply)


def replay(events: Iterable[Event], state: ChefsState | None = None) -> ChefsState:
    """Fold checked events into a new state (or onto ``state``); raises InvalidRecord."""
    return fold.replay(events, ChefsState() if state is None else state, check, apply)


def replay_lines(lines: Iterable[str], state: ChefsState | None = None) -> ChefsState:
    """Replay a record given as lines; raises InvalidRecord at the first line not accepted."""
    return fold.replay_lines(lines, ChefsState() if state is None else state, loads, check, apply)
