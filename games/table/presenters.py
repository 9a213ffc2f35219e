"""What the scorekeeper's table page shows: an engine state turned into plain dataclasses for the
templates. It decides nothing: the legal moves come from engine.referee."""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import (
    CARD_SUIT,
    CARD_VALUE,
    COIN_STEP,
    DISH,
    TOTAL_COINS,
    Card,
    deck,
    describe,
    sort_cards,
)
from engine.referee import (
    coin_limit,
    expected_next,
    legal_cards,
    legal_pick_suits,
    legal_take_suits,
)
from engine.rules import Play, chef_taker, most_points, trick_winner
from engine.snapshot import from_snapshot
from engine.state import CompletedTrick, GameState, Phase
from games.forms_table import (
    DEAL_PREFIX,
    score_field,
    total_field,
)
from games.models import GameProjection
from games.policy import Seating
from games.templatetags.cards import card_info


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
        coins = f" with {coin_words(self.coins)}" if self.coins else ""
        return f"{describe(self.card)}{coins}"


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


def _turn(state: GameState, game: GameProjection, void: bool) -> Turn:
    """Whose turn it is and what is expected, in words (from engine.referee.expected_next)."""
    if void:
        return Turn(None, "This game was voided", "Nothing more can be recorded.")
    if game.results_only:
        return Turn(None, "Results entered: the game is over")
    expected = expected_next(state)
    if expected is None:
        return Turn(None, "The game is over", "Three deals played: see the ranking below.")
    kind, player = expected
    if kind == Phase.ROUND_START.value:
        number = state.round_no + 1
        done = f"Deal {state.round_no} is over. " if state.round_no else ""
        return Turn(
            None,
            f"{done}Deal {number}: deal the cards",
            "Tap each player's 10 cards, choose who plays first, then confirm the deal.",
        )
    if kind == Phase.CHEF_PICK.value:
        return Turn(
            player,
            f"{player}'s turn: pick a Chef",
            f"Deal {state.round_no}: each player picks one of the set-aside Chefs, "
            f"clockwise from {state.first_player}.",
        )
    if kind == Phase.PLAY.value:
        what = "play a card" if state.trick else f"lead trick {state.trick_no}"
        return Turn(
            player,
            f"{player}'s turn: {what}",
            "Tap the card played"
            + (" (set its coins first)" if player and state.coins.get(player) else "")
            + ": it is recorded at once.",
        )
    if kind == Phase.CHEF_TAKE.value:
        return Turn(
            player,
            f"{player} played the lowest card and takes a Chef: tap a colour",
            f"{state.winner} won trick {state.trick_no}.",
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
        label = f"{player} plays {card_label(card)}"
        if card not in legal:
            label += f" (not allowed: {player} must follow {led})"
        value = CARD_VALUE[card]
        hand.append(HandCard(card, card in legal, value, value + COIN_STEP * coins, label))
    options = [(k, coin_words(k)) for k in range(-held, held + 1)]
    note = f"{player} leads: any card."
    if led is not None and state.suit_counts[player][led]:
        note = f"{led} was led: {player} must follow {led}."
    elif led is not None:
        note = f"{led} was led: {player} has none, so any card."
    return PlayView(player, hand, held, options, coins, led, note)


def card_label(card: Card) -> str:
    """As the shared card drawing names it: "red burger 9, 3 stars"."""
    info = card_info(card)
    return str(info["label"])


_CARD_CODE = re.compile(r"(?<![\w.])([A-Z]\d{1,2})(?!\w|\.\d)")
"""A card's code as the engine writes it ("Y8"), not a rule number ("R4.3") nor part of a word."""


def say_cards(message: str) -> str:
    """A refusal in a scorekeeper's words: the card codes in the engine's message ("holds Y8, Y9")
    become what the card is called ("holds yellow 8, yellow 9"). The engine's messages stay as
    they are (the API and other clients read them); the page translates."""

    def word(match: re.Match[str]) -> str:
        code = match.group(1)
        return describe(code) if code in CARD_SUIT else code

    return _CARD_CODE.sub(word, message)


def coin_words(coins: int) -> str:
    """0 -> "no coins"; 2 -> "2 coins +2 (+4)"; -1 -> "1 coin −2 (−2)"."""
    if coins == 0:
        return "no coins"
    count = abs(coins)
    side = "+2" if coins > 0 else "−2"
    shift = f"+{COIN_STEP * count}" if coins > 0 else f"−{COIN_STEP * count}"
    return f"{count} coin{'s' if count > 1 else ''} {side} ({shift})"


def _last_entry(state: GameState, results_only: bool) -> str | None:
    """What "Undo" would take back, in words; None at the start of the game."""
    if results_only:
        return "the results entered"
    phase = state.phase
    if state.round_no == 0:
        return None
    players = state.players

    def before(player: str) -> str:
        return players[(state.seat[player] - 1) % len(players)]

    def picked_by(player: str) -> str:
        suit = next((s for s, n in state.chefs[player].items() if n), "?")
        return f"{player}'s {suit} Chef pick"

    if phase is Phase.CHEF_PICK and state.expected is not None:
        if not state.picked:
            return f"the cards of deal {state.round_no}"
        return picked_by(before(state.expected))
    if phase in (Phase.PLAY, Phase.CHEF_TAKE) and state.trick:
        last = state.trick[-1]
        coins = f" with {coin_words(last.coins)}" if last.coins else ""
        return f"{last.player}'s {describe(last.card)}{coins}"
    if phase is Phase.PLAY and state.trick_no == 1 and state.first_player is not None:
        return picked_by(before(state.first_player))
    if state.tricks:
        done = state.tricks[-1]
        return f"{done.chef_taker}'s {done.chef_suit} Chef after trick {done.number}"
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
            {"name": score_field(seat, n), "label": f"{player}, round {n}"} for n in (1, 2, 3)
        ]
        fields.append({"name": total_field(seat), "label": f"{player}, total"})
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


def results_closed(game: GameProjection) -> str | None:
    """Why results cannot be entered for this game now (None if they can)."""
    if game.status == GameProjection.Status.VOID:
        return "This game was voided: nothing more can be recorded."
    if game.results_only:
        return "Results were already entered for this game (undo them on the table page first)."
    if game.status == GameProjection.Status.FINISHED:
        return "This game was recorded play by play to the end: its scores come from the plays."
    return None
