"""Random legal games, checked against invariants after every event and against an independent
recount of the scores (the way OpenSpiel's belote_test plays random games and checks the total).

Hypothesis draws every choice from the legal options, so a failure shrinks to a short game.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.tricknchef.cards import CARD_SUIT, CARD_VALUE, SUITS, deck, sort_cards
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
from engine.tricknchef.simulate import simulate
from engine.tricknchef.state import GameState, Phase


def check_invariants(state: GameState) -> None:
    """What must hold after every event of any legal game."""
    if state.phase in (Phase.NOT_STARTED, Phase.ROUND_START) and state.round_no == 0:
        return
    # Coins: never negative, never more than 20 in all (held + on the trick's cards).
    assert all(n >= 0 for n in state.coins.values())
    placed = sum(abs(p.coins) for p in state.trick)
    assert sum(state.coins.values()) + placed <= 20
    assert state.reserve >= 0
    # Chef tokens are conserved: 5 per suit in play (centre + players + not yet picked).
    for suit in state.suits:
        unpicked = 1 if state.phase is Phase.CHEF_PICK and suit not in state.picked else 0
        held = sum(chefs[suit] for chefs in state.chefs.values())
        assert state.centre[suit] + held + unpicked == 5
        assert state.centre[suit] >= 0
    # Every card in play is in exactly one place: a hand, the trick in progress, or a won pile
    # (a completed trick's cards are in the winner's pile while its Chef is awaited).
    places = Counter[str]()
    for hand in state.hands.values():
        places.update(hand)
    if state.phase is Phase.PLAY:
        places.update(p.card for p in state.trick)
    for pile in state.won.values():
        places.update(pile)
    assert places == Counter(deck(state.suits))
    # The suit counts used for following suit agree with the hands.
    for player, hand in state.hands.items():
        assert state.suit_counts[player] == {
            s: sum(CARD_SUIT[c] == s for c in hand) for s in state.suits
        }
    # Tricks won count 4 (or 3) cards each.
    assert sum(state.tricks_won.values()) * len(state.players) == sum(
        len(pile) for pile in state.won.values()
    )
    # Trump is the rule's trump, fixed at the start of the trick.
    if state.phase is Phase.PLAY and not state.trick:
        live = {s: n for s, n in state.centre.items() if n > 0}
        assert set(state.trump) == {s for s, n in live.items() if n == min(live.values())}


def recount_scores(events: list[Event]) -> list[dict[str, int]]:
    """Score every finished round from the events alone, without the engine's state or rules
    module: who won each trick, who took the Chef, coins placed and paid, then R9."""
    players: tuple[str, ...] = ()
    rounds: list[dict[str, int]] = []
    centre: dict[str, int] = {}
    chefs: dict[str, Counter[str]] = {}
    won: dict[str, list[str]] = {}
    coins: dict[str, int] = {}
    trick: list[tuple[str, str, int]] = []
    trump: set[str] = set()
    tricks_done = 0
    for event in events:
        if isinstance(event, GameStarted):
            players = event.players
        elif isinstance(event, RoundStarted):
            suits = {CARD_SUIT[c] for _, cards in event.hands for c in cards}
            centre = dict.fromkeys(suits, 4)
            chefs = {p: Counter() for p in players}
            won = {p: [] for p in players}
            coins = dict.fromkeys(players, 0)
            trump = set(suits)
            tricks_done = 0
        elif isinstance(event, ChefChosen):
            chefs[event.player][event.suit] += 1
        elif isinstance(event, CardPlayed):
            coins[event.player] -= abs(event.coins)
            trick.append((event.player, event.card, CARD_VALUE[event.card] + 2 * event.coins))
        elif isinstance(event, ChefTaken):
            trumps = [t for t in trick if CARD_SUIT[t[1]] in trump]
            led = CARD_SUIT[trick[0][1]]
            pool = trumps or [t for t in trick if CARD_SUIT[t[1]] == led]
            top = max(v for _, _, v in pool)
            winner = [p for p, _, v in pool if v == top][-1]
            low = min(v for _, _, v in trick)
            taker = [p for p, _, v in trick if v == low][0]
            assert taker == event.player
            won[winner] += [c for _, c, _ in trick]
            chefs[taker][event.suit] += 1
            centre[event.suit] -= 1
            reserve = 20 - sum(coins.values())
            for player, _, _ in trick:
                if player not in (winner, taker) and reserve > 0:
                    coins[player] += 1
                    reserve -= 1
            trick = []
            live = {s: n for s, n in centre.items() if n > 0}
            trump = {s for s, n in live.items() if n == min(live.values())}
            tricks_done += 1
            if tricks_done == 10:
                scores = {}
                for p in players:
                    points = coins[p]
                    for suit in {CARD_SUIT[c] for c in won[p]}:
                        values = sorted(CARD_VALUE[c] for c in won[p] if CARD_SUIT[c] == suit)
                        stars = [4 if v == 10 else (v + 2) // 3 for v in values]
                        points += sum(stars[: chefs[p][suit]])
                    scores[p] = points
                rounds.append(scores)
    return rounds


def check_finished(state: GameState, events: list[Event]) -> None:
    assert state.phase is Phase.OVER
    assert state.round_scores == recount_scores(events)
    for player in state.players:
        assert state.totals[player] == sum(r[player] for r in state.round_scores)
    # Each card was won exactly once in each round.
    for number in (1, 2, 3):
        cards = [p.card for t in state.tricks if t.round == number for p in t.plays]
        assert sorted(cards) == sorted(deck(state.suits))


@st.composite
def legal_games(draw: st.DrawFn) -> tuple[GameState, list[Event]]:
    """A whole legal game, every choice drawn by Hypothesis; invariants checked at each step."""
    players = draw(st.sampled_from((3, 4)))
    names = tuple(f"p{i}" for i in range(1, players + 1))
    suits = SUITS if players == 4 else tuple(draw(st.permutations(SUITS))[:3])
    state = GameState()
    events: list[Event] = []

    def do(event: Event) -> None:
        step(state, event)
        events.append(event)
        check_invariants(state)

    do(GameStarted(names, suits if players == 3 or draw(st.booleans()) else None))
    while state.phase is not Phase.OVER:
        who = state.expected or ""
        if state.phase is Phase.ROUND_START:
            cards = draw(st.permutations(deck(state.suits)))
            hands = tuple((p, tuple(cards[i * 10 : i * 10 + 10])) for i, p in enumerate(names))
            leaders = names if state.round_no == 0 else most_points(state.totals)
            do(RoundStarted(state.round_no + 1, draw(st.sampled_from(leaders)), hands))
        elif state.phase is Phase.CHEF_PICK:
            do(ChefChosen(who, draw(st.sampled_from(legal_pick_suits(state)))))
        elif state.phase is Phase.PLAY:
            card = draw(st.sampled_from(sort_cards(legal_cards(state))))
            limit = coin_limit(state)
            coins = draw(st.integers(-limit, limit)) if limit and draw(st.booleans()) else 0
            do(CardPlayed(who, card, coins))
        else:
            do(ChefTaken(who, draw(st.sampled_from(legal_take_suits(state)))))
    return state, events


# As many games as the profile gives (tests/conftest.py): 150 in CI, 100 by default, 2,000 with
# HYPOTHESIS_PROFILE=thorough. Each is a whole game checked after every event (about 0.1 s).
@pytest.mark.slow
@settings(suppress_health_check=[HealthCheck.too_slow])
@given(legal_games())
def test_random_legal_games_keep_every_invariant_and_score_as_recounted(
    game: tuple[GameState, list[Event]],
) -> None:
    state, events = game
    check_finished(state, events)
    assert replay(events).round_scores == state.round_scores  # replay is deterministic


@pytest.mark.slow
def test_thousands_of_simulated_games_score_as_recounted() -> None:
    for seed in range(2000):
        events = simulate(seed, 3 + seed % 2, coin_rate=(0.0, 0.35, 0.9)[seed % 3])
        check_finished(replay(events), events)


def test_invariants_hold_after_every_event_of_simulated_games() -> None:
    for seed in range(60):
        state = GameState()
        for event in simulate(seed, 3 + seed % 2):
            step(state, event)
            check_invariants(state)


def test_a_copied_state_is_independent() -> None:
    events = simulate(seed=1, players=4)
    state = replay(events[:40])
    copy = state.copy()
    for event in events[40:80]:
        step(copy, event)
    fresh = replay(events[:40])
    for attribute in GameState.__slots__:
        assert getattr(state, attribute) == getattr(fresh, attribute), attribute
