"""The Chefs referee: ``check(state, event)`` decides whether an event may happen now
(docs/chefs-rules.md) and changes nothing; the legal-move helpers next to it serve the simulator.

Checks within one event come in a fixed order, part of the record format's contract: whether an
event of this kind may come now (``game_over``, ``out_of_order``), then whether the chef is at the
table (``unknown_player``), then whether it is their turn (``wrong_turn``), then the content, in
the order the rules below are listed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from engine.chefs.events import (
    CHESTS,
    GAME,
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
    type_name,
)
from engine.chefs.rules import (
    DOOR_CIRCLES,
    PLAYER_COUNTS,
    TAKE_AT_COUNTER,
    chest_cards,
    next_seat,
)
from engine.chefs.state import ChefsState, Phase
from engine.errors import RuleViolation

COUNTER, WINDOW, DOOR, WALL, SERVICE = range(5)
PLACE_NAMES: Final = (
    "the counter of ingredients",
    "the cooker at the window",
    "the door",
    "the cooker at the wall",
    "the service counter",
)
ACTION_AT: Final[tuple[type[Event], ...]] = (
    IngredientsTaken,
    MealCooked,
    CardsExchanged,
    MealCooked,
    MealServed,
)
"""The action each location allows (besides action_passed), CH4.2."""


def _refusal(code: str, message: str, **params: object) -> RuleViolation:
    """A refusal with the values its sentence is made of (games/refusals.py; ``game`` keys the
    codes Chefs shares with the other games)."""
    return RuleViolation(code, message, {"game": GAME, **params})


def where(state: ChefsState) -> str:
    return f"circle {state.circle + 1} of {PLACE_NAMES[state.location]}"


def expected_next(state: ChefsState) -> list[str]:
    """The event types that may come next."""
    if state.phase is Phase.OVER:
        return []
    if state.phase is Phase.ACTING:
        return [type_name(ACTION_AT[state.location]), "action_passed"]
    return [state.phase.value]


# ---------------------------------------------------------------------------------------------
# Legal moves


def legal_locations(state: ChefsState) -> list[str]:
    """CH3.4-CH3.5: where the chef to place may put a marker."""
    if state.phase is not Phase.PLACING:
        return []
    return [
        name
        for index, name in enumerate(LOCATIONS)
        if index != DOOR or len(state.markers[DOOR]) < DOOR_CIRCLES
    ]


def legal_chests(state: ChefsState) -> list[str]:
    """CH6.1-CH6.3: the chests the chef at the door may choose now."""
    if state.phase is not Phase.ACTING or state.location != DOOR:
        return []
    player = state.markers[DOOR][state.circle]
    out = []
    for chest in CHESTS:
        give, draw = chest_cards(chest)
        if (
            chest not in state.chests_taken
            and state.hands[player] >= give
            and state.ingredient_supply + give >= draw
        ):
            out.append(chest)
    return out


def may_use_chef_card(state: ChefsState, player: str) -> bool:
    """CH5.4: the chef card works once per cooker per round."""
    return (player, state.location) not in state.chef_card_used


# ---------------------------------------------------------------------------------------------
# The check


def check(state: ChefsState, event: Event) -> None:
    """Raise RuleViolation if ``event`` may not happen now."""
    phase = state.phase
    if phase is Phase.OVER:
        raise _refusal(
            "game_over", "the game is over: it ended with the round in which a chef passed field 20"
        )
    kind = type(event)
    if phase is Phase.ACTING:
        if kind is not ACTION_AT[state.location] and kind is not ActionPassed:
            allowed = " or ".join(expected_next(state))
            raise _refusal(
                "out_of_order",
                f"the marker on {where(state)} acts now: expected {allowed}, "
                f"not {type_name(event)}",
                rule="acting",
                circle=state.circle + 1,
                location=LOCATIONS[state.location],
                expected=expected_next(state),
                got=type_name(event),
            )
    elif kind is not _KIND_FOR[phase]:
        raise _refusal(
            "out_of_order",
            f"expected {phase.value} now, not {type_name(event)}",
            rule="phase",
            expected=phase.value,
            got=type_name(event),
        )
    _CHECKS[kind](state, event)


def _player(state: ChefsState, player: str) -> None:
    if player not in state.hands:
        raise _refusal("unknown_player", f'"{player}" is not a chef in this game', player=player)


def _turn(state: ChefsState, player: str) -> None:
    _player(state, player)
    expected = state.expected
    if player != expected:
        if state.phase is Phase.PLACING:
            raise _refusal(
                "wrong_turn",
                f"it is {expected}'s turn to put down an action marker, not {player}'s: "
                "the chefs put down one marker each in turn, clockwise from the starting player",
                rule="placing",
                expected=expected,
                player=player,
            )
        raise _refusal(
            "wrong_turn",
            f"the marker on {where(state)} is {expected}'s, so {expected} acts now, not {player}",
            rule="acting",
            circle=state.circle + 1,
            location=LOCATIONS[state.location],
            expected=expected,
            player=player,
        )


def _game_started(state: ChefsState, event: GameStarted) -> None:
    players = event.players
    if len(players) not in PLAYER_COUNTS:
        raise _refusal(
            "bad_players",
            f"Chefs is played by 2 to 6 chefs, not {len(players)}",
            rule="count",
            count=len(players),
        )
    if any(not name.strip() for name in players):
        raise _refusal("bad_players", "every chef needs a name", rule="empty_name")
    if len(set(players)) != len(players):
        raise _refusal("bad_players", "a chef's name appears twice", rule="named_twice")


def _round_started(state: ChefsState, event: RoundStarted) -> None:
    if event.round != state.round_no + 1:
        raise _refusal(
            "wrong_round",
            f"the next round is round {state.round_no + 1}, not {event.round}",
            expected=state.round_no + 1,
            got=event.round,
        )
    _player(state, event.starting_player)
    if state.starting is not None:
        expected = next_seat(state.players, state.starting)
        if event.starting_player != expected:
            raise _refusal(
                "wrong_starting_player",
                f"the starting chef of round {event.round} is {expected}, to the left of the "
                f"previous starting chef {state.starting}, not {event.starting_player}",
                round=event.round,
                expected=expected,
                previous=state.starting,
                player=event.starting_player,
            )


def _marker_placed(state: ChefsState, event: MarkerPlaced) -> None:
    _turn(state, event.player)
    index = LOCATIONS.index(event.location)
    taken = len(state.markers[index])
    if index == DOOR and taken >= DOOR_CIRCLES:
        raise _refusal(
            "door_full",
            "the door has no free circle: there are five chests, one for each marker there",
        )
    if event.circle != taken + 1:
        raise _refusal(
            "wrong_circle",
            f"the marker goes on the next free circle of {PLACE_NAMES[index]}, circle "
            f"{taken + 1}, not circle {event.circle}: there can be one action marker in each "
            "circle",
            location=event.location,
            expected=taken + 1,
            got=event.circle,
        )


def _ingredients_taken(state: ChefsState, event: IngredientsTaken) -> None:
    _turn(state, event.player)
    if not 1 <= event.count <= TAKE_AT_COUNTER:
        raise _refusal(
            "bad_count",
            f"an action at the counter takes two ingredients (or one), not {event.count}",
            got=event.count,
        )
    if event.count > state.counter:
        raise _refusal(
            "not_enough_on_counter",
            f"the counter of ingredients has {state.counter} card(s) left, not {event.count}",
            left=state.counter,
            got=event.count,
        )


def _meal_cooked(state: ChefsState, event: MealCooked) -> None:
    _turn(state, event.player)
    cooker = 0 if state.location == WINDOW else 1
    if state.cookers[cooker] == 0:
        raise _refusal(
            "no_meal_left",
            f"there is no meal card left at {PLACE_NAMES[state.location]}",
            location=LOCATIONS[state.location],
        )
    if event.steps < 1:
        raise _refusal(
            "bad_steps",
            f"a meal card's number of steps is 1 or more, not {event.steps}",
            got=event.steps,
        )
    if event.ingredients < 0 or (event.ingredients == 0 and not event.chef_card):
        raise _refusal(
            "bad_ingredients",
            "a meal is made by putting in the right ingredients: at least one ingredient card "
            "or the chef card",
        )
    held = state.hands[event.player]
    if event.ingredients > held:
        raise _refusal(
            "not_enough_cards",
            f"{event.player} holds {held} ingredient card(s), not {event.ingredients}",
            rule="cook",
            player=event.player,
            held=held,
            got=event.ingredients,
        )
    if event.chef_card and not may_use_chef_card(state, event.player):
        raise _refusal(
            "chef_card_used",
            f"{event.player}'s chef card was already used at {PLACE_NAMES[state.location]} "
            "this round: it is only valid once at one location",
            player=event.player,
            location=LOCATIONS[state.location],
        )


def _cards_exchanged(state: ChefsState, event: CardsExchanged) -> None:
    _turn(state, event.player)
    if event.chest in state.chests_taken:
        raise _refusal(
            "chest_taken",
            f"the {event.chest} chest was already chosen this round: other players can not "
            "choose this option",
            chest=event.chest,
        )
    give, draw = chest_cards(event.chest)
    held = state.hands[event.player]
    if held < give:
        raise _refusal(
            "not_enough_cards",
            f"the {event.chest} chest takes {give} ingredient card(s); {event.player} holds {held}",
            rule="chest",
            chest=event.chest,
            give=give,
            player=event.player,
            held=held,
        )
    if state.ingredient_supply + give < draw:
        raise _refusal(
            "deck_empty",
            f"only {state.ingredient_supply + give} ingredient card(s) are left to draw, "
            f"not {draw}",
            left=state.ingredient_supply + give,
            draw=draw,
        )


def _meal_served(state: ChefsState, event: MealServed) -> None:
    _turn(state, event.player)
    if event.steps not in state.meals[event.player]:
        held = ", ".join(str(s) for s in state.meals[event.player]) or "none"
        raise _refusal(
            "meal_not_held",
            f"{event.player} holds no meal card worth {event.steps} steps "
            f"(meal cards held: {held})",
            player=event.player,
            steps=event.steps,
            meals=list(state.meals[event.player]),
        )
    expected = state.positions[event.player] + event.steps
    if event.position != expected:
        raise _refusal(
            "wrong_position",
            f"{event.player} moves from {state.positions[event.player]} by {event.steps} "
            f"steps to {expected}, not {event.position}",
            player=event.player,
            start=state.positions[event.player],
            steps=event.steps,
            expected=expected,
            got=event.position,
        )


def _action_passed(state: ChefsState, event: ActionPassed) -> None:
    _turn(state, event.player)


_KIND_FOR: Final[dict[Phase, type[Event]]] = {
    Phase.NOT_STARTED: GameStarted,
    Phase.ROUND_START: RoundStarted,
    Phase.PLACING: MarkerPlaced,
}
_CHECKS: Final[dict[type[Event], Callable[[ChefsState, Any], None]]] = {
    GameStarted: _game_started,
    RoundStarted: _round_started,
    MarkerPlaced: _marker_placed,
    IngredientsTaken: _ingredients_taken,
    MealCooked: _meal_cooked,
    CardsExchanged: _cards_exchanged,
    MealServed: _meal_served,
    ActionPassed: _action_passed,
}
