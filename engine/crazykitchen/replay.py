"""Replaying a Crazy Kitchen record: parse, check, fold (the kernel's driver, :mod:`engine.fold`);
InvalidRecord at the first bad line."""

from __future__ import annotations

from collections.abc import Iterable

from engine import fold
from engine.crazykitchen.apply import apply
from engine.crazykitchen.events import Event, loads
from engine.crazykitchen.referee import check
from engine.crazykitchen.state import KitchenState


def step(state: KitchenState, event: Event) -> KitchenState:
    return fold.step(state, event, check, apply)


def replay(events: Iterable[Event]) -> KitchenState:
    return fold.replay(events, KitchenState(), check, apply)


def replay_lines(lines: Iterable[str]) -> KitchenState:
    return fold.replay_lines(lines, KitchenState(), loads, check, apply)
