"""Chefs' seat-phone panel (games.phone.panel.Panel; docs/scorekeeping.md, "Chefs on the phones").

Each chef puts down their three markers in turn on their own phone, then acts when their marker's
circle comes: the counter's ingredients, a meal cooked (from the meal cards lying at that cooker,
with the ingredients it needs given up), a door chest, a meal served; or passes. The meal cards put
out at the cookers (record v2) are tapped by the chef who starts the coming round (seat 1 at the
set-up), one button per card the phones offer; once the set-up's last card is tapped round 1
starts by itself with seat 1, and each later round by itself once its cards are laid
(games.chefs.gametype's ``forced``). Nothing is secret in Chefs (every card laid is face up, hands
are counted, not named): every phone shows the board and every chef's field. Every button is one
of engine.chefs.referee.legal_moves for the seat the phone enters for.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.chefs.events import LOCATIONS
from engine.chefs.referee import laying_cooker, legal_moves, who_lays
from engine.chefs.rules import MARKERS_PER_CHEF
from engine.chefs.rules import field as board_field
from engine.chefs.state import ChefsState, Phase
from games.chefs.pages import card_words, cards_at, ingredients_words, place, steps_words
from games.phone.panel import Append, Panel, SeatNow, Shown, Tap

SEAT_PLAYS = frozenset(
    {
        "marker_placed",
        "ingredients_taken",
        "meal_cooked",
        "cards_exchanged",
        "meal_served",
        "action_passed",
        "meal_laid",
    }
)
"""What the phones record: a chef's markers and actions, and the meal cards laid (no player)."""


@dataclass(frozen=True, slots=True)
class Move:
    """One button: a record event (its JSON, the button's value) and its words."""

    value: str
    label: str
    short: str = ""
    """The button's text where it is shorter than its label (the label is then its name)."""


@dataclass(frozen=True, slots=True)
class MoveGroup:
    title: str
    moves: list[Move]
    grid: bool = False
    """Laid meal cards: small buttons in a grid (one row per number of steps)."""


@dataclass(frozen=True, slots=True)
class Spot:
    """A location of the board: its markers circle by circle and what lies there."""

    name: str
    words: str
    markers: list[tuple[int, str, bool]]
    """(circle, chef, acting now)."""
    cards: str


@dataclass(frozen=True, slots=True)
class ChefLine:
    seat: int
    player: str
    position: int
    field: int
    hand: int
    meals: list[int]
    markers_left: int
    turn: bool
    starts: bool


@dataclass(frozen=True, slots=True)
class ChefsPhone:
    """What the template shows (``panel``)."""

    groups: list[MoveGroup] = field(default_factory=list)
    board: list[Spot] = field(default_factory=list)
    chefs: list[ChefLine] = field(default_factory=list)
    ranking: list[Mapping[str, Any]] = field(default_factory=list)
    called: bool = False
    round: int = 0


def _value(move: Mapping[str, Any]) -> str:
    return json.dumps(move, separators=(",", ":"), sort_keys=True)


def move_label(move: Mapping[str, Any]) -> str:
    """A button's words: what the chef does with this tap."""
    kind = move["type"]
    if kind == "marker_placed":
        return _("%(place)s (circle %(circle)s)") % {
            "place": place(move["location"]).capitalize(),
            "circle": move["circle"],
        }
    if kind == "ingredients_taken":
        return ngettext(
            "Take %(count)s ingredient card", "Take %(count)s ingredient cards", move["count"]
        ) % {"count": move["count"]}
    if kind == "meal_cooked":
        values = {"steps": steps_words(move["steps"]), "cards": move["ingredients"]}
        if move["chef_card"]:
            return (
                ngettext(
                    "Meal of %(steps)s: give %(cards)s ingredient card and the chef card",
                    "Meal of %(steps)s: give %(cards)s ingredient cards and the chef card",
                    move["ingredients"],
                )
                % values
            )
        return (
            ngettext(
                "Meal of %(steps)s: give %(cards)s ingredient card",
                "Meal of %(steps)s: give %(cards)s ingredient cards",
                move["ingredients"],
            )
            % values
        )
    if kind == "cards_exchanged":
        give, draw = move["chest"].split(":")
        return _("Chest %(chest)s: give %(give)s, draw %(draw)s") % {
            "chest": move["chest"],
            "give": give,
            "draw": draw,
        }
    if kind == "meal_served":
        return _("Serve the meal of %(steps)s (to %(position)s)") % {
            "steps": steps_words(move["steps"]),
            "position": move["position"],
        }
    return _("Pass")


def _groups(state: ChefsState, moves: Sequence[Mapping[str, Any]]) -> list[MoveGroup]:
    if not moves:
        return []
    if moves[0]["type"] == "meal_laid":
        by_steps: dict[int, list[Move]] = {}
        for m in moves:
            label = _("%(steps)s, %(ingredients)s") % {
                "steps": steps_words(m["steps"]),
                "ingredients": ingredients_words(m["ingredients"]),
            }
            by_steps.setdefault(m["steps"], []).append(
                Move(_value(m), label, str(m["ingredients"]))
            )
        return [
            MoveGroup(
                _("%(steps)s: how many ingredients?") % {"steps": steps_words(steps)},
                row,
                grid=True,
            )
            for steps, row in by_steps.items()
        ]
    if state.phase is Phase.PLACING:
        title = _("Where does your marker go?")
    else:
        title = _("Your action at %(place)s") % {"place": place(LOCATIONS[state.location])}
    return [MoveGroup(title, [Move(_value(m), move_label(m)) for m in moves])]


