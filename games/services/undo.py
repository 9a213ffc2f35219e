"""Undo from a seat's phone (docs/scorekeeping.md, "Undo on the phone"): a store-level mechanism,
the same for every game type, read from the events' metadata (``by_seat``, ``forced``,
``deal``), never from a game's rules.

* **Undo my last play.** A seat's phone takes back the last entry it recorded itself (a play:
  not the deal its hand completed) while nothing was entered after it, except what the rules
  forced on from it (appended with it, metadata ``forced``). It is the table page's correction:
  an ``events_retracted`` ``{"count": N, "reason": "", "by_seat": S, "entry": V}``.
* **Ask the table.** Once something else was entered, the phone asks: ``undo_requested``
  ``{"seat": S, "entry": V, "rounds": R}``. Another seat's phone or an official accepts (an
  ``events_retracted`` of the entry and everything after it, ``{"count": N, "reason": "",
  "request": Q, "by_seat": T}``; an official's is in the metadata, ``by``) or declines
  (``undo_declined`` ``{"request": Q, "by_seat": T}``).
* **A request lapses** when its entry no longer counts (corrected otherwise), when a round is
  scored after it (its deal is over: the table page's correction remains), when the game is
  over, voided or its results entered, or when the same seat asks again.

Every write is one transaction at the version the phone saw (the store's expected-version
check: a tap and an undo racing, one of them is refused with a conflict, nothing lost or
recorded twice) with its idempotency key (a retry records nothing twice; a tap retried after
its undo finds its first answer, so an outbox never records an undone tap again).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _

from games import policy, store
from games.models import GameProjection
from games.projection import (
    IN_PROGRESS,
    PUBLISHED,
    RETRACTED,
    UNDO_DECLINED,
    UNDO_REQUESTED,
    VOIDED,
    GameView,
    fold_game,
)
from games.recent import Recent
from games.seats import SeatAccess
from games.services.common import GameChange, User, _game_type, _open, _projection
from games.services.errors import NotAllowed, Refused
from games.services.writes import _append_store_event
from games.store import NewEvent

NOT_LAST = "undo_not_last"
NOTHING = "nothing_to_undo"
MOOT = "undo_request_moot"
OWN_REQUEST = "undo_own_request"


@dataclass(frozen=True, slots=True)
class Entry:
    """An entry of the effective record, with who recorded it."""

    version: int
    type: str
    data: dict[str, Any]
    by_seat: int | None
    """The seat whose phone recorded it (None: the table page, the API, the rules)."""
    forced: bool
    deal: bool
    """A seat's hand completed the deal (not a play the phone may take back itself)."""

    @property
    def as_event(self) -> dict[str, Any]:
        return {"type": self.type, **self.data}


@dataclass(frozen=True, slots=True)
class UndoRequest:
    version: int
    """The request's own version (what an answer names)."""
    seat: int
    entry: Entry
    count: int
    """How many entries accepting it takes back (the entry and everything after it)."""


@dataclass(frozen=True, slots=True)
class SeatUndo:
    """What one seat's phone may do about its own last tap now."""

    own: Entry | None = None
    """Its last tap, nothing entered after it: undone at once."""
    ask: Entry | None = None
    """Its last tap, with entries after it (in the same deal): the table is asked."""
    requests: tuple[UndoRequest, ...] = ()
    """The table's pending requests, every seat's."""

    def mine(self, seat: int) -> UndoRequest | None:
        return next((r for r in self.requests if r.seat == seat), None)


@dataclass
class _Log:
    effective: list[Entry]
    asked: dict[int, tuple[int, int, int]]
    """Open requests: version -> (seat, entry version, rounds scored when asked)."""


def _read(events: Iterable[Any], since: _Log | None = None) -> _Log:
    """The log's entries and open requests from ``events`` (``since``: the log of the events
    before them, left as it is)."""
    log = _Log(list(since.effective), dict(since.asked)) if since else _Log([], {})
    for e in events:
        data = dict(e.data)
        if e.type == RETRACTED:
            del log.effective[-data["count"] :]
            log.asked.pop(data.get("request", -1), None)
        elif e.type == UNDO_REQUESTED:
            for version, (seat, _entry, _rounds) in list(log.asked.items()):
                if seat == data["seat"]:  # asked again: the new request replaces it
                    del log.asked[version]
            log.asked[e.version] = (data["seat"], data["entry"], data.get("rounds", 0))
        elif e.type == UNDO_DECLINED:
            log.asked.pop(data.get("request", -1), None)
        elif e.type not in (VOIDED, PUBLISHED):
            meta = e.metadata or {}
            by = meta.get("by_seat")
            log.effective.append(
                Entry(
                    e.version,
                    e.type,
                    data,
                    by if isinstance(by, int) else None,
                    bool(meta.get("forced")),
                    bool(meta.get("deal")),
                )
            )
    return log


