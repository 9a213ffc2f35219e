"""Trick-n-Chef's seat-phone panel (games.phone.panel.Panel; docs/scorekeeping.md, "Phones at
the table"): the engine's state and the deal in progress turned into plain records for its
template (templates/tricknchef/phone.html here), and the taps its phones post (a hand, who plays
first, a card or a Chef). Pure presentation: it decides nothing (the legal moves come from
engine.tricknchef.referee) and it shows a hand only to the phone that enters it: its own seat,
or a seat the organizer shared with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.tricknchef.cards import CARDS_PER_HAND, COIN_STEP, DISH, Card, deck, sort_cards
from engine.tricknchef.referee import coin_limit, legal_cards, legal_pick_suits, legal_take_suits
from engine.tricknchef.rules import chef_taker, trick_winner
from engine.tricknchef.state import GameState, Phase
from games import services
from games.phone.panel import Append, Panel, Save, Seat, SeatNow, Shown, Tap, seats_of
from games.tricknchef import deals
from games.tricknchef.cardnames import card_label, card_name, chef_name, coin_words, suit_name
from games.tricknchef.deals import DealRound, clash_words
from games.tricknchef.table_presenters import play_headline


@dataclass(frozen=True, slots=True)
class GridCard:
    card: Card
    label: str
    chosen: bool


@dataclass(frozen=True, slots=True)
class DealEntry:
    round: int
    seat: int
    player: str
    suits: list[tuple[str, str, list[GridCard]]]
    """(suit, dish, cards) for each suit in play."""
    count: int
    others: list[tuple[str, int]]
    """(player, cards tapped) of the other seats: never which cards."""
    clashes: list[str]
    """The contradictions this hand is part of, in words."""
    choices: list[str]
    first_player: str
    waiting: str
    """Who the round still waits for, in words."""
    suggested: list[GridCard] = field(default_factory=list)
    """Once every other hand is in (and they agree), the cards left must be this hand: shown
    to this seat only, to confirm in one tap instead of ten."""


@dataclass(frozen=True, slots=True)
class HandCard:
    card: Card
    label: str
    legal: bool


@dataclass(frozen=True, slots=True)
class PlayEntry:
    player: str
    seat: int
    turn: bool
    """It is this player's turn (else the hand is shown to look at, and offline only)."""
    hand: list[HandCard]
    coins_held: int
    coin_options: list[tuple[int, str]]
    round: int
    trick: int
    """The trick this player's next card is for."""
    note: str


@dataclass(frozen=True, slots=True)
class SuitChoice:
    suit: str
    dish: str
    left: int


@dataclass(frozen=True, slots=True)
class ChefEntry:
    player: str
    kind: str
    """"chef_chosen" or "chef_taken"."""
    suits: list[SuitChoice]
    round: int
    trick: int


@dataclass(frozen=True, slots=True)
class TrickPlay:
    player: str
    card: Card | None
    coins: int
    value: int
    winning: bool
    lowest: bool
    words: str


@dataclass(frozen=True, slots=True)
class PlayerLine:
    seat: int
    player: str
    coins: int
    chefs: list[tuple[str, int]]
    tricks: int
    total: int
    turn: bool


@dataclass(frozen=True, slots=True)
class PhoneView:
    me: Seat
    seats: list[Seat]
    version: int
    round: int
    trick: int
    phase: str
    headline: str
    waiting_for: str | None
    """The player the table waits for, when it is not one this phone enters for."""
    deal: DealEntry | None = None
    play: PlayEntry | None = None
    chef: ChefEntry | None = None
    trick_plays: list[TrickPlay] = field(default_factory=list)
    trump: list[str] = field(default_factory=list)
    players: list[PlayerLine] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    ranking: list[Mapping[str, Any]] = field(default_factory=list)
    closed: str = ""
    """Why nothing can be entered (results only, voided)."""


