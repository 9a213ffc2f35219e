"""Random legal Crazy Kitchen games (``python -m engine simulate --game crazy-kitchen``)."""

from __future__ import annotations

import random

from engine.crazykitchen.events import Event, GameStarted, RoundScored, Team
from engine.crazykitchen.referee import expected_cooks
from engine.crazykitchen.replay import step
from engine.crazykitchen.rules import ROUNDS, round_score
from engine.crazykitchen.state import KitchenState


def simulate(seed: int, players: int = 4) -> list[Event]:
    """A whole random legal game for ``players`` players split into two teams (the smaller
    first when the number is odd), the same for the same arguments."""
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(1, players + 1)]
    small = players // 2
    teams = (Team("Pizza", tuple(names[:small])), Team("French Fries", tuple(names[small:])))
    compensation = None
    if players % 2 and rng.random() < 0.4:
        compensation = rng.choice([0, 10, 15, 20])
    state = KitchenState()
    events: list[Event] = []

    def play(event: Event) -> None:
        step(state, event)
        events.append(event)

    play(GameStarted(teams, rng.choice(["Pizza", "French Fries"]), compensation))
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
