"""Deals entered in parallel: each seat's phone taps its own 10 cards (docs/scorekeeping.md,
"Phones at the table").

A hand in progress is a :class:`~games.models.DealDraft` row (one per game, round and seat), saved
whole at every tap (idempotent: the last write wins). It is private: only its seat's phone (and the
phones the organizer shared the seat with, and the table's officials) read it; the others see how
many cards it has. When the last hand reaches 10 and the hands are a consistent deal (each card of
the suits in play in exactly one hand), the same transaction records the round's one
``round_started`` (record format v1, unchanged) through ``game_append``. The game's row is locked
first, so two last hands saved at once make one ``round_started``: the second finds the round
started and its draft is ignored, as every draft of a round that has started is.

``deal_check`` and ``first_player_choices`` are pure: the phone page's presenters use them too.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.tricknchef.cards import CARD_SUIT, CARD_VALUE, CARDS_PER_HAND, Card, deck, sort_cards
from engine.tricknchef.rules import most_points
from engine.tricknchef.snapshot import from_snapshot
from engine.tricknchef.state import GameState, Phase
from games import policy
from games.gametypes import DEFAULT_GAME_TYPE
from games.models import DealDraft, GameProjection
from games.refusals import refusal_message
from games.seats import SeatAccess
from games.services.common import User, _projection
from games.services.errors import NotAllowed, Overtaken, Refused
from games.services.reads import game_sees_hands
from games.services.writes import game_append
from games.tricknchef.cardnames import card_name


class DealClosed(Overtaken):
    """The round this hand was for has started (or the table waits for no deal now)."""

    code = "deal_closed"


@dataclass(frozen=True, slots=True)
class Clash:
    """A card two (or more) hands claim."""

    card: Card
    seats: tuple[int, ...]
    instead: tuple[Card, ...]
    """Cards in no hand, once every hand holds 10: one of the clashing players may hold one of
    these instead (the same suit first)."""


@dataclass(frozen=True, slots=True)
class DealCheck:
    full: bool
    """Every hand holds 10 cards."""
    clashes: tuple[Clash, ...]

    @property
    def ok(self) -> bool:
        return self.full and not self.clashes


def deal_check(
    hands: Mapping[int, Sequence[Card]], seats: int, in_play: Sequence[Card]
) -> DealCheck:
    """Whether the hands tapped so far (seat -> cards) are a deal: ``seats`` hands of 10, each
    card of ``in_play`` in exactly one."""
    holders: dict[Card, list[int]] = {}
    for seat in sorted(hands):
        for card in hands[seat]:
            holders.setdefault(card, []).append(seat)
    full = len(hands) == seats and all(len(h) == CARDS_PER_HAND for h in hands.values())
    missing = [c for c in in_play if c not in holders] if full else []
    clashes = []
    for card in sort_cards(c for c, who in holders.items() if len(who) > 1):
        suit = CARD_SUIT[card]
        near = sorted(
            missing, key=lambda c: (CARD_SUIT[c] != suit, abs(CARD_VALUE[c] - CARD_VALUE[card]))
        )
        clashes.append(Clash(card, tuple(holders[card]), tuple(near[:2])))
    return DealCheck(full, tuple(clashes))


def clash_words(clash: Clash, me: int, names: Mapping[int, str]) -> str:
    """What a clashing seat's phone says (and only a clashing seat's: nothing else of the other
    hand): "you and Ben both entered green 7; one of you may hold green 8 instead: check your
    cards"."""
    others = [names[s] for s in clash.seats if s != me]
    values = {
        "others": ", ".join(others),
        "card": card_name(clash.card),
        "instead": _(" or ").join(card_name(c) for c in clash.instead),
    }
    if len(others) < 2:
        if clash.instead:
            text = _(
                "you and %(others)s both entered %(card)s; one of you may hold %(instead)s "
                "instead: check your cards"
            )
        else:
            text = _("you and %(others)s both entered %(card)s: check your cards")
    elif clash.instead:
        text = _(
            "you, %(others)s all entered %(card)s; one of you may hold %(instead)s instead: "
            "check your cards"
        )
    else:
        text = _("you, %(others)s all entered %(card)s: check your cards")
    return text % values


