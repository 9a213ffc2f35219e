"""The Chefs referee: ``check(state, event)`` decides whether an event may happen now
(docs/chefs-rules.md) and changes nothing; the legal-move helpers next to it serve the simulator,
and :func:`legal_moves` (what a chef may do now) the phones.

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
    COOKERS,
    GAME,
    LOCATIONS,
    V2_ONLY,
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
    type_name,
)
from engine.chefs.rules import (
    DOOR_CIRCLES,
    MEAL_INGREDIENTS_OFFERED,
    MEAL_STEPS_OFFERED,
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


def _version_check(state: ChefsState, event: Event) -> None:
    """A v1 record holds no v2 event (docs/chefs-record-format.md, "Format v2")."""
    if type(event) in V2_ONLY and state.version < 2 and state.phase is not Phase.NOT_STARTED:
        raise _refusal(
            "bad_event",
            f"{type_name(event)} is an event of Chefs record format v2; this record is v1 (its "
            'first line has no "version": 2)',
            rule="v2_only",
            type=type_name(event),
        )


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


def laying_cooker(state: ChefsState) -> str | None:
    """v2 (CH8.3): the cooker whose next meal card is entered now (the window first)."""
    if state.phase is not Phase.LAYING:
        return None
    return COOKERS[0] if state.owed[0] else COOKERS[1]


def who_lays(state: ChefsState) -> str | None:
    """The phones' convention (docs/scorekeeping.md): the chef who starts the coming round taps
    the meal cards laid (seat 1 before round 1); None when no cards are being laid."""
    if state.phase is not Phase.LAYING:
        return None
    if state.starting is None:
        return state.players[0]
    return next_seat(state.players, state.starting)


def counter_counts(state: ChefsState) -> list[int]:
    """CH5.1: how many ingredient cards the chef at the counter may take now (v1: one or two by
    choice; v2: two while two are there, one only when one is left)."""
    most = min(TAKE_AT_COUNTER, state.counter)
    if state.version >= 2:
        return [most] if most else []
    return list(range(1, most + 1))


def cooking_options(state: ChefsState, player: str) -> list[tuple[int, int, bool]]:
    """v2 (CH5.5): the meals the chef at a cooker may cook now, as (steps, ingredient cards put
    in, chef card), one per distinct meal card lying there and way of paying for it."""
    if state.phase is not Phase.ACTING or state.location not in (WINDOW, WALL):
        return []
    cooker = 0 if state.location == WINDOW else 1
    held = state.hands[player]
    out: list[tuple[int, int, bool]] = []
    for steps, need in sorted(set(state.laid[cooker])):
        if need <= held:
            out.append((steps, need, False))
        if may_use_chef_card(state, player) and need - 1 <= held:
            out.append((steps, need - 1, True))
    return out


def legal_moves(state: ChefsState, player: str) -> list[dict[str, Any]]:
    """What ``player`` may do now, as record events (their JSON objects): the marker places in
    their turn, their marker's actions (passing included) when it acts, and, by the phones'
    convention (:func:`who_lays`), the meal cards they may enter as laid (the cards the phones
    offer: MEAL_STEPS_OFFERED x MEAL_INGREDIENTS_OFFERED). Empty when nothing is theirs to do. The
    organizer's ``game_called`` and the round's start are never a chef's move. In a v1 record a
    meal's steps are not on the table, so its cooking moves are not listed (the table page enters
    them)."""
    phase = state.phase
    if phase is Phase.LAYING:
        cooker = laying_cooker(state)
        if player != who_lays(state) or cooker is None:
            return []
        return [
            {"type": "meal_laid", "cooker": cooker, "steps": steps, "ingredients": need}
            for steps in MEAL_STEPS_OFFERED
            for need in MEAL_INGREDIENTS_OFFERED
        ]
    if player != state.expected:
        return []
    if phase is Phase.PLACING:
        return [
            {
                "type": "marker_placed",
                "player": player,
                "location": name,
                "circle": len(state.markers[LOCATIONS.index(name)]) + 1,
            }
            for name in legal_locations(state)
        ]
    if phase is not Phase.ACTING:
        return []
    moves: list[dict[str, Any]] = []
    if state.location == COUNTER:
        moves = [
            {"type": "ingredients_taken", "player": player, "count": count}
            for count in counter_counts(state)
        ]
    elif state.location == DOOR:
        moves = [
            {"type": "cards_exchanged", "player": player, "chest": chest}
            for chest in legal_chests(state)
        ]
    elif state.location == SERVICE:
        position = state.positions[player]
        moves = [
            {"type": "meal_served", "player": player, "steps": steps, "position": position + steps}
            for steps in sorted(set(state.meals[player]))
        ]
    elif state.version >= 2:
        moves = [
            {
                "type": "meal_cooked",
                "player": player,
                "steps": steps,
                "ingredients": cards,
                "chef_card": chef_card,
            }
            for steps, cards, chef_card in cooking_options(state, player)
        ]
    return [*moves, {"type": "action_passed", "player": player}]


# ---------------------------------------------------------------------------------------------
# The check


def check(state: ChefsState, event: Event) -> None:
    """Raise RuleViolation if ``event`` may not happen now."""
    _version_check(state, event)
    phase = state.phase
    if phase is Phase.OVER:
        raise _refusal(
            "game_over", "the game is over: it ended with the round in which a chef passed field 20"
        )
    kind = type(event)
    if kind is GameCalled and phase is not Phase.NOT_STARTED:
        return  # CH9.3: the organizer may call the game at any moment of it
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
    if state.version >= 2 and event.count < min(TAKE_AT_COUNTER, state.counter):
        raise _refusal(
            "must_take_two",
            f"the counter of ingredients has {state.counter} cards: an action there takes two "
            "(one only when one is left)",
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
    if state.version >= 2:
        _meal_matches_card(state, event, cooker)


def _meal_matches_card(state: ChefsState, event: MealCooked, cooker: int) -> None:
    """v2 (CH5.5): the meal is one of the cards lying at this cooker, paid as the card needs."""
    here = state.laid[cooker]
    location = LOCATIONS[state.location]
    needs = sorted({need for steps, need in here if steps == event.steps})
    if not needs:
        other = COOKERS[1 - cooker]
        there = PLACE_NAMES[LOCATIONS.index(other)]
        if any(steps == event.steps for steps, _ in state.laid[1 - cooker]):
            raise _refusal(
                "wrong_cooker",
                f"the meal card of {event.steps} steps lies at {there}, not at "
                f"{PLACE_NAMES[state.location]}",
                rule="cooked",
                steps=event.steps,
                location=location,
                other=other,
            )
        laid = sorted({steps for steps, _ in here})
        raise _refusal(
            "meal_not_at_cooker",
            f"no meal card of {event.steps} steps lies at {PLACE_NAMES[state.location]} "
            f"(steps of the cards there: {', '.join(map(str, laid)) or 'none'})",
            steps=event.steps,
            location=location,
            laid=laid,
        )
    given = event.ingredients + int(event.chef_card)
    if given not in needs:
        raise _refusal(
            "wrong_ingredients",
            f"the meal card of {event.steps} steps needs {' or '.join(map(str, needs))} "
            f"ingredient(s), not {given} (the chef card counts as one)",
            steps=event.steps,
            needs=needs,
            got=given,
        )


def _meal_laid(state: ChefsState, event: MealLaid) -> None:
    expected = laying_cooker(state)
    if event.cooker != expected:
        raise _refusal(
            "wrong_cooker",
            f"the next meal card is put out at {PLACE_NAMES[LOCATIONS.index(str(expected))]}, "
            f"not at {PLACE_NAMES[LOCATIONS.index(event.cooker)]}: the window is filled first",
            rule="laid",
            expected=expected,
            got=event.cooker,
        )
    if event.steps < 1:
        raise _refusal(
            "bad_steps",
            f"a meal card's number of steps is 1 or more, not {event.steps}",
            got=event.steps,
        )
    if event.ingredients < 1:
        raise _refusal(
            "bad_ingredients",
            f"a meal card needs one ingredient or more, not {event.ingredients}",
            rule="laid",
            got=event.ingredients,
        )


def _game_called(state: ChefsState, event: GameCalled) -> None:
    return None


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
    Phase.LAYING: MealLaid,
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
    MealLaid: _meal_laid,
    GameCalled: _game_called,
}