def phone_view(
    *,
    state: GameState,
    version: int,
    acts_for: Sequence[tuple[int, str]],
    focus: int,
    deal: DealRound | None,
    summary: Mapping[str, Any],
    closed: str = "",
) -> PhoneView:
    """``acts_for``: the phone's own (seat, player) first, then the seats shared with it;
    ``focus``: the seat it enters the deal for now (one of them)."""
    seats = seats_of(acts_for, focus)
    focus = next(s.seat for s in seats if s.focus)
    me = seats[0]
    names = {i: p for i, p in enumerate(state.players, start=1)}
    entering = {p for _, p in acts_for}
    expected = state.expected
    base: dict[str, Any] = {
        "me": me,
        "seats": seats,
        "version": version,
        "round": state.round_no,
        "trick": state.trick_no,
        "phase": state.phase.value,
        "players": _players(state),
        "rounds": _rounds(list(state.players), summary),
        "ranking": _ranking(summary.get("ranking") or []),
        "trump": list(state.trump),
        "trick_plays": _trick(state),
    }
    if closed:
        return PhoneView(headline=closed, waiting_for=None, closed=closed, **base)
    phase = state.phase
    if phase is Phase.OVER:
        return PhoneView(headline=_("The game is over"), waiting_for=None, **base)
    if phase is Phase.ROUND_START and deal is not None:
        entry = _deal_entry(state, deal, focus, names)
        return PhoneView(
            headline=_("Deal %(round)s: tap your 10 cards") % {"round": deal.round},
            waiting_for=None,
            deal=entry,
            **base,
        )
    waiting = expected if expected is not None and expected not in entering else None
    # The phone's own hand stays in sight (and, offline, tappable: the player sees the table).
    own = _play_entry(state, me.player, me.seat)
    if phase is Phase.CHEF_PICK:
        chef = None
        if expected in entering:
            suits = [SuitChoice(s, DISH[s], 1) for s in legal_pick_suits(state)]
            chef = ChefEntry(str(expected), "chef_chosen", suits, state.round_no, 0)
        head = _("%(player)s picks a Chef") % {"player": expected}
        return PhoneView(headline=head, waiting_for=waiting, chef=chef, play=own, **base)
    if phase is Phase.CHEF_TAKE:
        chef = None
        if expected in entering:
            suits = [SuitChoice(s, DISH[s], state.centre[s]) for s in legal_take_suits(state)]
            chef = ChefEntry(str(expected), "chef_taken", suits, state.round_no, state.trick_no)
        head = _("%(winner)s wins trick %(trick)s; %(player)s takes a Chef") % {
            "winner": state.winner,
            "trick": state.trick_no,
            "player": expected,
        }
        return PhoneView(headline=head, waiting_for=waiting, chef=chef, play=own, **base)
    # PLAY: the hand of the player to play if this phone enters for them, else its own.
    player = str(expected) if expected in entering else me.player
    seat = next(s for s, p in acts_for if p == player)
    head = play_headline(state, expected)
    play = _play_entry(state, player, seat)
    return PhoneView(headline=head, waiting_for=waiting, play=play, **base)


def _deal_entry(
    state: GameState, deal: DealRound, focus: int, names: Mapping[int, str]
) -> DealEntry:
    mine = set(deal.hands.get(focus, ()))
    suits = []
    for suit in state.suits:
        cards = [GridCard(c, card_label(c), c in mine) for c in deck((suit,))]
        suits.append((suit, DISH[suit], cards))
    others = [(names[s], len(deal.hands.get(s, ()))) for s in sorted(names) if s != focus]
    clashes = [clash_words(c, focus, names) for c in deal.check.clashes if focus in c.seats]
    short = [names[s] for s in sorted(names) if len(deal.hands.get(s, ())) < 10]
    waiting = (
        _("Waiting for %(players)s") % {"players": ", ".join(short)}
        if short
        else _("Every hand is in")
    )
    left = _cards_left(deal, focus, deck(state.suits))
    suggested = [GridCard(c, card_label(c), True) for c in left] if set(left) != mine else []
    return DealEntry(
        round=deal.round,
        seat=focus,
        player=names[focus],
        suits=suits,
        count=len(mine),
        others=others,
        clashes=clashes,
        choices=deal.choices,
        first_player=deal.first_player,
        waiting=waiting,
        suggested=suggested,
    )


def _cards_left(deal: DealRound, focus: int, in_play: Sequence[Card]) -> list[Card]:
    """The cards no other hand holds, when every other hand holds its 10 and no card twice
    (else none): what this seat must hold if the others tapped theirs right."""
    others = [hand for seat, hand in deal.hands.items() if seat != focus]
    taken = [card for hand in others for card in hand]
    seats = len(in_play) // 10
    if (
        len(others) != seats - 1
        or any(len(h) != 10 for h in others)
        or len(set(taken)) != len(taken)
    ):
        return []
    return sort_cards(c for c in in_play if c not in set(taken))