def first_player_choices(state: GameState, seat_one: str | None) -> list[str]:
    """Who may lead the next round, in seat order (R3.1): round 1 anyone, unless the game's
    seating names its first player (a tournament table: seat 1); rounds 2 and 3 a player with
    the most points."""
    if state.round_no >= 1:
        best = set(most_points(state.totals))
        return [p for p in state.players if p in best]
    if seat_one is not None and seat_one in state.players:
        return [seat_one]
    return list(state.players)


@dataclass(frozen=True, slots=True)
class DealRound:
    """The deal of the round the table waits for, as tapped in so far on the phones."""

    round: int
    hands: dict[int, tuple[Card, ...]]
    """Seat (1-based) -> the cards its phone has tapped (private: callers show a hand only to
    its seat)."""
    choices: list[str]
    first_player: str
    """The chosen first player (the first choice until a phone chose)."""
    check: DealCheck


def deal_round(game: GameProjection, drafts: Iterable[DealDraft] | None = None) -> DealRound | None:
    """The deal in progress (None unless the table waits for a deal). No permission check: the
    caller shows each hand to its own seat only."""
    if game.game_type != DEFAULT_GAME_TYPE or game.results_only or not game.snapshot:
        return None
    state = from_snapshot(game.snapshot)
    if state.phase is not Phase.ROUND_START:
        return None
    number = state.round_no + 1
    if drafts is None:
        drafts = DealDraft.objects.filter(game_id=game.stream_id, round=number)
    rows = [d for d in drafts if d.round == number]
    hands = {d.seat: tuple(d.cards) for d in rows if d.cards}
    seating = policy.seating(game)
    choices = first_player_choices(state, seating.first_player if seating else None)
    chosen = max(
        (d for d in rows if d.first_player in choices), key=lambda d: d.updated_at, default=None
    )
    first = chosen.first_player if chosen is not None else choices[0]
    check = deal_check(hands, len(state.players), deck(state.suits))
    return DealRound(number, hands, choices, first, check)


@dataclass(frozen=True, slots=True)
class DealSaved:
    started: bool
    """This hand completed the deal: the round started."""
    refusal: str = ""
    """The hands are a deal but the rules refused it (e.g. a tournament's first player)."""


def _enters_for(
    game: GameProjection, seat: int, access: SeatAccess | None, user: User | None
) -> str:
    """The seat's player, if the phone (or the official) may enter its hand."""
    players = list(game.players)
    if not 1 <= seat <= len(players):
        raise Refused(_("this table has no seat %(seat)s") % {"seat": seat}, "bad_seat")
    if access is not None:
        if access.game_id != game.stream_id:
            raise NotAllowed(_("this seat link is for another game"))
        if seat not in {s for s, _name in access.acts_for}:
            raise NotAllowed(
                _("this phone enters %(player)s's hand, not %(other)s's")
                % {"player": access.player, "other": players[seat - 1]}
            )
    elif not game_sees_hands(game=game, user=user):
        raise NotAllowed(_("only the game's officials enter a hand for a seat without a phone"))
    return str(players[seat - 1])


def _waiting(game: GameProjection, round_no: int) -> GameState:
    state = from_snapshot(game.snapshot) if game.snapshot else GameState()
    if game.results_only or state.phase is not Phase.ROUND_START or state.round_no + 1 != round_no:
        if state.phase is not Phase.ROUND_START:
            text = _("deal %(round)s cannot be entered now: the table is not waiting for a deal")
        else:
            text = _("deal %(round)s cannot be entered now: the table waits for deal %(next)s")
        raise DealClosed(text % {"round": round_no, "next": state.round_no + 1})
    return state


