"""The fold of a game stream into what pages and the API show (pure: no ORM, no I/O).

A game stream holds the events of the game's record (the game type's record format, e.g.
``card_played``) and a few events of the store's own:

* ``events_retracted`` ``{"count": N, "reason": "..."}`` -- a correction: the last N events of
  the effective record (record events and results entries) no longer count;
* ``results_entered`` -- a table that did not record play by play, in the game's own shape
  (Trick-n-Chef: ``{"scores": {player: [r1, r2, r3]}, "totals": {...}}``); it counts as an
  entry of the effective record, so a correction can retract it;
* ``game_voided`` ``{"reason": "..."}`` -- the organizer voided the game; nothing follows it;
* ``game_published`` ``{}`` -- the game is readable by the public;
* ``undo_requested`` ``{"seat": S, "entry": V, "rounds": R}`` -- seat S's phone asks the table to
  undo its tap recorded as version V (R: rounds scored when it asked); and
  ``undo_declined`` ``{"request": V}`` -- that request (the event at version V) is declined.
  Neither changes the record (games/services/undo.py reads them); an accepted request is an
  ``events_retracted`` naming it (``"request": V``).

Nothing is ever edited: a correction is a new event, and the full history stays readable.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from engine import InvariantError, RuleViolation
from games.gametypes import GameType

RETRACTED: Final = "events_retracted"
RESULTS: Final = "results_entered"
VOIDED: Final = "game_voided"
PUBLISHED: Final = "game_published"
UNDO_REQUESTED: Final = "undo_requested"
UNDO_DECLINED: Final = "undo_declined"
UNDO_TYPES: Final = frozenset({UNDO_REQUESTED, UNDO_DECLINED})
STORE_TYPES: Final = frozenset({RETRACTED, RESULTS, VOIDED, PUBLISHED, *UNDO_TYPES})

IN_PROGRESS, FINISHED, VOID = "in_progress", "finished", "void"


@dataclass
class GameView:
    """A game as of some version of its stream."""

    game_type: GameType
    version: int = 0
    effective: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """The record events and results entries that count, in order, as ``(type, data)``."""
    voided: str | None = None
    published: bool = False
    state: Any = None
    results: dict[str, Any] | None = None
    summary: dict[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> list[str]:
        return list(self.summary.get("players", []))

    @property
    def status(self) -> str:
        if self.voided is not None:
            return VOID
        if self.results is not None or self.summary.get("status") == "finished":
            return FINISHED
        return IN_PROGRESS

    @property
    def record_events(self) -> list[dict[str, Any]]:
        """The effective record as JSON objects, ready to export."""
        return [{"type": t, **d} for t, d in self.effective if t != RESULTS]


def fold_game(events: Iterable[tuple[str, Mapping[str, Any]]], game_type: GameType) -> GameView:
    """Replay a game stream's ``(type, data)`` events, in version order, into a view."""
    view = GameView(game_type=game_type)
    for kind, data in events:
        view.version += 1
        if kind == RETRACTED:
            count = data["count"]
            if not 1 <= count <= len(view.effective) - 1:
                raise InvariantError(f"version {view.version} retracts {count} events")
            del view.effective[-count:]
        elif kind == VOIDED:
            view.voided = data.get("reason", "")
        elif kind == PUBLISHED:
            view.published = True
        elif kind in UNDO_TYPES:  # a question to the table, not a change of the record
            pass
        else:
            view.effective.append((kind, dict(data)))
    view.state = game_type.new_state()
    for kind, data in view.effective:
        if kind == RESULTS:
            view.results = data
            continue
        try:
            game_type.step(view.state, game_type.parse({"type": kind, **data}))
        except RuleViolation as violation:  # the log only holds events that were accepted
            raise InvariantError(f"stored event refused on replay: {violation}") from None
    if view.results is not None:
        view.summary = game_type.results(view.state, view.results)
    else:
        view.summary = game_type.summary(view.state)
    return view


def withdrawn_results(events: Iterable[tuple[str, Mapping[str, Any]]]) -> dict[str, Any] | None:
    """The results entry a correction took back, while nothing has been entered since (None
    otherwise): what a correction form opens with, so that changing one number is one number.
    ``events``: the game stream's ``(type, data)`` in version order. The withdrawn entry stays in
    the log as it was; a new entry is a new event."""
    effective: list[tuple[str, Mapping[str, Any]]] = []
    withdrawn: dict[str, Any] | None = None
    for kind, data in events:
        if kind == RETRACTED:
            count = data["count"]
            if not isinstance(count, int) or count < 1:
                continue
            taken = effective[-count:]
            del effective[-count:]
            entries = [d for t, d in taken if t == RESULTS]
            if entries:
                withdrawn = dict(entries[-1])
        elif kind == RESULTS or kind not in STORE_TYPES:  # an entry of the record
            effective.append((kind, data))
            withdrawn = None
    return withdrawn
