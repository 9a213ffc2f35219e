"""The replay driver every game's engine shares: check each event against the state, then fold
it in (the eventsourcing library's one ``apply`` over a stream). A game gives its own ``check``
(the referee: raises RuleViolation, changes nothing), ``apply`` (the fold: never validates) and
``loads`` (one record line to an event: raises BadEvent); the first event or line that cannot be
accepted stops the replay with :class:`~engine.errors.InvalidRecord` carrying its 0-based index,
and nothing after it is applied.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from engine.errors import InvalidRecord, RuleViolation

S = TypeVar("S")
E = TypeVar("E")

Check = Callable[[S, E], Any]
Apply = Callable[[S, E], S]


def step(state: S, event: E, check: Check[S, E], apply: Apply[S, E]) -> S:
    """Check ``event`` against ``state`` and apply it in place; raises RuleViolation and leaves
    ``state`` untouched if the event is not allowed."""
    check(state, event)
    return apply(state, event)


def replay(events: Iterable[E], state: S, check: Check[S, E], apply: Apply[S, E]) -> S:
    """Fold checked events onto ``state``; raises InvalidRecord at the first refused one."""
    for index, event in enumerate(events):
        try:
            check(state, event)
        except RuleViolation as violation:
            raise InvalidRecord(index, violation) from None
        apply(state, event)
    return state


def replay_lines(
    lines: Iterable[str],
    state: S,
    loads: Callable[[str], E],
    check: Check[S, E],
    apply: Apply[S, E],
    accepted: list[E] | None = None,
) -> S:
    """Replay a record given as lines onto ``state``; raises InvalidRecord at the first line
    not accepted, whether it is malformed (BadEvent) or breaks a rule. Accepted events are added
    to ``accepted`` if given."""
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
