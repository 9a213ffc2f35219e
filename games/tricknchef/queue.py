"""Trick-n-Chef's rule for a tap queued on a seat's phone while it was offline
(``GameType.queued_taps``; games.services.game_append's ``queued``): a card, a Chef pick or a
Chef taken is recorded late only in its own slot (its type, player, deal and trick); a tap for a
slot still to come waits (QUEUED_EARLY: the phone sends it again); one the table has passed is
refused in words."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

import engine
from engine import tricknchef
from games.gametypes import GameType
from games.services.errors import Refused
from games.services.writes import QUEUED_EARLY, Slot


def check_slot(
    kind: GameType,
    state: Any,
    obj: Mapping[str, Any],
    queued: Slot,
    record: Callable[[], Sequence[Mapping[str, Any]]],
) -> bool:
    """Whether ``obj``, tapped for ``queued`` (deal, trick), is recorded already in that slot
    (True: nothing to append); False: it is the event expected now, in its slot; else raises
    Refused (QUEUED_EARLY for a slot still to come). ``record``: the game's record events."""
    expected = tricknchef.expected_next(state)
    round_no, trick_no = queued
    slot = (obj.get("type"), obj.get("player"), round_no)
    here = (*expected, state.round_no) if expected is not None else None
    same_trick = obj.get("type") == "chef_chosen" or trick_no == state.trick_no
    if here == slot and same_trick:
        return False
    if _ahead(state, obj, round_no, trick_no):
        raise Refused(
            _(
                "this tap waits for its turn (deal %(round)s, trick %(trick)s): it is sent "
                "again when the table gets there"
            )
            % {"round": round_no, "trick": trick_no},
            QUEUED_EARLY,
            0,
        )
    if _recorded_in_slot(kind, record(), obj, round_no, trick_no):
        return True
    try:  # the rule's words when the rules refuse it now
        kind.step(state, kind.parse(obj))
    except engine.RuleViolation as violation:
        raise Refused.from_violation(violation, 0) from None
    where = _slot_words(round_no, trick_no)
    now = _slot_words(state.round_no, state.trick_no)
    raise Refused(
        _(
            "this tap was made for %(where)s, but the table has moved on to %(now)s: "
            "check the table and tap again if it is still needed"
        )
        % {"where": where, "now": now},
        "queued_stale",
        0,
    )


def _slot_words(round_no: int, trick_no: int) -> str:
    if trick_no:
        return _("deal %(round)s, trick %(trick)s") % {"round": round_no, "trick": trick_no}
    return _("deal %(round)s") % {"round": round_no}


def _recorded_in_slot(
    kind: GameType,
    record: Sequence[Mapping[str, Any]],
    obj: Mapping[str, Any],
    round_no: int,
    trick_no: int,
) -> bool:
    """Whether the game's record holds ``obj`` itself in the slot it was tapped for (its type,
    player, round and trick): entered meanwhile by a neighbour or an official, or forced."""
    try:
        wanted = kind.encode(kind.parse(obj))
    except engine.RuleViolation:
        return False
    state = kind.new_state()
    for event in record:
        parsed = kind.parse(event)
        trick = 0 if event["type"] == "chef_chosen" else state.trick_no
        if (
            state.round_no == round_no
            and trick == (0 if wanted["type"] == "chef_chosen" else trick_no)
            and kind.encode(parsed) == wanted
        ):
            return True
        kind.step(state, parsed)
    return False


def _ahead(state: Any, obj: Mapping[str, Any], round_no: int, trick_no: int) -> bool:
    """Whether a queued card is for a slot still to come: a later trick, or this trick before
    its player's turn (the phone's player saw the physical table ahead of the record)."""
    if obj.get("type") != "card_played" or round_no != state.round_no:
        return False
    if trick_no > state.trick_no:
        return True
    played = {play.player for play in state.trick}
    return trick_no == state.trick_no and obj.get("player") not in played