def _board(state: ChefsState) -> list[Spot]:
    acting = state.phase is Phase.ACTING
    return [
        Spot(
            name,
            place(name).capitalize(),
            [
                (circle, chef, acting and index == state.location and circle == state.circle + 1)
                for circle, chef in enumerate(state.markers[index], start=1)
            ],
            cards_at(state, LOCATIONS[index], no_meal=_("no meal card"), elsewhere=""),
        )
        for index, name in enumerate(LOCATIONS)
    ]


def _chefs(state: ChefsState) -> list[ChefLine]:
    placed = {p: sum(m.count(p) for m in state.markers) for p in state.players}
    placing = state.phase is Phase.PLACING
    return [
        ChefLine(
            seat=seat,
            player=p,
            position=state.positions.get(p, 0),
            field=board_field(state.positions.get(p, 0)),
            hand=state.hands.get(p, 0),
            meals=list(state.meals.get(p, [])),
            markers_left=MARKERS_PER_CHEF - placed[p] if placing else 0,
            turn=p == state.expected,
            starts=p == state.starting,
        )
        for seat, p in enumerate(state.players, start=1)
    ]


def _headline(state: ChefsState, me: str) -> tuple[str, str | None]:
    """The headline and who the table waits for (None: this phone, or nobody)."""
    phase = state.phase
    if phase is Phase.LAYING:
        layer = who_lays(state)
        where = {"place": place(laying_cooker(state) or "")}
        if layer == me:
            return _("Tap each meal card put out at %(place)s") % where, None
        return _("%(player)s enters the meal cards put out at %(place)s") % {
            **where,
            "player": layer,
        }, layer
    if phase is Phase.ROUND_START:
        return _("Round %(round)s: the scorekeeper starts it") % {"round": state.round_no + 1}, None
    player = state.expected
    if phase is Phase.PLACING:
        if player == me:
            return _("Your turn: put down an action marker"), None
        return _("%(player)s puts down an action marker") % {"player": player}, player
    values = {"place": place(LOCATIONS[state.location]), "circle": state.circle + 1}
    if player == me:
        return _("Your marker on %(place)s acts (circle %(circle)s)") % values, None
    return _("%(player)s's marker on %(place)s acts (circle %(circle)s)") % {
        **values,
        "player": player,
    }, player


class ChefsPanel:
    """Chefs' phones: one action, ``act/``, whose button carries the whole move (a record
    event from the referee's legal moves, as JSON)."""

    template = "chefs/phone.html"
    seat_plays = SEAT_PLAYS

    def view(self, now: SeatNow) -> Shown:
        state: ChefsState = now.state.state
        summary = now.game.summary or {}
        base: dict[str, Any] = {
            "board": _board(state),
            "chefs": _chefs(state),
            "round": state.round_no,
            "called": state.called,
        }
        phase = state.phase.value
        if now.closed:
            return Shown(headline=now.closed, panel=ChefsPhone(**base), phase=phase)
        if state.phase is Phase.OVER:
            headline = _("The game was called for time") if state.called else _("The game is over")
            ranking = list(summary.get("ranking") or [])
            return Shown(
                headline=headline,
                panel=ChefsPhone(ranking=ranking, **base),
                phase=phase,
                round=state.round_no,
            )
        me = now.focus.player
        headline, waiting = _headline(state, me)
        entering = {s.player for s in now.seats}
        if waiting in entering:  # a seat shared with this phone: it switches to it
            waiting = None
        moves = legal_moves(state, me)
        return Shown(
            headline=headline,
            waiting_for=waiting,
            panel=ChefsPhone(groups=_groups(state, moves), **base),
            phase=phase,
            round=state.round_no,
        )

    def act(self, tap: Tap) -> Append | None:
        """The move the button carried: one record event of the phones' kinds."""
        try:
            move = json.loads(tap.text("move"))
        except ValueError:
            return None
        if not isinstance(move, dict) or move.get("type") not in SEAT_PLAYS:
            return None
        return Append([move])

    actions = {"act": act}

    def tap_words(self, event: Mapping[str, Any]) -> str:
        kind = event.get("type")
        player = event.get("player", "")
        if kind == "meal_laid":
            return _("the meal card of %(card)s at %(place)s") % {
                "card": card_words(int(event.get("steps", 0)), int(event.get("ingredients", 0))),
                "place": place(str(event.get("cooker", ""))),
            }
        if kind == "marker_placed":
            return _("%(player)s's marker on %(place)s") % {
                "player": player,
                "place": place(str(event.get("location", ""))),
            }
        if kind in ("ingredients_taken", "meal_cooked", "cards_exchanged", "meal_served"):
            return _("%(player)s: %(move)s") % {"player": player, "move": move_label(event)}
        if kind == "action_passed":
            return _("%(player)s's pass") % {"player": player}
        return str(kind)

    def texts(self) -> dict[str, str]:
        return {}


PANEL: Panel = ChefsPanel()