def _rounds(summary: Mapping[str, Any]) -> int:
    return len(summary.get("rounds") or [])


def _closed(game: GameProjection) -> bool:
    return game.status != IN_PROGRESS or bool(game.results_only)


def _own_last(log: _Log, seat: int) -> Entry | None:
    """The seat's last tap if nothing but what the rules forced was entered after it."""
    index = len(log.effective) - 1
    while index > 0 and log.effective[index].forced:
        index -= 1
    last = log.effective[index] if index > 0 else None
    if last is not None and last.by_seat == seat and not last.deal:
        return last
    return None


def _last_tap(log: _Log, seat: int) -> Entry | None:
    return next((e for e in reversed(log.effective[1:]) if e.by_seat == seat and not e.deal), None)


def _count_from(log: _Log, version: int) -> int | None:
    """How many entries from the one recorded at ``version`` to the end (None: it no longer
    counts)."""
    for index, entry in enumerate(log.effective):
        if entry.version == version:
            return len(log.effective) - index if index > 0 else None
    return None


ROUNDS_SECONDS = 3600
"""How long the rounds scored at a version are kept: the log up to a version never changes, and
every phone of the table asks the same at each redraw (one fold per table, not per panel)."""


def _rounds_at(game: GameProjection, events: list[Any], version: int) -> int:
    """Rounds scored just after the entry at ``version`` (its deal ended with it, or later)."""
    key = f"undo-rounds:{game.stream_id}:{version}"
    known = cache.get(key)
    if isinstance(known, int):
        return known
    kind = _game_type(game.game_type)
    view: GameView = fold_game(((e.type, e.data) for e in events if e.version <= version), kind)
    rounds = _rounds(view.summary)
    cache.set(key, rounds, ROUNDS_SECONDS)
    return rounds


def _pending(game: GameProjection, log: _Log) -> list[UndoRequest]:
    if _closed(game):
        return []
    rounds = _rounds(game.summary or {})
    out = []
    for version, (seat, entry, asked_at) in sorted(log.asked.items()):
        count = _count_from(log, entry)
        if count is None or rounds != asked_at:
            continue
        found = next(e for e in log.effective if e.version == entry)
        out.append(UndoRequest(version, seat, found, count))
    return out


# ----------------------------------------------------------------------------- reads


_LOGS = store.StreamMemo()
"""The tables' logs as the phones' undo offers last read them (each phone of a table asks after
every tap: the new events only are read)."""


_READ: Recent[uuid.UUID, tuple[list[Any], _Log]] = Recent(512)
"""Each table's log as last read for the phones, by the list _LOGS gave (the same list: the
same events). The phones only read it."""


def seat_undo_options(*, game: GameProjection, seat: int) -> SeatUndo:
    """What the phone of ``seat`` may do about its last tap, and the table's open requests."""
    events = _LOGS.read(game.stream_id, until=game.version)
    read = _READ.get(game.stream_id)
    if read is not None and read[0] is events:  # the very list read before: the same log
        log = read[1]
    else:
        # The memo extends the list it gave before (the same rows first): only the new
        # events are read into the log read then.
        before, since = read if read is not None else ([], None)
        if before and len(before) < len(events) and events[len(before) - 1] is before[-1]:
            log = _read(events[len(before) :], since=since)
        else:
            log = _read(events)
        _READ.put(game.stream_id, (events, log))
    requests = tuple(_pending(game, log))
    if _closed(game):
        return SeatUndo(requests=requests)
    own = _own_last(log, seat)
    if own is not None:
        return SeatUndo(own=own, requests=requests)
    last = _last_tap(log, seat)
    if last is not None and _rounds_at(game, events, last.version) != _rounds(game.summary or {}):
        last = None  # its deal is over: the table page corrects it
    return SeatUndo(ask=last, requests=requests)


def game_undo_requests(*, game_id: uuid.UUID) -> list[UndoRequest]:
    """The table's open undo requests (the table page shows them to its officials)."""
    game = _projection(game_id)
    return _pending(game, _read(store.read_stream(game_id)))


# ----------------------------------------------------------------------------- writes


def _check_link(seat: SeatAccess, game_id: uuid.UUID) -> None:
    if seat.game_id != game_id:
        raise NotAllowed(_("this seat link is for another game"))


def _check_open(game: GameProjection) -> None:
    _open(game)
    if _closed(game):
        raise Refused(
            _(
                "the game is over (or its results were entered): the table's scorekeeper or "
                "organizer corrects it"
            ),
            MOOT,
        )


