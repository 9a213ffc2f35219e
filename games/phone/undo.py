"""Undo on a seat's phone, as the frame shows it for every game (games.services.undo): the
phone's own last tap, its request to the table, and the other seats' requests, each tap in the
words of the game's panel (:meth:`games.phone.panel.Panel.tap_words`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.phone.panel import panel_for
from games.services.undo import Entry, SeatUndo, UndoRequest

Words = Callable[[Mapping[str, Any]], str]


@dataclass(frozen=True, slots=True)
class UndoAsk:
    """A seat's pending request to undo one of its taps (games.services.undo)."""

    version: int
    player: str
    words: str
    """The tap, in words ("Ana's red 9")."""
    count: int
    """How many entries accepting it takes back."""


@dataclass(frozen=True, slots=True)
class UndoOffer:
    kind: str
    """"own": undo the phone's last tap at once; "ask": ask the table; "": neither."""
    words: str
    mine: UndoAsk | None
    """This phone's own request, waiting for an answer."""
    others: list[UndoAsk]
    """Other seats' requests, for this phone to accept or decline."""


def _words_of(game: Any) -> Words:
    panel = panel_for(game.game_type)
    return panel.tap_words if panel is not None else lambda event: str(event.get("type", ""))


def undo_asks(game: Any, requests: Sequence[UndoRequest]) -> list[UndoAsk]:
    """The table's open undo requests in words (the phones and the table page show them)."""
    names = dict(enumerate(game.players, start=1))
    words = _words_of(game)
    return [
        UndoAsk(r.version, names.get(r.seat, ""), words(r.entry.as_event), r.count)
        for r in requests
    ]


def undo_offer(undo: SeatUndo, seat: int, names: Mapping[int, str], words: Words) -> UndoOffer:
    """What the phone of ``seat`` is offered: its own undo, a request, the others' requests."""
    asks = [
        UndoAsk(r.version, names.get(r.seat, ""), words(r.entry.as_event), r.count)
        for r in undo.requests
    ]
    mine = next((a for a, r in zip(asks, undo.requests, strict=True) if r.seat == seat), None)
    others = [a for a, r in zip(asks, undo.requests, strict=True) if r.seat != seat]
    entry: Entry | None = undo.own or (undo.ask if mine is None else None)
    kind = "own" if undo.own is not None else ("ask" if entry is not None else "")
    said = words(entry.as_event) if entry is not None else ""
    return UndoOffer(kind, said, mine, others)
