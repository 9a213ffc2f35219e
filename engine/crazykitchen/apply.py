"""The fold: apply one accepted event to a Crazy Kitchen state, in place (never validates)."""

from __future__ import annotations

from engine.crazykitchen.events import (
    CardTaken,
    Event,
    GameStarted,
    OrderFailed,
    OrderFulfilled,
    OrderStruck,
    RoundConfirmed,
    RoundReturned,
    RoundScored,
    ToolSpedUp,
    UpgradesDone,
)
from engine.crazykitchen.referee import expected_cooks
from engine.crazykitchen.rules import default_compensation, round_score
from engine.crazykitchen.state import Bought, KitchenState


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
        state.version = event.version
        state.head_chefs = {t.name: t.head_chef for t in event.teams if t.head_chef is not None}
        state.started = True
        return state
    if isinstance(event, RoundScored):
        _scored(state, event)
    elif isinstance(event, OrderFulfilled):
        state.orders.append(("fulfilled", event.points))
        state.returned = False
    elif isinstance(event, OrderFailed):
        state.orders.append(("failed", event.penalty))
        state.returned = False
    elif isinstance(event, OrderStruck):
        del state.orders[event.order - 1]
        state.returned = False
    elif isinstance(event, RoundReturned):
        state.returned = True
    elif isinstance(event, RoundConfirmed):
        fulfilled = tuple(v for kind, v in state.orders if kind == "fulfilled")
        penalties = tuple(v for kind, v in state.orders if kind == "failed")
        number = len(state.rounds) + 1
        cooks = expected_cooks(state)
        state.orders = []
        state.returned = False
        _scored(
            state,
            RoundScored(number, cooks, fulfilled, penalties, round_score(fulfilled, penalties)),
        )
    elif isinstance(event, ToolSpedUp):
        state.bought.append(Bought(len(state.rounds), event.team, "tool", event.cost, event.tool))
    elif isinstance(event, CardTaken):
        state.bought.append(Bought(len(state.rounds), event.team, "card", event.cost))
    elif isinstance(event, UpgradesDone):
        state.done.setdefault(len(state.rounds), []).append(event.team)
    return state


def _scored(state: KitchenState, event: RoundScored) -> None:
    state.rounds.append(event)
    state.points[event.cooks] += event.score
