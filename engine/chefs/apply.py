"""The fold: apply one accepted event to a Chefs state, in place (it never validates).

What follows from an event on its own happens here: the next marker to act, the end of a round
(the positions noted, the table filled up, the next starting chef), the end of the game.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from typing import Any, Final

from engine.chefs.events import (
    LOCATIONS,
    ActionPassed,
    CardsExchanged,
    Event,
    GameStarted,
    IngredientsTaken,
    MarkerPlaced,
    MealCooked,
    MealServed,
    RoundStarted,
)
from engine.chefs.rules import (
    HAND_AT_START,
    MARKERS_PER_CHEF,
    chest_cards,
    fill_up,
    passed_goal,
    table_cards,
)
from engine.chefs.state import ChefsState, Phase
from engine.errors import InvariantError

_WINDOW, _WALL = 1, 3


def apply(state: ChefsState, event: Event) -> ChefsState:
    _APPLY[type(event)](state, event)
    state.events += 1
    return state


def _game_started(state: ChefsState, event: GameStarted) -> None:
    players = event.players
    state.players = players
    state.hands = {p: HAND_AT_START for p in players}
    state.meals = {p: [] for p in players}
    state.positions = {p: 0 for p in players}
    state.ingredient_supply -= HAND_AT_START * len(players)
    _fill_table(state)
    state.phase = Phase.ROUND_START


def _fill_table(state: ChefsState) -> None:
    """CH2.1 / CH8.1: fill the counter and the cookers up to the table's numbers."""
    ingredients, meals = table_cards(len(state.players))
    added = fill_up(state.counter, ingredients, state.ingredient_supply)
    state.counter += added
    state.ingredient_supply -= added
    for cooker in (0, 1):
        added = fill_up(state.cookers[cooker], meals, state.meal_supply)
        state.cookers[cooker] += added
        state.meal_supply -= added


def _round_started(state: ChefsState, event: RoundStarted) -> None:
    state.round_no = event.round
    state.starting = event.starting_player
    state.placed = 0
    state.markers = [[] for _ in LOCATIONS]
    state.chests_taken = []
    state.chef_card_used = set()
    state.phase = Phase.PLACING


def _marker_placed(state: ChefsState, event: MarkerPlaced) -> None:
    state.markers[LOCATIONS.index(event.location)].append(event.player)
    state.placed += 1
    if state.placed == MARKERS_PER_CHEF * len(state.players):
        state.phase = Phase.ACTING
        state.location = 0
        state.circle = -1
        _next_marker(state)


def _next_marker(state: ChefsState) -> None:
    """Move to the next marker in location and circle order; end the round after the last."""
    state.circle += 1
    while state.location < len(LOCATIONS):
        if state.circle < len(state.markers[state.location]):
            return
        state.location += 1
        state.circle = 0
    _end_round(state)


def _end_round(state: ChefsState) -> None:
    state.rounds.append(dict(state.positions))
    state.location, state.circle = 0, 0
    if any(passed_goal(p) for p in state.positions.values()):
        state.phase = Phase.OVER
        return
    _fill_table(state)
    state.phase = Phase.ROUND_START


def _ingredients_taken(state: ChefsState, event: IngredientsTaken) -> None:
    state.counter -= event.count
    state.hands[event.player] += event.count
    _next_marker(state)


def _meal_cooked(state: ChefsState, event: MealCooked) -> None:
    if state.location not in (_WINDOW, _WALL):
        raise InvariantError("a meal cooked away from a cooker")
    state.cookers[0 if state.location == _WINDOW else 1] -= 1
    state.hands[event.player] -= event.ingredients
    state.ingredient_supply += event.ingredients
    if event.chef_card:
        state.chef_card_used.add((event.player, state.location))
    insort(state.meals[event.player], event.steps)
    _next_marker(state)


def _cards_exchanged(state: ChefsState, event: CardsExchanged) -> None:
    give, draw = chest_cards(event.chest)
    state.chests_taken.append(event.chest)
    state.hands[event.player] += draw - give
    state.ingredient_supply += give - draw
    _next_marker(state)


def _meal_served(state: ChefsState, event: MealServed) -> None:
    state.meals[event.player].remove(event.steps)
    state.meal_supply += 1
    state.positions[event.player] = event.position
    _next_marker(state)


def _action_passed(state: ChefsState, event: ActionPassed) -> None:
    _next_marker(state)


_APPLY: Final[dict[type[Event], Callable[[ChefsState, Any], None]]] = {
    GameStarted: _game_started,
    RoundStarted: _round_started,
    MarkerPlaced: _marker_placed,
    IngredientsTaken: _ingredients_taken,
    MealCooked: _meal_cooked,
    CardsExchanged: _cards_exchanged,
    MealServed: _meal_served,
    ActionPassed: _action_passed,
}
