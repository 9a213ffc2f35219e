"""Random legal games, for tests, benchmarks and demos (``python -m engine simulate``).

Every choice is drawn from the referee's own legal-move helpers and every event goes through
:func:`engine.tricknchef.replay.step`, so a simulated record is legal by construction. The draws
lean towards the interesting corners: coins on about a third of the cards (sometimes all the player
holds), and Chefs often taken from the scarcest suit so that suits run out of the centre.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.tricknchef.cards import SUITS, deck, sort_cards
from engine.tricknchef.events import (
    CardPlayed,
    ChefChosen,
    ChefTaken,
    Event,
    GameStarted,
    RoundStarted,
)
from engine.tricknchef.referee import coin_limit, legal_cards, legal_pick_suits, legal_take_suits
from engine.tricknchef.replay import replay, step
from engine.tricknchef.rules import most_points
from engine.tricknchef.state import GameState, Phase


def simulate(
    seed: int,
    players: int = 4,
    names: tuple[str, ...] | None = None,
    coin_rate: float = 0.35,
    first_player: str | None = None,
    suits: tuple[str, ...] | None = None,
) -> list[Event]:
    """A whole random legal game, the same for the same arguments.

    ``coin_rate`` is the share of cards that get coins when the player holds some;
    ``first_player`` starts round 1 (default: anyone, at random); ``suits`` are the suits in
    play (default: all four for 4 players, three at random for 3).
    """
    rng = random.Random(seed)
    seats = names if names is not None else tuple(f"p{i}" for i in range(1, players + 1))
    if len(seats) != players:
        raise ValueError("one name per player")
    if suits is None:
        suits = SUITS if players == 4 else tuple(rng.sample(SUITS, 3))
    start = GameStarted(players=seats, suits=suits)
    state = step(GameState(), start)
    return [start, *_play_out(state, rng, coin_rate, first_player)]


def play_on(
    events: Sequence[Event],
    seed: int,
    coin_rate: float = 0.35,
    first_player: str | None = None,
) -> list[Event]:
    """The events that finish a game begun with ``events`` (legal ones, which must start with
    ``game_started``), drawn at random as :func:`simulate` draws them, with the same options:
    the same for the same arguments; none if the game is over. For a table left half played
    (tests, the demo)."""
    state = replay(events)
    if state.phase is Phase.NOT_STARTED:
        raise ValueError("a game starts with game_started")
    return _play_out(state, random.Random(seed), coin_rate, first_player)


def _play_out(
    state: GameState, rng: random.Random, coin_rate: float, first_player: str | None
) -> list[Event]:
    """Draw and apply (to ``state``) events until the game is over; return them."""
    seats = state.players
    events: list[Event] = []

    def play(event: Event) -> None:
        step(state, event)
        events.append(event)

    while state.phase is not Phase.OVER:
        if state.phase is Phase.ROUND_START:
            if state.round_no > 0:
                leaders = most_points(state.totals)
            else:
                leaders = seats if first_player is None else (first_player,)
            cards = list(deck(state.suits))
            rng.shuffle(cards)
            hands = tuple(
                (p, tuple(sort_cards(cards[i * 10 : i * 10 + 10]))) for i, p in enumerate(seats)
            )
            play(
                RoundStarted(
                    round=state.round_no + 1, first_player=rng.choice(leaders), hands=hands
                )
            )
        elif state.phase is Phase.CHEF_PICK:
            assert state.expected is not None
            play(ChefChosen(state.expected, rng.choice(legal_pick_suits(state))))
        elif state.phase is Phase.PLAY:
            assert state.expected is not None
            card = rng.choice(sort_cards(legal_cards(state)))
            limit = coin_limit(state)
            coins = 0
            if limit and rng.random() < coin_rate:
                coins = limit if rng.random() < 0.2 else rng.randint(1, limit)
                coins *= rng.choice((1, -1))
            play(CardPlayed(state.expected, card, coins))
        else:  # Phase.CHEF_TAKE
            assert state.expected is not None
            options = legal_take_suits(state)
            if rng.random() < 0.5:
                fewest = min(state.centre[s] for s in options)
                options = [s for s in options if state.centre[s] == fewest]
            play(ChefTaken(state.expected, rng.choice(options)))
    return events
