"""What Trick-n-Chef's table page shows: an engine state turned into plain dataclasses for the
templates. It decides nothing: the legal moves come from engine.tricknchef.referee."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.tricknchef.cards import (
    ALL_CARDS,
    CARD_VALUE,
    COIN_STEP,
    DISH,
    TOTAL_COINS,
    Card,
    deck,
    sort_cards,
)
from engine.tricknchef.referee import (
    coin_limit,
    expected_next,
    legal_cards,
    legal_pick_suits,
    legal_take_suits,
)
from engine.tricknchef.rules import Play, chef_taker, most_points, trick_winner
from engine.tricknchef.snapshot import from_snapshot
from engine.tricknchef.state import CompletedTrick, GameState, Phase
from games.models import GameProjection
from games.policy import Seating
from games.tricknchef import refusals as tricknchef_refusals
from games.tricknchef.cardnames import (
    card_label as card_label,
)
from games.tricknchef.cardnames import (
    card_name,
    chef_name,
    suit_name,
)
from games.tricknchef.cardnames import (
    coin_words as coin_words,
)
from games.tricknchef.forms import (
    DEAL_PREFIX,
    score_field,
    total_field,
)


def state_of(game: GameProjection) -> GameState:
    """The game's state from its projection's snapshot (a new game has none yet)."""
    return from_snapshot(game.snapshot) if game.snapshot else GameState()


@dataclass(frozen=True, slots=True)
class SuitCount:
    suit: str
    count: int

    @property
    def dish(self) -> str:
        return DISH[self.suit]


@dataclass(frozen=True, slots=True)
class PlayerRow:
    seat: int
    name: str
    coins: int
    chefs: list[SuitCount]
    tricks: int
    total: int
    cards: int
    turn: bool
    leader: bool


@dataclass(frozen=True, slots=True)
class PlayRow:
    player: str
    card: Card
    coins: int
    value: int
    winning: bool = False
    lowest: bool = False

    @property
    def label(self) -> str:
        """In words: "red 9", "red 9 with 2 coins +2 (+4)"."""
        if not self.coins:
            return card_name(self.card)
        return _("%(card)s with %(coins)s") % {
            "card": card_name(self.card),
            "coins": coin_words(self.coins),
        }


@dataclass(frozen=True, slots=True)
class TrickSlot:
    player: str
    play: PlayRow | None
    """None while the player has not played."""
    next: bool
    """The player to play now."""


@dataclass(frozen=True, slots=True)
class Turn:
    player: str | None
    headline: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class DealSlot:
    card: Card
    seat: int | None
    field: str
    label: str


@dataclass(frozen=True, slots=True)
class DealView:
    round: int
    suits: list[tuple[str, str, list[DealSlot]]]
    """(suit, dish, slots) per suit in play."""
    hands: list[tuple[int, str, int]]
    """(seat, player, cards dealt so far)."""
    first_players: list[str]
    first_player: str


@dataclass(frozen=True, slots=True)
class HandCard:
    card: Card
    legal: bool
    value: int
    """Printed value."""
    counts: int
    """Value in the trick with the coins currently set (R4.4)."""
    label: str
    """The button's accessible name, without the coins (the page's script adds them)."""


@dataclass(frozen=True, slots=True)
class PlayView:
    player: str
    hand: list[HandCard]
    coins_held: int
    coin_options: list[tuple[int, str]]
    coins: int
    led: str | None
    follow_note: str

    @property
    def coins_words(self) -> str:
        return coin_words(self.coins)


@dataclass(frozen=True, slots=True)
class ChefView:
    player: str
    suits: list[SuitCount]


@dataclass(frozen=True, slots=True)
class TrickOutcome:
    number: int
    winner: PlayRow
    lowest: PlayRow
    chef_suit: str | None = None
    paid: tuple[str, ...] = ()


def table_context(
    game: GameProjection,
    *,
    error: str | None = None,
    notice: str | None = None,
    keep: Mapping[str, Any],
    seating: Seating | None = None,
) -> dict[str, Any]:
    """``seating``: where the game is played (games.policy.seating), if an app says so."""
    state = state_of(game)
    players = list(state.players) or list(game.players)
    summary: dict[str, Any] = game.summary or {}
    void = game.status == GameProjection.Status.VOID
    context: dict[str, Any] = {
        "game": game,
        "game_id": game.stream_id,
        "version": game.version,
        "names": ", ".join(players),
        "where": seating.where if seating else "",
        "clock_url": seating.clock if seating else "",
        "void": void,
        "results_only": game.results_only,
        "error": error,
        "notice": notice,
        "action_key": uuid.uuid4(),
        "undo_key": uuid.uuid4(),
        "rounds": _round_rows(players, summary),
        "ranking": summary.get("ranking") or [],
        "undo_label": None if void else _last_entry(state, game.results_only),
        "can_enter_results": not void
        and not game.results_only
        and game.status != GameProjection.Status.FINISHED,
        "turn": _turn(state, game, void),
        "phase": state.phase.value,
        "table_texts": table_texts(),
    }
    if game.results_only or void:
        return context
    context.update(
        round_no=state.round_no,
        trick_no=state.trick_no,
        players=_player_rows(state),
        centre=[SuitCount(s, state.centre.get(s, 0)) for s in state.suits],
        trump=list(state.trump),
        led=state.led_suit,
        trick=_trick_slots(state),
        outcome=_outcome(state),
        last_trick=_last_trick(state),
        reserve=state.reserve if state.round_no else TOTAL_COINS,
    )
    phase = state.phase
    if phase is Phase.ROUND_START:
        context["deal"] = _deal_view(state, keep, seating)
    elif phase is Phase.CHEF_PICK and state.expected is not None:
        suits = [SuitCount(s, 1) for s in legal_pick_suits(state)]
        context["pick"] = ChefView(state.expected, suits)
    elif phase is Phase.PLAY and state.expected is not None:
        context["play"] = _play_view(state, keep)
    elif phase is Phase.CHEF_TAKE and state.expected is not None:
        suits = [SuitCount(s, state.centre[s]) for s in legal_take_suits(state)]
        context["take"] = ChefView(state.expected, suits)
    return context


def play_headline(state: GameState, player: str | None) -> str:
    """Whose card it is, as the table page and the phones both say it."""
    if state.trick:
        return _("%(player)s's turn: play a card") % {"player": player}
    return _("%(player)s's turn: lead trick %(trick)s") % {
        "player": player,
        "trick": state.trick_no,
    }


def _turn(state: GameState, game: GameProjection, void: bool) -> Turn:
    """Whose turn it is and what is expected, in words (from
    engine.tricknchef.referee.expected_next)."""
    if void:
        return Turn(None, _("This game was voided"), _("Nothing more can be recorded."))
    if game.results_only:
        return Turn(None, _("Results entered: the game is over"))
    expected = expected_next(state)
    if expected is None:
        return Turn(None, _("The game is over"), _("Three deals played: see the ranking below."))
    kind, player = expected
    if kind == Phase.ROUND_START.value:
        number = state.round_no + 1
        if state.round_no:
            head = _("Deal %(done)s is over. Deal %(number)s: deal the cards") % {
                "done": state.round_no,
                "number": number,
            }
        else:
            head = _("Deal %(number)s: deal the cards") % {"number": number}
        return Turn(
            None,
            head,
            _("Tap each player's 10 cards, choose who plays first, then confirm the deal."),
        )
    if kind == Phase.CHEF_PICK.value:
        return Turn(
            player,
            _("%(player)s's turn: pick a Chef") % {"player": player},
            _(
                "Deal %(round)s: each player picks one of the set-aside Chefs, "
                "clockwise from %(first)s."
            )
            % {"round": state.round_no, "first": state.first_player},
        )
    if kind == Phase.PLAY.value:
        head = play_headline(state, player)
        if player and state.coins.get(player):
            detail = _("Tap the card played (set its coins first): it is recorded at once.")
        else:
            detail = _("Tap the card played: it is recorded at once.")
        return Turn(player, head, detail)
    if kind == Phase.CHEF_TAKE.value:
        return Turn(
            player,
            _("%(player)s played the lowest card and takes a Chef: tap a colour")
            % {"player": player},
            _("%(winner)s won trick %(trick)s.")
            % {"winner": state.winner, "trick": state.trick_no},
        )
    return Turn(player, f"{kind} by {player}")


def _player_rows(state: GameState) -> list[PlayerRow]:
    expected = state.expected
    return [
        PlayerRow(
            seat=seat,
            name=p,
            coins=state.coins.get(p, 0),
            chefs=[SuitCount(s, n) for s, n in state.chefs.get(p, {}).items() if n],
            tricks=state.tricks_won.get(p, 0),
            total=state.totals.get(p, 0),
            cards=len(state.hands.get(p, ())),
            turn=p == expected,
            leader=p == state.leader and state.phase is Phase.PLAY,
        )
        for seat, p in enumerate(state.players, start=1)
    ]


def _play_row(play: Play, winning: Play | None = None, lowest: Play | None = None) -> PlayRow:
    return PlayRow(play.player, play.card, play.coins, play.value, play is winning, play is lowest)


def _trick_slots(state: GameState) -> list[TrickSlot]:
    """One slot per player in the trick's play order (from its leader): the card played, marking
    the card winning so far (R6) and the lowest so far (R7), or who is still to play. A fixed
    number of slots keeps the controls below in place from one tap to the next."""
    if state.phase not in (Phase.PLAY, Phase.CHEF_TAKE) or state.leader is None:
        return []
    winning = trick_winner(state.trick, state.trump) if state.trick else None
    lowest = chef_taker(state.trick) if state.trick else None
    slots = []
    player = state.leader
    for index in range(len(state.players)):
        if index < len(state.trick):
            play = state.trick[index]
            slots.append(TrickSlot(play.player, _play_row(play, winning, lowest), False))
        else:
            slots.append(TrickSlot(player, None, player == state.expected))
        player = state.next_seat[player]
    return slots


def _outcome(state: GameState) -> TrickOutcome | None:
    """While the Chef is awaited: who won the trick and who takes the Chef."""
    if state.phase is not Phase.CHEF_TAKE:
        return None
    winning = trick_winner(state.trick, state.trump)
    lowest = chef_taker(state.trick)
    return TrickOutcome(state.trick_no, _play_row(winning), _play_row(lowest))


def _last_trick(state: GameState) -> TrickOutcome | None:
    """The round's last completed trick: who won it, who took which Chef, who got a coin."""
    if not state.tricks or state.phase is Phase.CHEF_TAKE:
        return None
    done: CompletedTrick = state.tricks[-1]
    if done.round != state.round_no:
        return None
    winner = next(p for p in done.plays if p.player == done.winner)
    lowest = next(p for p in done.plays if p.player == done.chef_taker)
    return TrickOutcome(
        done.number, _play_row(winner), _play_row(lowest), done.chef_suit, done.paid
    )


