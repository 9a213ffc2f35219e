"""Food Truck's rule for a tap queued on a seat's phone while it was offline
(``GameType.queued_taps``; games.services.game_append's ``queued``): a dish turned over, a
Company card or a market card is recorded late only in its own slot, the round and the turn it
was tapped for (engine.foodtruck.state.GameState.turn_of: a turn lasts from its player's first
move to the next player's, so a Company card the previous player plays meanwhile does not move
it); a tap for a turn the table has passed, or not reached (an undo took it back), is refused in
words, the rule's own when the rules refuse it now."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

import engine
from engine.foodtruck.state import GameState
from games.gametypes import GameType
from games.services.errors import Refused
from games.services.writes import Slot


def check_slot(
    kind: GameType,
    state: Any,
    obj: Mapping[str, Any],
    queued: Slot,
    record: Callable[[], Sequence[Mapping[str, Any]]],
) -> bool:
    """Whether ``obj``, tapped for ``queued`` (round, turn), is recorded already in that slot
    (True: nothing to append); False: its slot is the table's now (the referee then checks it);
    else raises Refused. ``state``: the game type's (its engine state in ``state.state``)."""
    game: GameState = state.state
    player = str(obj.get("player", ""))
    round_no, turn = queued
    if player in game.seats and (round_no, turn) == (game.round_no, game.turn_of(player)):
        return False
    if _recorded_in_slot(kind, record(), obj, round_no, turn):
        return True
    try:  # the rule's words when the rules refuse it now
        kind.step(state, kind.parse(obj))
    except engine.RuleViolation as violation:
        raise Refused.from_violation(violation, 0) from None
    raise Refused(
        _(
            "this tap was made for round %(round)s, turn %(turn)s, but the table is at round "
            "%(now_round)s, turn %(now_turn)s: check the table and tap again if it is still "
            "needed"
        )
        % {
            "round": round_no,
            "turn": turn,
            "now_round": game.round_no,
            "now_turn": game.turn_of(player) if player in game.seats else game.turn_no,
        },
        "queued_stale",
        0,
    )


def _recorded_in_slot(
    kind: GameType,
    record: Sequence[Mapping[str, Any]],
    obj: Mapping[str, Any],
    round_no: int,
    turn: int,
) -> bool:
    """Whether the record holds ``obj`` itself in the slot it was tapped for: entered meanwhile
    by a neighbour or an official."""
    try:
        wanted = kind.encode(kind.parse(obj))
    except engine.RuleViolation:
        return False
    state = kind.new_state()
    player = str(obj.get("player", ""))
    for event in record:
        parsed = kind.parse(event)
        game: GameState = state.state
        here = player in game.seats and (game.round_no, game.turn_of(player)) == (round_no, turn)
        if here and kind.encode(parsed) == wanted:
            return True
        kind.step(state, parsed)
    return False
