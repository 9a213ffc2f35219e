"""Random legal Chefs games, for tests, benchmarks and ``python -m engine simulate --game chefs``.

Every choice comes from the state through the referee's legal-move helpers and every event goes
through :func:`engine.chefs.replay.step`, so a simulated record is legal by construction. The
draws visit the corners: empty counters and cookers, a full door, the chef card at both cookers,
passes, and games that end with several chefs past field 20 and ties.
"""

from __future__ import annotations

import random

from engine.chefs.events import (
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
from engine.chefs.referee import (
    COUNTER,
    DOOR,
    SERVICE,
    legal_chests,
    legal_locations,
    may_use_chef_card,
)
from engine.chefs.replay import step
from engine.chefs.rules import next_seat
from engine.chefs.state import ChefsState, Phase

MAX_ROUNDS = 500


def simulate(seed: int, players: int = 4, names: tuple[str, ...] | None = None) -> list[Event]:
    """A whole random legal game, the same for the same arguments."""
    rng = random.Random(seed)
    seats = names if names is not None else tuple(f"p{i}" for i in range(1, players + 1))
    if len(seats) != players:
        raise ValueError("one name per player")
    state = ChefsState()
    events: list[Event] = []

    def play(event: Event) -> None:
        step(state, event)
        events.append(event)

    play(GameStarted(players=seats))
    while state.phase is not Phase.OVER:
        if state.round_no >= MAX_ROUNDS:
            raise RuntimeError("a simulated game did not end")  # pragma: no cover
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
