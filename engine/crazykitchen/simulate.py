"""Random legal Crazy Kitchen games (``python -m engine simulate --game crazy-kitchen``): v2
records (the orders and the upgrades as the phones enter them); :func:`simulate_v1` still makes
the v1 records of round results."""

from __future__ import annotations

import random
from collections.abc import Callable

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
    Team,
    ToolSpedUp,
    UpgradesDone,
)
from engine.crazykitchen.referee import (
    expected_cooks,
    expected_customers,
    upgrade_at,
    upgrading,
)
from engine.crazykitchen.replay import step
from engine.crazykitchen.rules import ROUNDS, TOOLS, round_score
from engine.crazykitchen.state import KitchenState


def _start(rng: random.Random, players: int, version: int) -> GameStarted:
    names = [f"p{i}" for i in range(1, players + 1)]
    small = players // 2
    groups = (names[:small], names[small:])
    heads = [rng.choice(g) if version == 2 else None for g in groups]
    teams = (
        Team("Pizza", tuple(groups[0]), heads[0]),
        Team("French Fries", tuple(groups[1]), heads[1]),
    )
    compensation = None
    if players % 2 and rng.random() < 0.4:
        compensation = rng.choice([0, 10, 15, 20])
    first = rng.choice(["Pizza", "French Fries"])
    if version == 2 and first != teams[0].name:  # v2: seat 1 cooks first, as at a table
        teams = (teams[1], teams[0])
    return GameStarted(teams, first, compensation, version)


def simulate_v1(seed: int, players: int = 4) -> list[Event]:
    """A whole random legal v1 game (round results only) for ``players`` players split into
    two teams (the smaller first when the number is odd), the same for the same arguments."""
    rng = random.Random(seed)
    state = KitchenState()
    events: list[Event] = []

    def play(event: Event) -> None:
        step(state, event)
        events.append(event)

    play(_start(rng, players, 1))
    for number in range(1, ROUNDS + 1):
        fulfilled = tuple(rng.randint(1, 6) for _ in range(rng.randint(0, 6)))
        penalties = tuple(rng.randint(1, 3) for _ in range(rng.randint(0, 4)))
        play(
            RoundScored(
                number,
                expected_cooks(state),
                fulfilled,
                penalties,
                round_score(fulfilled, penalties),
            )
        )
    return events


def simulate(seed: int, players: int = 4) -> list[Event]:
    """A whole random legal v2 game: each round's orders as the cooks enter them (now and then
    one struck, now and then the round returned once), the customers' confirmation, and the
    upgrades after rounds 2 and 4 within each team's budget."""
    rng = random.Random(seed)
    state = KitchenState()
    events: list[Event] = []

    def play(event: Event) -> None:
        step(state, event)
        events.append(event)

    play(_start(rng, players, 2))
    for number in range(1, ROUNDS + 1):
        cooks, customers = expected_cooks(state), expected_customers(state)
        for _ in range(rng.randint(0, 8)):
            if rng.random() < 0.7:
                play(OrderFulfilled(cooks, rng.randint(1, 6)))
            else:
                play(OrderFailed(cooks, rng.randint(1, 3)))
        if state.orders and rng.random() < 0.2:
            play(RoundReturned(customers))
            play(OrderStruck(cooks, rng.randint(1, len(state.orders))))
        play(RoundConfirmed(customers))
        if number in (2, 4):
            _upgrades(rng, state, play)
    return events


def _upgrades(rng: random.Random, state: KitchenState, play: Callable[[Event], None]) -> None:
    after = len(state.rounds)
    while (team := upgrading(state)) is not None:
        limit = upgrade_at(state, after).limits[team]
        while rng.random() < 0.6:
            left = limit - state.spent(after, team)
            if left < 1:
                break
            if rng.random() < 0.6:
                tool = rng.choice(TOOLS)
                crossed = [b.cost for b in state.bought if b.tool == tool]
                least = crossed[-1] if crossed else 1
                if least > left:
                    break
                play(ToolSpedUp(team, tool, rng.randint(least, min(left, least + 2))))
            else:
                play(CardTaken(team, rng.randint(1, min(left, 4))))
        play(UpgradesDone(team))