def _play_entry(state: GameState, player: str, seat: int) -> PlayEntry:
    turn = state.phase is Phase.PLAY and state.expected == player
    legal = set(legal_cards(state)) if turn else set()
    held = coin_limit(state) if turn else state.coins.get(player, 0)
    hand = [HandCard(c, card_label(c), c in legal) for c in sort_cards(state.hands.get(player, ()))]
    played = any(p.player == player for p in state.trick)
    trick = 1 if state.phase is Phase.CHEF_PICK else state.trick_no + (1 if played else 0)
    led = state.led_suit
    if not turn and state.expected == player:  # this player's Chef to pick or take first
        note = ngettext(
            "Your hand (%(count)d card). Your turn: first the Chef above.",
            "Your hand (%(count)d cards). Your turn: first the Chef above.",
            len(hand),
        ) % {"count": len(hand)}
    elif not turn and state.expected is None:
        note = ngettext(
            "Your hand (%(count)d card).", "Your hand (%(count)d cards).", len(hand)
        ) % {"count": len(hand)}
    elif not turn:
        note = ngettext(
            "Your hand (%(count)d card). Waiting for %(player)s.",
            "Your hand (%(count)d cards). Waiting for %(player)s.",
            len(hand),
        ) % {"count": len(hand), "player": state.expected}
    elif led is None:
        note = _("You lead: any card.")
    elif legal != set(state.hands.get(player, ())):
        note = _("%(suit)s was led: follow %(suit)s.") % {"suit": suit_name(led)}
    else:
        note = _("%(suit)s was led: you have none, so any card.") % {"suit": suit_name(led)}
    return PlayEntry(
        player=player,
        seat=seat,
        turn=turn,
        hand=hand,
        coins_held=held,
        coin_options=[(k, _coin_short(k)) for k in range(-held, held + 1)],
        round=state.round_no,
        trick=trick,
        note=note,
    )


def _coin_short(coins: int) -> str:
    return "0" if coins == 0 else f"{'+' if coins > 0 else '−'}{COIN_STEP * abs(coins)}"


def _trick(state: GameState) -> list[TrickPlay]:
    if state.phase not in (Phase.PLAY, Phase.CHEF_TAKE) or not state.trick:
        return []
    winning = trick_winner(state.trick, state.trump)
    lowest = chef_taker(state.trick)
    out = []
    for play in state.trick:
        values = {
            "player": play.player,
            "card": card_label(play.card),
            "coins": coin_words(play.coins),
            "value": play.value,
        }
        if play.coins:
            words = _("%(player)s: %(card)s with %(coins)s, counts %(value)s") % values
        else:
            words = _("%(player)s: %(card)s, counts %(value)s") % values
        out.append(
            TrickPlay(
                play.player,
                play.card,
                play.coins,
                play.value,
                play is winning,
                play is lowest,
                words,
            )
        )
    return out


def _players(state: GameState) -> list[PlayerLine]:
    return [
        PlayerLine(
            seat=i,
            player=p,
            coins=state.coins.get(p, 0),
            chefs=[(s, n) for s, n in state.chefs.get(p, {}).items() if n],
            tricks=state.tricks_won.get(p, 0),
            total=state.totals.get(p, 0),
            turn=p == state.expected,
        )
        for i, p in enumerate(state.players, start=1)
    ]


