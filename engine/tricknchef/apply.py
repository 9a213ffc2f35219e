"""The fold: apply one event to a game state (house style: one apply, it never validates).

``apply(state, event)`` assumes the referee (:func:`engine.tricknchef.referee.check`) accepted the
event; it changes ``state`` in place and returns it, so ``functools.reduce(apply, events,
GameState())`` replays a checked record. What follows from an event on its own (the trick's winner
and Chef taker, the coins after the trick, the end of a round and its scores, the end of the game)
happens here, through the pure functions of :mod:`engine.tricknchef.rules`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from engine.errors import InvariantError
from engine.tricknchef.cards import (
    CARD_SUIT,
    CENTRE_CHEFS_PER_SUIT,
    ROUNDS_PER_GAME,
    SUITS,
    TOTAL_COINS,
    TRICKS_PER_ROUND,
)
from engine.tricknchef.events import (
    CardPlayed,
    ChefChosen,
    ChefTaken,
    Event,
    GameStarted,
    RoundStarted,
)
from engine.tricknchef.rules import (
    Play,
    chef_taker,
    coin_payout,
    round_score,
    trick_winner,
    trump_suits,
    value_in_trick,
)
from engine.tricknchef.state import CompletedTrick, GameState, Phase

_new_tuple = tuple.__new__  # builds a NamedTuple without its slower keyword-aware __new__
# Enum attribute lookups cost ~70 ns each on the hot path; module constants cost ~5 ns.
_NOT_STARTED, _ROUND_START, _CHEF_PICK = Phase.NOT_STARTED, Phase.ROUND_START, Phase.CHEF_PICK
_PLAY, _CHEF_TAKE, _OVER = Phase.PLAY, Phase.CHEF_TAKE, Phase.OVER


def apply(state: GameState, event: Event) -> GameState:
    """Apply a checked event to ``state`` (in place) and return it."""
    _HANDLERS[type(event)](state, event)
    return state


def _game_started(state: GameState, event: GameStarted) -> None:
    players = event.players
    state.players = players
    chosen = event.suits if event.suits is not None else SUITS
    state.suits = tuple(s for s in SUITS if s in chosen)
    state.seat = {p: i for i, p in enumerate(players)}
    state.next_seat = {p: players[(i + 1) % len(players)] for i, p in enumerate(players)}
    state.totals = {p: 0 for p in players}
    state.coins = {p: 0 for p in players}
    state.chefs = {p: dict.fromkeys(state.suits, 0) for p in players}
    state.tricks_won = {p: 0 for p in players}
    state.centre = dict.fromkeys(state.suits, 0)
    state.phase = _ROUND_START
    state.expected = None


def _round_started(state: GameState, event: RoundStarted) -> None:
    suits = state.suits
    state.round_no = event.round
    state.trick_no = 1
    state.first_player = event.first_player
    state.hands = {}
    state.suit_counts = {}
    for player, cards in event.hands:
        state.hands[player] = set(cards)
        counts = dict.fromkeys(suits, 0)
        for card in cards:
            counts[CARD_SUIT[card]] += 1
        state.suit_counts[player] = counts
    state.centre = dict.fromkeys(suits, CENTRE_CHEFS_PER_SUIT)  # R3.2
    state.chefs = {p: dict.fromkeys(suits, 0) for p in state.players}
    state.picked = set()
    state.coins = {p: 0 for p in state.players}  # R3.4
    state.won = {p: [] for p in state.players}
    state.tricks_won = {p: 0 for p in state.players}
    state.leader = event.first_player  # R4.1
    state.trump = trump_suits(state.centre, suits)  # R5.2: every suit
    state.trick = []
    state.led_suit = None
    state.winner = None
    state.chef_taker = None
    state.phase = _CHEF_PICK
    state.expected = event.first_player


def _chef_chosen(state: GameState, event: ChefChosen) -> None:
    state.chefs[event.player][event.suit] += 1
    state.picked.add(event.suit)
    if len(state.picked) == len(state.suits):  # R3.3: one pick per player, each suit once
        state.phase = _PLAY
        state.expected = state.leader
    else:
        state.expected = state.next_seat[event.player]


def _card_played(state: GameState, event: CardPlayed) -> None:
    player = event.player
    card = event.card
    coins = event.coins
    state.hands[player].remove(card)
    state.suit_counts[player][CARD_SUIT[card]] -= 1
    if coins:
        state.coins[player] -= abs(coins)  # R4.4: placed coins are no longer held
    trick = state.trick
    if not trick:
        state.led_suit = CARD_SUIT[card]
    trick.append(_new_tuple(Play, (player, card, coins, value_in_trick(card, coins))))
    if len(trick) < len(state.players):
        state.expected = state.next_seat[player]
        return
    winner = trick_winner(trick, state.trump).player  # R6
    taker = chef_taker(trick).player  # R7
    state.won[winner].extend(p.card for p in trick)  # R6.4
    state.tricks_won[winner] += 1
    state.winner = winner
    state.chef_taker = taker
    state.phase = _CHEF_TAKE
    state.expected = taker


def _chef_taken(state: GameState, event: ChefTaken) -> None:
    state.centre[event.suit] -= 1  # R7.1
    state.chefs[event.player][event.suit] += 1
    winner, taker = state.winner, state.chef_taker
    if winner is None or taker is None:
        raise InvariantError("a Chef was taken with no completed trick")
    trick = state.trick
    # R8.1: the trick's coins go back (they were already out of the players' hands), so the
    # reserve is everything nobody holds. R8.2-R8.3: pay the others, leader first.
    reserve = TOTAL_COINS - sum(state.coins.values())
    paid = coin_payout([p.player for p in trick], winner, taker, reserve)
    for player in paid:
        state.coins[player] += 1
    done = (
        state.round_no,
        state.trick_no,
        state.trump,
        tuple(trick),
        winner,
        taker,
        event.suit,
        paid,
    )
    state.tricks.append(_new_tuple(CompletedTrick, done))
    state.trick = []
    state.led_suit = None
    state.winner = None
    state.chef_taker = None
    if state.trick_no < TRICKS_PER_ROUND:
        state.trick_no += 1
        state.leader = winner  # R4.1
        state.trump = trump_suits(state.centre, state.suits)  # R5.1, fixed for the trick
        state.phase = _PLAY
        state.expected = winner
        return
    _round_over(state)


def _round_over(state: GameState) -> None:
    """R9: score the round; the table stays as it ended until the next round_started."""
    scores = {p: round_score(state.won[p], state.chefs[p], state.coins[p]) for p in state.players}
    state.round_scores.append(scores)
    for player, points in scores.items():
        state.totals[player] += points
    state.trump = ()
    state.expected = None
    state.leader = None
    state.phase = _OVER if state.round_no == ROUNDS_PER_GAME else _ROUND_START


_HANDLERS: Final[dict[type, Callable[[GameState, Any], None]]] = {
    GameStarted: _game_started,
    RoundStarted: _round_started,
    ChefChosen: _chef_chosen,
    CardPlayed: _card_played,
    ChefTaken: _chef_taken,
}
