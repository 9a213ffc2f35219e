"""Food Truck's seat-phone panel (games.phone.panel.Panel; docs/scorekeeping.md, "Food Truck on
the phones"): whose turn it is; on the phone of the player to act, their moves as the referee
gives them (engine.foodtruck.referee): the dish they turn over from the top of their programmed
pile (one button per dish that may be on top: the pile's order is never entered, the player taps
what they turn over), their Company card at any moment of their turn (before or after the reveal,
and when refused), the market card when they are eliminated; on every phone the served dishes
(stacks), the market, the first-player marker and the victory points.

Pure presentation: it decides nothing, and a phone shows only its own seat's moves and pile (the
others see a pile's size only). The round's start (the market laid out, the Company cards turned
over) is the scorekeeper's to enter, on the table page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from engine.foodtruck.events import CompanyPlayed, to_json
from engine.foodtruck.referee import (
    legal_company_plays,
    legal_market,
    legal_reveals,
    turn_player,
)
from engine.foodtruck.state import GameState, Phase
from games.foodtruck.pages import (
    FoodTruckPresenter,
    dish,
    effect,
    in_play,
    round_status,
    served_words,
)
from games.phone.panel import Append, Panel, SeatNow, Shown, Tap

_PRESENTER = FoodTruckPresenter()
SEAT_PLAYS = frozenset({"dish_revealed", "company_played", "market_taken"})
"""The events a Food Truck phone records (``round_started`` is the scorekeeper's)."""
COMPANY_FIELDS = ("target", "dish", "market", "chosen_by")
"""The fields of a Company play besides its player and effect, as its form sends them."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One button: its value and its words."""

    value: str
    label: str


@dataclass(frozen=True, slots=True)
class CompanyChoice:
    """One Company play, as one form: its fields (hidden) and its words (the button)."""

    effect: str
    fields: list[tuple[str, str]]
    label: str


@dataclass(frozen=True, slots=True)
class Moves:
    """What the focus seat may enter now (empty lists: nothing of that kind)."""

    player: str
    round: int
    turn: int
    """The slot of these taps (round, turn), for a tap the phone's outbox sends late."""
    reveals: list[Choice] = field(default_factory=list)
    market: list[Choice] = field(default_factory=list)
    company: list[CompanyChoice] = field(default_factory=list)
    pile: str = ""
    """The focus seat's own pile, unordered, in words (shown to that seat only)."""


@dataclass(frozen=True, slots=True)
class PlayerLine:
    player: str
    points: int
    marker: bool
    turn: bool
    served: str
    pile: int | None
    """Cards in the pile during a service (None between rounds)."""
    status: str
    company: str
    """The Company card turned over this round and not played yet, in words ("" if none)."""


@dataclass(frozen=True, slots=True)
class FoodTruckView:
    round: int
    phase: str
    players: list[PlayerLine]
    market: str
    moves: Moves | None = None
    final: list[Mapping[str, Any]] = field(default_factory=list)
    note: str = ""


def _players(game: GameState, acting: str | None) -> list[PlayerLine]:
    playing = in_play(game)
    lines = []
    for player in game.players:
        seat = game.seats[player]
        status = round_status(game, player) if playing else ""
        lines.append(
            PlayerLine(
                player=player,
                points=game.points.get(player, 0),
                marker=player == game.marker,
                turn=player == acting,
                served=", ".join(served_words(seat.served)) or "–",
                pile=seat.pile_size() if playing else None,
                status=status,
                company=effect(seat.company) if seat.company else "",
            )
        )
    return lines


def company_words(play: CompanyPlayed) -> str:
    """A Company play in the words of its button (the table page's words for it)."""
    return _PRESENTER.describe(to_json(play))


def _moves(game: GameState, player: str) -> Moves | None:
    reveals = legal_reveals(game) if turn_player(game) == player else []
    market = legal_market(game) if turn_player(game) == player else []
    plays = legal_company_plays(game, player)
    if not (reveals or market or plays):
        return None
    seat = game.seats[player]
    pile = list(seat.hidden.elements()) + seat.tail
    company = []
    for play in plays:
        obj = to_json(play)
        fields = [(k, str(obj[k])) for k in COMPANY_FIELDS if k in obj]
        company.append(CompanyChoice(play.effect, fields, company_words(play)))
    return Moves(
        player=player,
        round=game.round_no,
        turn=game.turn_of(player),
        reveals=[Choice(d, dish(d)) for d in reveals],
        market=[Choice(d, dish(d)) for d in market],
        company=company,
        pile=", ".join(dish(d) for d in sorted(pile)),
    )


def _headline(game: GameState, me: str, acting: str | None) -> str:
    phase = game.phase
    if phase is Phase.ROUND_START:
        return _(
            "Round %(round)s: the scorekeeper enters the market and the Company cards turned over"
        ) % {"round": game.round_no + 1}
    if phase is Phase.NOT_STARTED:
        return _("The game has not started")
    if phase is Phase.MARKET_PICK:
        if acting == me:
            return _("Your dish was refused: take a card from the market")
        return _("%(player)s is eliminated: they take a market card") % {"player": acting}
    if acting == me:
        if legal_market(game):
            return _("Your pile is empty: you are eliminated, take a card from the market")
        return _("Your turn: turn over the dish on top of your pile")
    return _("%(player)s's turn") % {"player": acting}


def phone_view(game: GameState, me: str, summary: Mapping[str, Any]) -> FoodTruckView:
    acting = turn_player(game)
    base: dict[str, Any] = {
        "round": game.round_no,
        "phase": game.phase.value,
        "players": _players(game, acting),
        "market": ", ".join(dish(d) for d in sorted(game.market)) or "–",
    }
    if game.phase is Phase.OVER:
        return FoodTruckView(final=list(summary.get("ranking") or []), **base)
    moves = _moves(game, me) if in_play(game) else None
    note = ""
    if moves is not None and moves.company and acting != me:
        note = _(
            "Your turn is over once %(player)s acts: your Company card may still be played."
        ) % {"player": acting}
    return FoodTruckView(moves=moves, note=note, **base)


def tap_words(event: Mapping[str, Any]) -> str:
    """One of a phone's taps in words, for undo: "Ana turns over pizza"."""
    kind = event.get("type")
    player = str(event.get("player", ""))
    if kind == "dish_revealed":
        return _("%(player)s's %(dish)s turned over") % {
            "player": player,
            "dish": dish(str(event.get("dish", ""))),
        }
    if kind == "market_taken":
        return _("%(player)s's %(dish)s from the market") % {
            "player": player,
            "dish": dish(str(event.get("dish", ""))),
        }
    if kind == "company_played":
        return _("%(player)s's %(effect)s card") % {
            "player": player,
            "effect": effect(str(event.get("effect", ""))),
        }
    return str(kind)


class FoodTruckPanel:
    """Food Truck's phones: each seat taps its own dish, Company card and market card
    (``act/``)."""

    template = "foodtruck/phone.html"
    seat_plays = SEAT_PLAYS

    def view(self, now: SeatNow) -> Shown:
        game: GameState = now.state.state  # the engine's, in the game type's EngineState
        me = now.focus.player
        view = phone_view(game, me, now.game.summary or {})
        if now.closed:
            return Shown(headline=now.closed, panel=view, phase=view.phase, round=view.round)
        if game.phase is Phase.OVER:
            winner = game.rounds[-1].winner if game.rounds else ""
            return Shown(
                headline=_("The game is over: %(player)s wins") % {"player": winner},
                panel=view,
                phase=view.phase,
                round=view.round,
            )
        acting = turn_player(game)
        entering = {s.player for s in now.seats}
        return Shown(
            headline=_headline(game, me, acting),
            waiting_for=acting if acting is not None and acting not in entering else None,
            panel=view,
            phase=view.phase,
            round=view.round,
        )

    def act(self, tap: Tap) -> Append | None:
        """One tap of the seat's player: a dish turned over, a market card, a Company card."""
        kind = tap.text("type")
        event: dict[str, Any] = {"type": kind, "player": tap.player}
        if kind in ("dish_revealed", "market_taken"):
            if not tap.text("dish"):
                return None
            event["dish"] = tap.text("dish")
        elif kind == "company_played":
            if not tap.text("effect"):
                return None
            event["effect"] = tap.text("effect")
            event.update({k: tap.text(k) for k in COMPANY_FIELDS if tap.text(k)})
        else:
            return None
        queued = None
        if tap.text("queued") == "1":
            number, turn = tap.int("round"), tap.int("turn")
            if number is None or turn is None:
                return None
            queued = (number, turn)
        return Append([event], queued=queued)

    actions = {"act": act}

    def tap_words(self, event: Mapping[str, Any]) -> str:
        return tap_words(event)

    def texts(self) -> dict[str, str]:
        return {}


PANEL: Panel = FoodTruckPanel()
