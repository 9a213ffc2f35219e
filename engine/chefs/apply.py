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
    GameCalled,
    GameStarted,
    IngredientsTaken,
    MarkerPlaced,
    MealCooked,
    MealLaid,
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
    state.version = event.version
    state.hands = {p: HAND_AT_START for p in players}
    state.meals = {p: [] for p in players}
    state.positions = {p: 0 for p in players}
    state.ingredient_supply -= HAND_AT_START * len(players)
    _fill_table(state)


def _fill_table(state: ChefsState) -> None:
    """CH2.2 / CH8.1: fill the counter and the cookers up to the table's numbers. In v2 the meal
    cards are then entered one by one (``meal_laid``, CH2.4 / CH8.3) before the next round."""
    ingredients, meals = table_cards(len(state.players))
    added = fill_up(state.counter, ingredients, state.ingredient_supply)
    state.counter += added
    state.ingredient_supply -= added
    if state.version >= 2:
        window = fill_up(state.cookers[0], meals, state.meal_supply)
        wall = fill_up(state.cookers[1], meals, state.meal_supply - window)
        state.owed = [window, wall]
        state.phase = Phase.LAYING if window or wall else Phase.ROUND_START
        return
    for cooker in (0, 1):
        added = fill_up(state.cookers[cooker], meals, state.meal_supply)
        state.cookers[cooker] += added
        state.meal_supply -= added
    state.phase = Phase.ROUND_START


def _meal_laid(state: ChefsState, event: MealLaid) -> None:
    cooker = 0 if event.cooker == "window" else 1
    state.laid[cooker].append((event.steps, event.ingredients))
    state.cookers[cooker] += 1
    state.meal_supply -= 1
    state.owed[cooker] -= 1
    if not any(state.owed):
        state.phase = Phase.ROUND_START


def _game_called(state: ChefsState, event: GameCalled) -> None:
    state.called = True
    state.owed = [0, 0]
    state.phase = Phase.OVER


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


def _ingredients_taken(state: ChefsState, event: IngredientsTaken) -> None:
    state.counter -= event.count
    state.hands[event.player] += event.count
    _next_marker(state)


def _meal_cooked(state: ChefsState, event: MealCooked) -> None:
    if state.location not in (_WINDOW, _WALL):
        raise InvariantError("a meal cooked away from a cooker")
    cooker = 0 if state.location == _WINDOW else 1
    state.cookers[cooker] -= 1
    if state.version >= 2:
        state.laid[cooker].remove((event.steps, event.ingredients + int(event.chef_card)))
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
    MealLaid: _meal_laid,
    GameCalled: _game_called,
}
