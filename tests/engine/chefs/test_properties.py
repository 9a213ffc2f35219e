"""Random legal Chefs games drawn by hypothesis, checked against invariants after every event."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.chefs.events import (
    CHESTS,
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
from engine.chefs.referee import legal_chests, legal_locations, may_use_chef_card
from engine.chefs.replay import replay, step
from engine.chefs.rules import INGREDIENT_CARDS, MEAL_CARDS, next_seat, table_cards
from engine.chefs.simulate import simulate
from engine.chefs.state import ChefsState, Phase
from engine.chefs.summary import summarize


def check_invariants(state: ChefsState) -> None:
    if state.phase is Phase.NOT_STARTED:
        return
    # Cards are conserved: every ingredient card is in a hand, at the counter or in the supply;
    # every meal card at a cooker, in front of a chef or in the supply.
    assert state.ingredient_supply + state.counter + sum(state.hands.values()) == INGREDIENT_CARDS
    held = sum(len(m) for m in state.meals.values())
    assert state.meal_supply + sum(state.cookers) + held == MEAL_CARDS
    assert min(state.ingredient_supply, state.counter, state.meal_supply, *state.cookers) >= 0
    assert all(n >= 0 for n in state.hands.values())
    ingredients, meals = table_cards(len(state.players))
    assert state.counter <= ingredients and max(state.cookers) <= meals
    assert len(state.markers[2]) <= 5
    assert len(set(state.chests_taken)) == len(state.chests_taken)
    # Chefs only move forward; the game ends exactly when someone passed field 20.
    for before, after in zip(state.rounds, state.rounds[1:], strict=False):
        assert all(after[p] >= before[p] for p in state.players)
    if state.phase is Phase.OVER and not state.called:
        assert max(state.positions.values()) > 20
    elif state.rounds:
        assert max(state.rounds[-1].values()) <= 20
    if state.phase is Phase.PLACING:
        assert sum(len(m) for m in state.markers) == state.placed < 3 * len(state.players)
    if state.phase is Phase.ACTING:
        assert sum(len(m) for m in state.markers) == 3 * len(state.players)
        for player in state.players:
            assert sum(m.count(player) for m in state.markers) == 3


@st.composite
def games(draw: st.DrawFn) -> list[Event]:
    """A whole legal game with every choice drawn by hypothesis from the legal ones."""
    players = draw(st.integers(2, 6))
    names = tuple(f"c{i}" for i in range(players))
    state = ChefsState()
    events: list[Event] = []

    def play(event: Event) -> None:
        step(state, event)
        check_invariants(state)
        events.append(event)

    play(GameStarted(players=names))
    while state.phase is not Phase.OVER and state.round_no < 15:
        start = draw(st.sampled_from(names)) if state.starting is None else None
        start = start or next_seat(names, state.starting or names[0])
        play(RoundStarted(state.round_no + 1, start))
        while state.phase is Phase.PLACING:
            location = draw(st.sampled_from(legal_locations(state)))
            circle = len(state.markers[LOCATIONS.index(location)]) + 1
            play(MarkerPlaced(state.expected or "", location, circle))
        while state.phase is Phase.ACTING:
            player = state.expected or ""
            play(_action(draw, state, player))
    return events


def _action(draw: st.DrawFn, state: ChefsState, player: str) -> Event:
    where = LOCATIONS[state.location]
    passed = ActionPassed(player)
    options: list[Event] = [passed]
    if where == "counter":
        options += [IngredientsTaken(player, n) for n in (1, 2) if n <= state.counter]
        return draw(st.sampled_from(options))
    if where == "door":
        options += [CardsExchanged(player, c) for c in legal_chests(state)]
        return draw(st.sampled_from(options))
    if where == "service" and state.meals[player]:
        steps = draw(st.sampled_from(state.meals[player]))
        return MealServed(player, steps, state.positions[player] + steps)
    cooker = {"window": 0, "wall": 1}.get(where)
    if cooker is not None and state.cookers[cooker]:
        chef = may_use_chef_card(state, player) and draw(st.booleans())
        cards = draw(st.integers(0 if chef else 1, max(state.hands[player], 0 if chef else 1)))
        if cards <= state.hands[player] and (cards or chef):
            return MealCooked(player, draw(st.integers(1, 12)), cards, chef)
    return passed


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(games())
def test_random_legal_games_keep_the_invariants(events: list[Event]) -> None:
    state = replay(events)
    summary = summarize(state)
    if summary["status"] == "finished":
        ranks = summary["ranking"]
        assert [r["points"] for r in ranks] == sorted((r["points"] for r in ranks), reverse=True)
        for r in ranks:
            assert r["rank"] == 1 + sum(q["points"] > r["points"] for q in ranks)


@given(st.integers(0, 10_000), st.integers(2, 6))
def test_simulated_games_are_legal_finished_and_conserve_cards(seed: int, players: int) -> None:
    state = ChefsState()
    for event in simulate(seed, players):
        step(state, event)
        check_invariants(state)
    assert state.phase is Phase.OVER
    if state.version >= 2:  # the meal cards lying at the cookers are those laid (CH2.4)
        assert [len(cards) for cards in state.laid] == state.cookers
    assert set(CHESTS) >= set(state.chests_taken)