def seat_undo(
    *,
    game_id: uuid.UUID,
    expected_version: int,
    seat: SeatAccess,
    request_id: str = "",
    idempotency_key: str | None = None,
) -> GameChange:
    """Take back this seat's last tap (and what the rules forced after it), if nothing else
    was entered after it."""
    _check_link(seat, game_id)
    data: dict[str, Any] = {}

    def decide(game: GameProjection, view: GameView, kind: Any) -> None:
        _check_open(game)
        policy.decide(game, seat, policy.SEAT_APPEND, [])
        log = _read(store.read_stream(game_id))
        own = _own_last(log, seat.seat)
        if own is None:
            if _last_tap(log, seat.seat) is None:
                raise Refused(_("this phone has entered nothing to undo"), NOTHING)
            raise Refused(
                _(
                    "something was entered after your last play, so it cannot be undone from "
                    "your phone alone: ask the table to undo it"
                ),
                NOT_LAST,
            )
        data.update(
            count=_count_from(log, own.version) or 1,
            reason="",
            by_seat=seat.seat,
            entry=own.version,
        )

    return _append_store_event(
        game_id=game_id,
        expected_version=expected_version,
        event=NewEvent(RETRACTED, data),
        decide=decide,
        user=None,
        request_id=request_id,
        idempotency_key=idempotency_key,
        seat=seat,
    )


def seat_undo_request(
    *,
    game_id: uuid.UUID,
    expected_version: int,
    seat: SeatAccess,
    request_id: str = "",
    idempotency_key: str | None = None,
) -> GameChange:
    """Ask the table to undo this seat's last tap (something was entered after it)."""
    _check_link(seat, game_id)
    data: dict[str, Any] = {}

    def decide(game: GameProjection, view: GameView, kind: Any) -> None:
        _check_open(game)
        policy.decide(game, seat, policy.SEAT_APPEND, [])
        options = seat_undo_options(game=game, seat=seat.seat)
        if options.own is not None:
            raise Refused(
                _("nothing was entered after your last play: undo it yourself"), "undo_own"
            )
        if options.ask is None:
            raise Refused(
                _(
                    "this phone has no play of this deal to undo: the table's scorekeeper or "
                    "organizer corrects an earlier deal"
                ),
                NOTHING,
            )
        data.update(seat=seat.seat, entry=options.ask.version, rounds=_rounds(game.summary or {}))

    return _append_store_event(
        game_id=game_id,
        expected_version=expected_version,
        event=NewEvent(UNDO_REQUESTED, data),
        decide=decide,
        user=None,
        request_id=request_id,
        idempotency_key=idempotency_key,
        seat=seat,
    )


def undo_request_answer(
    *,
    game_id: uuid.UUID,
    expected_version: int,
    request: int,
    accept: bool,
    seat: SeatAccess | None = None,
    user: User | None = None,
    request_id: str = "",
    idempotency_key: str | None = None,
) -> GameChange:
    """Accept (the correction, as the table page's undo) or decline a pending request: by
    another seat's phone (``seat``) or an official (``user``, the table page's right to
    correct). The asking seat may withdraw its own request (decline), not accept it."""
    if seat is not None:
        _check_link(seat, game_id)
    event = NewEvent(RETRACTED if accept else UNDO_DECLINED, {"request": request})

    def decide(game: GameProjection, view: GameView, kind: Any) -> None:
        _check_open(game)
        if seat is not None:
            policy.decide(game, seat, policy.SEAT_APPEND, [])
        else:
            if user is None or not user.is_authenticated:
                raise NotAllowed(_("log in to change a game"))
            policy.decide(game, user, policy.CORRECT)
        pending = _pending(game, _read(store.read_stream(game_id)))
        asked = next((r for r in pending if r.version == request), None)
        if asked is None:
            raise Refused(
                _("this undo request no longer stands: the table has moved on or answered it"),
                MOOT,
            )
        if accept and seat is not None and asked.seat == seat.seat:
            raise Refused(_("another phone or the scorekeeper accepts your request"), OWN_REQUEST)
        by = {"by_seat": seat.seat} if seat is not None else {}
        if accept:
            event.data.update(count=asked.count, reason="", request=request, **by)
        else:
            event.data.update(request=request, **by)

    return _append_store_event(
        game_id=game_id,
        expected_version=expected_version,
        event=event,
        decide=decide,
        user=user,
        request_id=request_id,
        idempotency_key=idempotency_key,
        seat=seat,
    )


__all__ = [
    "Entry",
    "SeatUndo",
    "UndoRequest",
    "game_undo_requests",
    "seat_undo",
    "seat_undo_options",
    "seat_undo_request",
    "undo_request_answer",
]
