"""The fold: apply one checked event to a Food Truck state (in place). It never validates.

What follows from an event on its own happens here: whether a turned-over dish is served or
eliminates its player (FT4.3-FT4.6), the first-player marker (FT4.7), the turn passing on, the
end of the round with its victory point and last market card (FT5), and the end of the game
(FT3.1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, Final

from engine.errors import InvariantError
from engine.foodtruck.events import (
    CompanyPlayed,
    DishRevealed,
    Event,
    GameStarted,
    MarketTaken,
    RoundStarted,
)
from engine.foodtruck.rules import (
    EFFECTS,
    REARRANGE_DEPTH,
    STARTING_CARDS,
    can_serve,
    market_pile_size,
    victory_threshold,
)
from engine.foodtruck.state import GameState, Phase, PlayerState, RoundResult


def apply(state: GameState, event: Event) -> GameState:
    """Apply a checked event to ``state`` (in place) and return it."""
    _HANDLERS[type(event)](state, event)
    return state


def _game_started(state: GameState, event: GameStarted) -> None:
    state.players = event.players
    state.version = event.version
    state.points = {p: 0 for p in event.players}
    for player in event.players:
        seat = PlayerState()
        seat.hand = Counter(STARTING_CARDS)
        seat.company_pile = set(EFFECTS)
        state.seats[player] = seat
    state.market_pile = market_pile_size(len(event.players))
    state.cards_dealt = len(STARTING_CARDS) * len(event.players)
    state.phase = Phase.ROUND_START


def _round_started(state: GameState, event: RoundStarted) -> None:
    state.round_no = event.round
    state.market = list(event.market)
    state.market_pile -= len(event.market)
    state.cards_dealt += len(event.market)
    state.marker = event.first_player
    state.round_first = event.first_player
    companies = dict(event.companies)
    for player, seat in state.seats.items():
        # FT3.3: the player programs their whole hand into a face-down pile.
        seat.hidden = seat.hand
        seat.hand = Counter()
        seat.tail = []
        seat.served = Counter()
        seat.aside = []
        seat.taken = []
        seat.company = companies[player]
        seat.company_pile.discard(companies[player])
    state.in_round = list(state.players)
    state.eliminated = []
    state.turn_no = 0
    _start_turn(state, event.first_player)


def _start_turn(state: GameState, player: str) -> None:
    state.turn_no += 1
    state.current = player
    state.phase = Phase.TURN
    state.must_play = None
    state.copy_active = False


def _take_top(seat: PlayerState, dish: str) -> None:
    """Take ``dish`` off the top of the pile (the referee checked it may be there)."""
    if seat.hidden:
        seat.hidden[dish] -= 1
        if not seat.hidden[dish]:
            del seat.hidden[dish]
    else:
        seat.tail.pop(0)


def _company_played(state: GameState, event: CompanyPlayed) -> None:
    player = event.player
    if state.phase is Phase.SERVED and player != state.current:
        _start_turn(state, player)
    seat = state.seats[player]
    seat.company = None
    effect = event.effect
    if effect == "rearrange":
        # FT6.1: the top five become one unknown order.
        short = REARRANGE_DEPTH - seat.hidden.total()
        if short > 0 and seat.tail:
            seat.hidden.update(seat.tail[:short])
            del seat.tail[:short]
    elif effect == "remove":
        assert event.target is not None and event.dish is not None
        target = state.seats[event.target]
        target.served[event.dish] -= 1
        if not target.served[event.dish]:
            del target.served[event.dish]
        target.tail.append(event.dish)
    elif effect == "swap":
        assert event.dish is not None and event.market is not None
        _take_top(seat, event.dish)
        state.market.remove(event.market)
        state.market.append(event.dish)
        state.must_play = event.market
    elif effect == "under":
        assert event.dish is not None
        _take_top(seat, event.dish)
        seat.tail.append(event.dish)
    else:
        state.copy_active = True


def _dish_revealed(state: GameState, event: DishRevealed) -> None:
    player = event.player
    if state.phase is Phase.SERVED:
        _start_turn(state, player)
    seat = state.seats[player]
    if state.must_play is not None:
        state.must_play = None
    else:
        _take_top(seat, event.dish)
    served = {p: s.served for p, s in state.seats.items()}
    if can_serve(served, player, event.dish, state.copy_active):
        seat.served[event.dish] += 1
        state.phase = Phase.SERVED
    else:
        seat.aside.append(event.dish)
        _eliminate(state, player)
    state.copy_active = False


def _eliminate(state: GameState, player: str) -> None:
    """FT4.6-FT4.7: out of the round; the first eliminated takes the first-player marker."""
    if not state.eliminated:
        state.marker = player
    state.in_round.remove(player)
    state.eliminated.append(player)
    state.current = player
    state.phase = Phase.MARKET_PICK


def _market_taken(state: GameState, event: MarketTaken) -> None:
    player = event.player
    if state.phase is not Phase.MARKET_PICK:
        # FT4.8: a player who cannot turn a dish over (empty pile) is eliminated.
        if state.phase is Phase.SERVED:
            _start_turn(state, player)
        _eliminate(state, player)
    state.market.remove(event.dish)
    state.seats[player].taken.append(event.dish)
    if len(state.in_round) == 1:
        _end_round(state)
    else:
        nxt = state.next_player()
        assert nxt is not None
        _start_turn(state, nxt)


def _end_round(state: GameState) -> None:
    """FT5: the last player in wins the round, a victory point and the last market card."""
    winner = state.in_round[0]
    if len(state.market) != 1:
        raise InvariantError(f"{len(state.market)} market cards left at the end of a round")
    last = state.market.pop()
    state.seats[winner].taken.append(last)
    state.points[winner] += 1
    assert state.round_first is not None
    state.rounds.append(
        RoundResult(state.round_no, state.round_first, winner, tuple(state.eliminated), last)
    )
    for seat in state.seats.values():
        seat.hand = seat.owned()
        seat.hidden = Counter()
        seat.tail = []
        seat.served = Counter()
        seat.aside = []
        seat.taken = []
        seat.company = None  # FT5.3: unused Company cards are discarded
        if not seat.company_pile:
            seat.company_pile = set(EFFECTS)  # FT5.4: reshuffled
    state.current = None
    state.must_play = None
    state.copy_active = False
    if state.points[winner] >= victory_threshold(len(state.players)):
        state.phase = Phase.OVER
    else:
        state.phase = Phase.ROUND_START


_HANDLERS: Final[dict[type[Any], Callable[[GameState, Any], None]]] = {
    GameStarted: _game_started,
    RoundStarted: _round_started,
    CompanyPlayed: _company_played,
    DishRevealed: _dish_revealed,
    MarketTaken: _market_taken,
}
