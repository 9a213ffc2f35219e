"""What a game gives the seat-phone frame (games/phone/): its panel, the :class:`Panel` protocol,
and the records the frame and a panel pass each other.

A game type names its phone module (``GameType.phone``, e.g. ``"games.tricknchef.phone"``; None:
the game has no phones yet, and its seat links open a page that says so). The module holds
``PANEL``, a :class:`Panel`. The frame does everything else, the same for every game: the seat
link and the officials' door, privacy, the poll and its ETags, the write envelope (the version
the phone saw, the idempotency key, the answers 409, 422 and 403), undo, the outbox script, the
language chooser and the closed page.

A toy game (two players, each plays one card 1-10, the higher wins) gives its panel in a few
lines::

    class ToyPanel:
        template = "toy/phone.html"   # {% extends "phone/live.html" %}, a {% block panel %}
        seat_plays = frozenset({"card_played"})

        def view(self, now: SeatNow) -> Shown:
            played = now.state.cards               # the engine's state: {player: card}
            me = now.focus.player
            if now.closed:
                return Shown(headline=now.closed)
            if now.finished:
                return Shown(headline=_("The game is over"), panel={"played": played})
            mine = me not in played
            return Shown(
                headline=_("Your turn: play a card") if mine else _("Waiting"),
                waiting_for=None if mine else next(p for p in now.players if p not in played),
                panel={"cards": range(1, 11) if mine else [], "played": played},
            )

        def play(self, tap: Tap) -> Append | None:
            card = tap.int("card")
            if card is None:
                return None                          # 422, "the tap arrived incomplete"
            return Append([{"type": "card_played", "player": tap.player, "card": card}])

        actions = {"play": play}                      # POST /seat/<token>/play/

        def tap_words(self, event: Mapping[str, Any]) -> str:
            return _("%(player)s's %(card)s") % event

        def texts(self) -> dict[str, str]:
            return {}

    PANEL = ToyPanel()

and its template posts ``<form method="post" action="{{ phone.base }}play/" data-act
data-path="play/">`` with ``{% include "phone/_fields.html" %}``, the hidden ``key`` and
``version`` (``{{ key }}``, ``{{ view.version }}``) and a ``<button type="submit" name="card"
value="7">`` per card: the frame's script sends it through its outbox, the frame checks the
envelope, appends the events through games.services.game_append and answers the new panel.
A working one, with its template: tests/web/test_phone_frame.py (a reveal panel for Food Truck).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from django.http import QueryDict

from games.gametypes import GAME_TYPES, game_module
from games.models import GameProjection
from games.seats import SeatAccess


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat the phone enters for: its own, or one the organizer shared with it."""

    seat: int
    player: str
    mine: bool
    """The phone's own seat (else one the organizer shared with it)."""
    focus: bool
    """The seat the phone enters for now."""


def seats_of(acts_for: Sequence[tuple[int, str]], focus: int) -> list[Seat]:
    """The seats a phone enters for (``acts_for``: its own (seat, player) first, then the ones
    shared with it), ``focus`` the one it enters for now (its own if it may not)."""
    if focus not in {s for s, _ in acts_for}:
        focus = acts_for[0][0]
    return [Seat(s, p, i == 0, s == focus) for i, (s, p) in enumerate(acts_for)]


@dataclass(frozen=True, slots=True)
class SeatNow:
    """What the frame read for one panel, all of one moment (the panel's ETag is of it)."""

    game: GameProjection
    """The table's projection: ``players``, ``version``, ``summary``, ``status``..."""
    state: Any
    """The game's state (its engine's, restored by the game type from the snapshot)."""
    seats: list[Seat]
    """The seats this phone enters for, its own first (:func:`seats_of`)."""
    closed: str = ""
    """Why nothing can be entered any more (voided, results entered), in words; else ""."""
    official: bool = False
    """An official stands in for the seat (``/table/<game>/seat/<n>/``), not its own phone."""

    @property
    def me(self) -> Seat:
        """The phone's own seat."""
        return self.seats[0]

    @property
    def focus(self) -> Seat:
        """The seat the phone enters for now."""
        return next(s for s in self.seats if s.focus)

    @property
    def players(self) -> list[str]:
        """The entrants' names in seat order."""
        return list(self.game.players)

    @property
    def version(self) -> int:
        """The record's version the phone sees (its taps are appended at it)."""
        return int(self.game.version)

    @property
    def finished(self) -> bool:
        return self.game.status == GameProjection.Status.FINISHED


@dataclass(frozen=True, slots=True)
class Shown:
    """What a seat's phone shows now: the frame's lines (the headline, who the table waits
    for) and the panel's own part."""

    headline: str
    """The panel's first line, in the reader's language: what the table waits for."""
    waiting_for: str | None = None
    """The player the table waits for, when the phone does not enter for them (the frame says
    "Waiting for Ana")."""
    panel: Any = None
    """What the panel's template shows, given to it as ``panel`` (a record or a dict)."""
    phase: str = ""
    """The game's phase, as the page marks it (``data-phase``), for the panel's script."""
    round: int = 0
    """The round being played (0: none), as the page marks it (``data-round``)."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """The frame's part of what a phone shows (``view`` in the templates): who it is, the
    headline, undo; the panel's own part is ``panel``."""

    me: Seat
    seats: list[Seat]
    version: int
    headline: str
    waiting_for: str | None
    phase: str
    round: int
    closed: str
    undo: Any = None
    """games.phone.undo.UndoOffer: what the phone may undo (None: an official's view)."""