def _deal_view(state: GameState, keep: Mapping[str, Any], seating: Seating | None) -> DealView:
    number = state.round_no + 1
    seats: dict[str, int] = {}
    if str(keep.get("deal_round", "")) == str(number):
        posted = keep.get("deal") or {}
        seats = {c: s for c, s in posted.items() if isinstance(s, int)}
    suits = []
    for suit in state.suits:
        slots = [
            DealSlot(card, seats.get(card), DEAL_PREFIX + card, card_label(card))
            for card in deck((suit,))
        ]
        suits.append((suit, DISH[suit], slots))
    counts = {i: 0 for i in range(len(state.players))}
    for seat in seats.values():
        if seat in counts:
            counts[seat] += 1
    hands = [(i, p, counts[i]) for i, p in enumerate(state.players)]
    # Round 1: anyone may start (seat 1 first and preselected), unless the game's seating says
    # who (a tournament table: seat 1; its policy refuses anyone else), so only what will be
    # accepted is offered. Rounds 2 and 3: only the players tied for the most points (R3.1).
    if number > 1:
        choices = list(most_points(state.totals))
    elif seating is not None and seating.first_player in state.players:
        choices = [seating.first_player]
    else:
        choices = list(state.players)
    first = str(keep.get("first_player") or "")
    if first not in choices:
        first = choices[0]
    return DealView(number, suits, hands, choices, first)