def _rounds(players: list[str], summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    rounds = summary.get("rounds") or []
    totals = summary.get("totals") or {}
    return (
        [
            {
                "player": p,
                "scores": [r["scores"].get(p, 0) for r in rounds],
                "total": totals.get(p, 0),
            }
            for p in players
        ]
        if rounds
        else []
    )


def _ranking(ranking: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The ranking, each row with ``tied``: its total is shared, so the deal-3 score (R10.2)
    is the figure that placed it (shown with it, as on the scorekeeper's page)."""
    totals = [r.get("total") for r in ranking]
    return [{**r, "tied": totals.count(r.get("total")) > 1} for r in ranking]


def tap_words(event: Mapping[str, Any]) -> str:
    """A seat's tap in words: "Ana's red 9 with +2 coins", "Ana's green Chef pick"."""
    player, kind = event.get("player", ""), event.get("type")
    if kind == "card_played":
        card = card_name(str(event.get("card", "")))
        coins = int(event.get("coins") or 0)
        if coins:
            return _("%(player)s's %(card)s with %(coins)s") % {
                "player": player,
                "card": card,
                "coins": coin_words(coins),
            }
        return _("%(player)s's %(card)s") % {"player": player, "card": card}
    if kind == "chef_chosen":
        return _("%(player)s's %(chef)s pick") % {
            "player": player,
            "chef": chef_name(str(event.get("suit", ""))),
        }
    if kind == "chef_taken":
        return _("%(player)s took the %(chef)s") % {
            "player": player,
            "chef": chef_name(str(event.get("suit", ""))),
        }
    return str(kind)


# ----------------------------------------------------------------------------- the panel


class TrickNChefPanel:
    """Trick-n-Chef's phones: each seat taps its own hand at each deal (``hand/``), who plays
    first (``first/``), and its cards and Chefs (``act/``)."""

    template = "tricknchef/phone.html"
    seat_plays = frozenset({"chef_chosen", "card_played", "chef_taken"})

    def view(self, now: SeatNow) -> Shown:
        view = phone_view(
            state=now.state,
            version=now.version,
            acts_for=[(s.seat, s.player) for s in now.seats],
            focus=now.focus.seat,
            deal=deals.deal_round(now.game),
            summary=now.game.summary or {},
            closed=now.closed,
        )
        return Shown(
            headline=view.headline,
            waiting_for=view.waiting_for,
            panel=view,
            phase=view.phase,
            round=view.round,
        )

    def hand(self, tap: Tap) -> Save | None:
        """A seat's hand as tapped so far (the whole hand, or the hand and one card toggled)."""
        number, seat = tap.int("round"), tap.int("seat")
        if number is None or seat is None:
            return None
        cards = [c for c in tap.text("cards").split(",") if c]
        toggle = tap.text("toggle")
        if toggle:  # a plain form: one card in or out
            cards = [c for c in cards if c != toggle] if toggle in cards else [*cards, toggle]

        def save() -> Any:
            outcome = deals.deal_hand_save(
                game_id=tap.game_id,
                round=number,
                seat=seat,
                cards=cards,
                access=tap.seat_link,
                user=tap.official,
            )
            if outcome.refusal:
                raise services.Refused(outcome.refusal, "deal_refused")
            return outcome

        # A hand still being tapped: the phone paints it itself, so the answer is only the new
        # stamp (no panel to render at every tap); a refusal still answers the panel.
        return Save(save, stamp_only=tap.fetch and len(cards) < CARDS_PER_HAND)

    def first(self, tap: Tap) -> Save | None:
        """Who plays first in the deal being tapped."""
        number, player = tap.int("round"), tap.text("first_player")
        if number is None or not player:
            return None

        def choose() -> Any:
            outcome = deals.deal_first_player(
                game_id=tap.game_id,
                round=number,
                player=player,
                access=tap.seat_link,
                user=tap.official,
            )
            if outcome.refusal:
                raise services.Refused(outcome.refusal, "deal_refused")

        return Save(choose)

    def act(self, tap: Tap) -> Append | None:
        """One tap: a card (with its coins), a Chef pick or a Chef taken; ``queued``: sent late
        from the phone's outbox, for its ``round`` and ``trick``."""
        kind, player = tap.text("type"), tap.text("player")
        event: dict[str, Any] = {"type": kind, "player": player}
        if kind == "card_played":
            coins = tap.int("coins")
            event.update(card=tap.text("card"), coins=coins if coins is not None else 0)
        elif kind in ("chef_chosen", "chef_taken"):
            event["suit"] = tap.text("suit")
        if kind not in ("card_played", "chef_chosen", "chef_taken") or not player:
            return None
        queued = None
        if tap.text("queued") == "1":
            number, trick = tap.int("round"), tap.int("trick")
            if number is None or trick is None:
                return None
            queued = (number, trick)
        return Append([event], queued=queued)

    actions = {"hand": hand, "first": first, "act": act}

    def tap_words(self, event: Mapping[str, Any]) -> str:
        return tap_words(event)

    def texts(self) -> dict[str, str]:
        return {
            "handFull": _("Your hand already has 10 cards: tap one of them to take it back first."),
            "firstPlayer": _("%(player)s plays first"),
            "handNotSent": _("Not sent yet: your hand as tapped (it is kept on this phone)."),
            "withCoins": _("%(card)s with %(coins)s"),
        }


PANEL: Panel = TrickNChefPanel()