@dataclass(frozen=True, slots=True)
class Tap:
    """One POST to one of a panel's actions, as its handler reads it."""

    post: QueryDict
    access: SeatAccess
    """The seat link (an official's: the seat they stand in for)."""
    focus: Seat
    """The seat the phone enters for (the one it tapped for)."""
    official: Any = None
    """The official user (None: the seat link is the credential)."""
    fetch: bool = False
    """Sent by the page's script, which paints the tap itself (it may take an answer with no
    panel: :attr:`Save.stamp_only`); else a plain form, answered with the page again."""

    @property
    def player(self) -> str:
        """The player of the seat the phone enters for."""
        return self.focus.player

    @property
    def game_id(self) -> uuid.UUID:
        return self.access.game_id

    @property
    def seat_link(self) -> SeatAccess | None:
        """The seat link to write with (games.services' ``access``/``seat``); None for an
        official, who writes as ``user=tap.official``."""
        return None if self.official is not None else self.access

    def text(self, name: str) -> str:
        return str(self.post.get(name, ""))

    def int(self, name: str) -> int | None:
        """A whole number of the form (None: missing or not a number)."""
        try:
            return int(self.post.get(name, ""))
        except ValueError:
            return None


@dataclass(frozen=True, slots=True)
class Append:
    """An action's answer: events for the frame to append (games.services.game_append) with
    the tap's envelope, the form's ``version`` (the one the phone saw) and ``key`` (its
    idempotency key): a conflict answers 409 and the table as it stands, a rule's refusal 422
    in the rule's words, a seat the phone may not enter for 403."""

    events: Sequence[Mapping[str, Any]]
    """Record-format objects, each with its ``type``, for the seat's own player."""
    queued: tuple[int, int] | None = None
    """The tap's ``(round, trick)`` slot when the phone's outbox sent it late (its form's
    ``queued=1``): recorded only there (games.services.game_append)."""
    forced: bool = True
    """Then record what the rules leave no choice about (GameType.forced)."""


@dataclass(frozen=True, slots=True)
class Save:
    """An action's answer: a write of the panel's own, not an append (Trick-n-Chef's hand as
    tapped so far): the frame calls ``call`` and answers its refusals as an append's
    (games.services errors)."""

    call: Callable[[], object]
    stamp_only: bool = False
    """On success answer 204 with the new ETag and no panel (the phone painted the tap)."""


Action = Callable[[Any, Tap], Append | Save | None]
"""A panel's handler of one action (a method: ``(self, tap)``): what the POST asks, or None
when the form is incomplete (the frame answers 422, "the tap arrived incomplete")."""


class Panel(Protocol):
    """A game's seat-phone panel (``PANEL`` in the game's phone module). Pure presentation and
    form reading: it decides nothing the referee decides (the legal moves come from the game's
    engine), and it shows a seat only what that seat may see (never another seat's hand)."""

    template: str
    """The live panel's template: ``{% extends "phone/live.html" %}`` with a ``{% block panel
    %}`` (and optionally ``status``, after the headline, and ``table``, the players' lines at
    the bottom). Its context: ``view`` (the frame's: ``view.me``, ``view.version``...),
    ``panel`` (:attr:`Shown.panel`), ``phone`` (``phone.base``: the page's address, where the
    actions are), ``key`` (a fresh idempotency key for a form) and ``focus`` (the seat)."""

    @property
    def actions(self) -> Mapping[str, Action]:
        """The actions this game's phones post, by name (a class attribute: a dict of the
        class's handler functions): ``POST <page>/<name>/`` calls ``actions[name](PANEL,
        tap)``. The names ``state`` and ``undo`` are the frame's."""
        ...

    @property
    def seat_plays(self) -> frozenset[str]:
        """The event types this game's phones record themselves (an :class:`Append` of any
        other is refused: games.services.game_append's ``seat_plays``)."""
        ...

    def view(self, now: SeatNow) -> Shown:
        """What the seat sees now (``now.focus``: the seat it enters for)."""
        ...

    def tap_words(self, event: Mapping[str, Any]) -> str:
        """One of its taps (a record event) in words, for undo: "Ana's red 9"."""
        ...

    def texts(self) -> Mapping[str, str]:
        """What the page's script writes itself for this game's forms (static/js/seat.js), in
        the page's language (empty: nothing); the frame adds its own."""
        ...


def panel_for(game_type: str) -> Panel | None:
    """The seat-phone panel of a game type (by key); None: the game has no phones yet."""
    if game_type not in GAME_TYPES:
        raise KeyError(game_type)
    module = game_module(game_type, "phone")
    if module is None:
        return None
    panel: Panel = module.PANEL
    return panel


__all__ = [
    "Action",
    "Append",
    "Panel",
    "Save",
    "Seat",
    "SeatNow",
    "SeatView",
    "Shown",
    "Tap",
    "panel_for",
    "seats_of",
]