def _play_view(state: GameState, keep: Mapping[str, Any]) -> PlayView:
    player = state.expected
    assert player is not None
    held = coin_limit(state)
    try:
        coins = int(keep.get("coins", 0))
    except (TypeError, ValueError):
        coins = 0
    coins = max(-held, min(held, coins))
    legal = set(legal_cards(state))
    led = state.led_suit
    hand = []
    for card in sort_cards(state.hands[player]):
        if card in legal:
            label = _("%(player)s plays %(card)s") % {"player": player, "card": card_label(card)}
        else:
            label = _(
                "%(player)s plays %(card)s (not allowed: %(player)s must follow %(suit)s)"
            ) % {
                "player": player,
                "card": card_label(card),
                "suit": suit_name(str(led)),
            }
        value = CARD_VALUE[card]
        hand.append(HandCard(card, card in legal, value, value + COIN_STEP * coins, label))
    options = [(k, coin_words(k)) for k in range(-held, held + 1)]
    note = _("%(player)s leads: any card.") % {"player": player}
    if led is not None and state.suit_counts[player][led]:
        note = _("%(suit)s was led: %(player)s must follow %(suit)s.") % {
            "suit": suit_name(led),
            "player": player,
        }
    elif led is not None:
        note = _("%(suit)s was led: %(player)s has none, so any card.") % {
            "suit": suit_name(led),
            "player": player,
        }
    return PlayView(player, hand, held, options, coins, led, note)


