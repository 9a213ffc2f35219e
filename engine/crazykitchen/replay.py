"""Replaying a Crazy Kitchen record: parse, check, fold; InvalidRecord at the first bad line."""

from __future__ import annotations

from collections.abc import Iterable

from engine.crazykitchen.apply import apply
from engine.crazykitchen.events import Event, loads
from engine.crazykitchen.referee import check
from engine.crazykitchen.state import KitchenState
from engine.errors import InvalidRecord, RuleViolation


def step(state: KitchenState, event: Event) -> KitchenState:
    check(state, event)
    return apply(state, event)


def replay(events: Iterable[Event]) -> KitchenState:
    state = KitchenState()
    for index, event in enumerate(events):
        try:
            check(state, event)
        except RuleViolation as violation:
            raise InvalidRecord(index, violation) from None
        apply(state, event)
    return state


def replay_lines(lines: Iterable[str]) -> KitchenState:
    state = KitchenState()
    for index, line in enumerate(lines):
        try:
            event = loads(line)
            check(state, event)
        except RuleViolation as violation:
            raise InvalidRecord(index, violation) from None
        apply(state, event)
    return state