def deal_hand_save(
    *,
    game_id: uuid.UUID,
    round: int,
    seat: int,
    cards: Sequence[str],
    access: SeatAccess | None = None,
    user: User | None = None,
) -> DealSaved:
    """Save one seat's hand as tapped so far (the whole hand: idempotent); if it completes a
    consistent deal, start the round (one ``round_started``) in the same transaction."""
    with transaction.atomic():
        game = _projection(game_id, lock=True)  # one deal at a time per game
        _enters_for(game, seat, access, user)
        state = _waiting(game, round)
        in_play = set(deck(state.suits))
        hand: list[str] = []
        for card in cards:
            if not isinstance(card, str) or card not in in_play:
                raise Refused(_("%(card)s is not a card of this game") % {"card": card}, "bad_card")
            if card in hand:
                raise Refused(
                    _("%(card)s is in the hand twice") % {"card": card_name(card)}, "bad_card"
                )
            hand.append(card)
        if len(hand) > CARDS_PER_HAND:
            raise Refused(
                _("a hand has %(count)s cards: take one back before adding another")
                % {"count": CARDS_PER_HAND},
                "bad_hand",
            )
        full = len(hand) == CARDS_PER_HAND
        # Every tap of every phone comes here: one UPDATE (the row exists after the first tap).
        saved = DealDraft.objects.filter(game_id=game_id, round=round, seat=seat).update(
            cards=sort_cards(hand), full=full, updated_at=timezone.now()
        )
        if not saved:
            DealDraft.objects.create(
                game_id=game_id, round=round, seat=seat, cards=sort_cards(hand), full=full
            )
        if not full:  # a deal starts only when every hand is whole: this one is not
            return DealSaved(started=False)
        return _start_if_dealt(game, access, user)


def deal_first_player(
    *,
    game_id: uuid.UUID,
    round: int,
    player: str,
    access: SeatAccess | None = None,
    user: User | None = None,
) -> DealSaved:
    """Any phone of the table says who leads the round (when the rules leave a choice): one
    choice for the table, the last one wins."""
    with transaction.atomic():
        game = _projection(game_id, lock=True)
        seat = access.seat if access is not None else 1
        _enters_for(game, seat, access, user)
        state = _waiting(game, round)
        seating = policy.seating(game)
        choices = first_player_choices(state, seating.first_player if seating else None)
        if player not in choices:
            if len(choices) > 1:
                text = _(
                    "%(player)s may not lead round %(round)s: the first player is one of "
                    "%(choices)s"
                )
            else:
                text = _("%(player)s may not lead round %(round)s: %(choices)s does")
            raise Refused(
                text % {"player": player, "round": round, "choices": ", ".join(choices)},
                "bad_first_player",
            )
        now = timezone.now()
        for number in range(1, len(state.players) + 1):
            DealDraft.objects.update_or_create(
                game_id=game_id,
                round=round,
                seat=number,
                defaults={"first_player": player, "updated_at": now},
            )
        return _start_if_dealt(game, access, user)


def _start_if_dealt(
    game: GameProjection, access: SeatAccess | None, user: User | None
) -> DealSaved:
    deal = deal_round(game)
    if deal is None or not deal.check.ok:
        return DealSaved(started=False)
    players = list(game.players)
    event = {
        "type": "round_started",
        "round": deal.round,
        "first_player": deal.first_player,
        "hands": {players[seat - 1]: list(deal.hands[seat]) for seat in sorted(deal.hands)},
    }
    try:
        game_append(
            game_id=game.stream_id,
            expected_version=game.version,
            events=[event],
            seat=access,
            user=user,
            whole_table=True,
        )
    except Refused as refused:
        return DealSaved(started=False, refusal=refusal_message(refused))
    return DealSaved(started=True)


def deal_table(game_id: uuid.UUID) -> tuple[GameProjection, DealRound | None]:
    """The game and the deal in progress, for a phone that holds a seat link of it (or an
    official the caller checked): no permission check here."""
    game = _projection(game_id)
    return game, deal_round(game)
