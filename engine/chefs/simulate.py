"""Random legal Chefs games, for tests, benchmarks and ``python -m engine simulate --game chefs``.

Every choice comes from the state through the referee's legal-move helpers and every event goes
through :func:`engine.chefs.replay.step`, so a simulated record is legal by construction. The
draws visit the corners: empty counters and cookers, a full door, the chef card at both cookers,
passes, and games that end with several chefs past field 20 and ties.
"""

from __future__ import annotations

import random

from engine.chefs.events import (
    LATEST,
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
from engine.chefs.referee import (
    COUNTER,
    DOOR,
    SERVICE,
    cooking_options,
    counter_counts,
    laying_cooker,
    legal_chests,
    legal_locations,
    may_use_chef_card,
)
from engine.chefs.replay import step
from engine.chefs.rules import MEAL_INGREDIENTS_OFFERED, MEAL_STEPS_OFFERED, next_seat
from engine.chefs.state import ChefsState, Phase

MAX_ROUNDS = 500


CALL_CHANCE = 0.02
"""v2: how often the organizer calls the game for time before a round (from round 3)."""


def simulate(
    seed: int,
    players: int = 4,
    names: tuple[str, ...] | None = None,
    version: int = LATEST,
) -> list[Event]:
    """A whole random legal game of record ``version`` (v1: the draws it always made), the same
    for the same arguments. A v2 game lays random meal cards from those the phones offer and is
    sometimes called for time."""
    rng = random.Random(seed)
    seats = names if names is not None else tuple(f"p{i}" for i in range(1, players + 1))
    if len(seats) != players:
        raise ValueError("one name per player")
    state = ChefsState()
    events: list[Event] = []

    def play(event: Event) -> None:
        step(state, event)
        events.append(event)

    play(GameStarted(players=seats, version=version))
    while state.phase is not Phase.OVER:
        if state.round_no >= MAX_ROUNDS:
            raise RuntimeError("a simulated game did not end")  # pragma: no cover
        while state.phase is Phase.LAYING:
            cooker = laying_cooker(state)
            assert cooker is not None
            steps = rng.choice(MEAL_STEPS_OFFERED)
            play(MealLaid(cooker, steps, rng.choice(MEAL_INGREDIENTS_OFFERED)))
        if version >= 2 and state.round_no >= 2 and rng.random() < CALL_CHANCE:
            play(GameCalled())
            break
        starting = rng.choice(seats) if state.starting is None else next_seat(seats, state.starting)
        play(RoundStarted(round=state.round_no + 1, starting_player=starting))
        while state.phase is Phase.PLACING:
            player = state.expected
            assert player is not None
            location = _pick_location(state, player, rng)
            index = ("counter", "window", "door", "wall", "service").index(location)
            play(MarkerPlaced(player, location, len(state.markers[index]) + 1))
        while state.phase is Phase.ACTING:
            play(_action(state, rng))
    return events


def _pick_location(state: ChefsState, player: str, rng: random.Random) -> str:
    options = legal_locations(state)
    weights = []
    for name in options:
        weight = 1.0
        if name == "service":
            weight = 0.3 + len(state.meals[player])
        elif name in ("window", "wall"):
            weight = 0.5 + min(state.hands[player], 3) * 0.5
        weights.append(weight)
    return rng.choices(options, weights)[0]


def _action(state: ChefsState, rng: random.Random) -> Event:
    player = state.expected
    assert player is not None
    location = state.location
    if rng.random() < 0.05:
        return ActionPassed(player)
    if location == COUNTER:
        if state.counter == 0:
            return ActionPassed(player)
        if state.version >= 2:
            return IngredientsTaken(player, counter_counts(state)[0])
        most = min(2, state.counter)
        return IngredientsTaken(player, most if rng.random() < 0.85 else 1)
    if location == DOOR:
        chests = legal_chests(state)
        return CardsExchanged(player, rng.choice(chests)) if chests else ActionPassed(player)
    if location == SERVICE:
        meals = state.meals[player]
        return (
            MealServed(player, (s := rng.choice(meals)), state.positions[player] + s)
            if meals
            else ActionPassed(player)
        )
    if state.version >= 2:
        options = cooking_options(state, player)
        if not options:
            return ActionPassed(player)
        steps, cards, with_card = rng.choice(options)
        return MealCooked(player, steps, cards, with_card)
    cooker = 0 if location == 1 else 1
    chef_card = may_use_chef_card(state, player) and rng.random() < 0.6
    held = state.hands[player]
    if state.cookers[cooker] == 0 or (held == 0 and not chef_card):
        return ActionPassed(player)
    low = 0 if chef_card else 1
    ingredients = rng.randint(low, min(held, 4)) if held else 0
    if ingredients == 0 and not chef_card:
        return ActionPassed(player)
    return MealCooked(player, rng.randint(1, 6), ingredients, chef_card)