def table_texts() -> dict[str, Any]:
    """What static/js/table.js writes itself, in the page's language: ``%(name)s`` is filled in
    by the script; the lists hold a count's sentence for each count from 0 to 40 (the plural
    forms of the language, which a script cannot know)."""
    counts = range(0, len(ALL_CARDS) + 1)
    return {
        "takenBack": _("%(card)s taken back from %(player)s's hand."),
        "handFull": _("%(player)s's hand is full (10 cards): choose the hand you are dealing to."),
        "restWent": [
            ngettext(
                "Every other hand is full: the %(count)d card left went to %(player)s. Check, "
                "then confirm the deal.",
                "Every other hand is full: the %(count)d cards left went to %(player)s. Check, "
                "then confirm the deal.",
                n,
            ).replace("%(count)d", str(n))
            for n in counts
        ],
        "notDealt": _("%(card)s: not dealt yet"),
        "inHand": _("%(card)s: in %(player)s's hand"),
        "confirm": _("Confirm the deal"),
        "confirmLeft": [
            ngettext(
                "Confirm the deal (%(count)d card to deal)",
                "Confirm the deal (%(count)d cards to deal)",
                n,
            )
            % {"count": n}
            for n in counts
        ],
        "restored": _("The deal in progress was restored."),
        "counts": _("counts %(value)s"),
        "withCoins": _("%(card)s, with %(coins)s: counts %(value)s"),
    }


def say_cards(message: str) -> str:
    """The card codes in a message named as the language names them (Trick-n-Chef's refusals:
    games.tricknchef.refusals.say_cards)."""
    return tricknchef_refusals.say_cards(message)


def _last_entry(state: GameState, results_only: bool) -> str | None:
    """What "Undo" would take back, in words; None at the start of the game."""
    if results_only:
        return _("the results entered")
    phase = state.phase
    if state.round_no == 0:
        return None
    players = state.players

    def before(player: str) -> str:
        return players[(state.seat[player] - 1) % len(players)]

    def picked_by(player: str) -> str:
        suit = next((s for s, n in state.chefs[player].items() if n), "?")
        return _("%(player)s's %(chef)s pick") % {"player": player, "chef": chef_name(suit)}

    if phase is Phase.CHEF_PICK and state.expected is not None:
        if not state.picked:
            return _("the cards of deal %(round)s") % {"round": state.round_no}
        return picked_by(before(state.expected))
    if phase in (Phase.PLAY, Phase.CHEF_TAKE) and state.trick:
        last = state.trick[-1]
        if last.coins:
            return _("%(player)s's %(card)s with %(coins)s") % {
                "player": last.player,
                "card": card_name(last.card),
                "coins": coin_words(last.coins),
            }
        return _("%(player)s's %(card)s") % {"player": last.player, "card": card_name(last.card)}
    if phase is Phase.PLAY and state.trick_no == 1 and state.first_player is not None:
        return picked_by(before(state.first_player))
    if state.tricks:
        done = state.tricks[-1]
        return _("%(player)s's %(chef)s after trick %(trick)s") % {
            "player": done.chef_taker,
            "chef": chef_name(str(done.chef_suit)),
            "trick": done.number,
        }
    return None


def _round_rows(players: Sequence[str], summary: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each player's score per round played and their total."""
    rounds = summary.get("rounds") or []
    totals = summary.get("totals") or {}
    if not rounds:
        return []
    return [
        {
            "player": p,
            "scores": [r["scores"].get(p, 0) for r in rounds],
            "total": totals.get(p, 0),
        }
        for p in players
    ]


def results_rows(
    players: Sequence[str],
    posted: Mapping[str, Any],
    errors: Mapping[str, Sequence[str]] | None = None,
) -> list[dict[str, Any]]:
    """The results form's rows, one per player: each field with what was typed and its errors
    (``errors`` by field name); the row's errors together, in the order of its fields, to show
    under the row."""
    errors = errors or {}
    rows = []
    for seat, player in enumerate(players):
        fields: list[dict[str, Any]] = [
            {
                "name": score_field(seat, n),
                "label": _("%(player)s, deal %(deal)s") % {"player": player, "deal": n},
            }
            for n in (1, 2, 3)
        ]
        fields.append(
            {"name": total_field(seat), "label": _("%(player)s, total") % {"player": player}}
        )
        for field in fields:
            field["value"] = posted.get(field["name"], "")
            field["errors"] = list(errors.get(field["name"], ()))
            field["error_id"] = f"error-{field['name']}"
        rows.append(
            {
                "player": player,
                "rounds": fields[:-1],
                "total": fields[-1],
                "errors": [f for f in fields if f["errors"]],
            }
        )
    return rows


def results_values(players: Sequence[str], entry: Mapping[str, Any]) -> dict[str, str]:
    """The results form's boxes filled in with a results entry (the one a correction took
    back): each player's three deal scores and, if the sheet gave them, the totals."""
    scores = entry.get("scores") or {}
    totals = entry.get("totals") or {}
    values: dict[str, str] = {}
    for seat, player in enumerate(players):
        for number, points in enumerate(scores.get(player) or (), start=1):
            values[score_field(seat, number)] = str(points)
        if totals.get(player) is not None:
            values[total_field(seat)] = str(totals[player])
    return values
