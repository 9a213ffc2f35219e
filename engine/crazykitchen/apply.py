"""The fold: apply one accepted event to a Crazy Kitchen state, in place (never validates)."""

from __future__ import annotations

from engine.crazykitchen.events import Event, GameStarted
from engine.crazykitchen.rules import default_compensation
from engine.crazykitchen.state import KitchenState


def apply(state: KitchenState, event: Event) -> KitchenState:
    if isinstance(event, GameStarted):
        state.teams = tuple((t.name, t.players) for t in event.teams)
        state.cooks_first = event.cooks_first
        sizes = [len(t.players) for t in event.teams]
        state.compensation = (
            default_compensation(sizes) if event.compensation is None else event.compensation
        )
        if sizes[0] != sizes[1]:
            state.compensated = event.teams[0 if sizes[0] < sizes[1] else 1].name
        state.points = {t.name: 0 for t in event.teams}
        state.started = True
        return state
    state.rounds.append(event)
    state.points[event.cooks] += event.score
    return state
