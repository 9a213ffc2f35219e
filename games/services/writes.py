"""Game writes: each one transaction, idempotent under a key, refereed by the game type."""

from __future__ import annotations

import uuid
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import engine
from games import policy, store
from games.gametypes import DEFAULT_GAME_TYPE, GameType, game_module
from games.models import GameProjection, Stream
from games.projection import (
    FINISHED,
    IN_PROGRESS,
    PUBLISHED,
    RESULTS,
    RETRACTED,
    STORE_TYPES,
    VOIDED,
    GameView,
    fold_game,
)
from games.seats import SeatAccess
from games.services.common import (
    GameChange,
    User,
    _announce,
    _check_recorded_names,
    _check_request,
    _clean_names,
    _expect,
    _fingerprint,
    _game_type,
    _metadata,
    _open,
    _projection,
    _replay_or_conflict,
    _replayed,
    _save,
    _save_results,
    _user_id,
    _view,
    _written,
)
from games.services.errors import NotAllowed, Refused
from games.store import AlreadyAppended, AppendRefused, NewEvent, VersionConflict


def game_create(
    *,
    players: Sequence[str],
    suits: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    published: bool = False,
    game_type: str = DEFAULT_GAME_TYPE,
    user: User | None = None,
    request_id: str = "",
    idempotency_key: str | None = None,
) -> GameChange:
    """A new table: its stream starts with the record's first event. ``players``: the
    entrants' names in seat order (a team game's: the teams'); ``options``: the game's own
    (games.gametypes: Crazy Kitchen's ``members`` of each team)."""
    kind = _game_type(game_type)
    players = _clean_names(players)
    start = kind.start(players, {"suits": suits, **(options or {})})
    _clean_names(_recorded_names(start))  # a team's players too: the names rule refuses
    _check_request(players, idempotency_key)
    try:
        first = kind.encode(kind.parse(start))
        kind.step(kind.new_state(), kind.parse(start))
    except engine.RuleViolation as violation:
        raise Refused.from_violation(violation, 0) from None
    return _new_game(
        kind,
        [NewEvent(first.pop("type"), first)],
        published=published,
        fingerprint=_fingerprint(user, "create", game_type, start, published),
        user=user,
        request_id=request_id,
        idempotency_key=idempotency_key,
    )


def _new_game(
    kind: GameType,
    new: list[NewEvent],
    *,
    published: bool,
    fingerprint: str,
    user: User | None,
    request_id: str,
    idempotency_key: str | None,
) -> GameChange:
    """A new stream with these (already checked) events, and its projection."""
    if published:
        new = [*new, NewEvent(PUBLISHED, {})]
    try:
        with transaction.atomic():
            if idempotency_key and (prior := store.find_prior(idempotency_key)):
                return _replayed(prior, fingerprint)
            stream = store.create_stream(Stream.Kind.GAME)
            rows = store.append(
                stream.id,
                0,
                new,
                metadata={**_metadata(user, request_id), "game_type": kind.key},
                idempotency_key=idempotency_key,
                request_fingerprint=fingerprint,
            )
            game = GameProjection(stream=stream, game_type=kind.key, created_by_id=_user_id(user))
            _save(game, fold_game(((e.type, e.data) for e in new), kind), kind)
            return _written(game, rows)
    except AlreadyAppended as duplicate:  # a concurrent retry won; this one rolled back
        return _replayed(duplicate.prior, fingerprint)


def game_append(
    *,
    game_id: uuid.UUID,
    expected_version: int,
    events: Sequence[Any],
    user: User | None = None,
    seat: SeatAccess | None = None,
    request_id: str = "",
    idempotency_key: str | None = None,
    whole_table: bool = False,
    queued: Slot | None = None,
    forced: bool = False,
    seat_plays: Collection[str] = (),
) -> GameChange:
    """Record the next events of a table (record-format objects, e.g. a card with coins).

    ``seat``: a seat's phone records them (games.seats), in place of a user: only its own plays
    (``seat_plays``: their event types, the game's panel's, games.phone.panel.Panel.seat_plays)
    and those of the seats shared with it; ``whole_table``: one event of the whole table that
    the phones' drafts completed (Trick-n-Chef's deal, games.tricknchef.deals), no one seat's.

    ``queued``: the ``(round, trick)`` a phone saw when its player tapped this one event while
    offline (its outbox sends it later). If the table moved on meanwhile (the others played),
    the tap is still recorded, at the current version, when the event expected now is exactly
    that tap's slot: the same type, player, round and trick. Otherwise it is refused in words
    (a stale tap is never recorded somewhere it was not meant for). The game's rule for queued
    taps says what a slot is (``GameType.queued_taps``)."""
    _check_request([], idempotency_key)
    if seat is not None:
        _check_seat(seat, game_id, events, whole_table, seat_plays)
    parts: list[Any] = ["append", str(game_id), expected_version, events]
    if seat is not None:  # a key replays only its own seat's request
        parts.insert(0, f"seat-link:{seat.link_id}")
    fingerprint = _fingerprint(user, *parts)
    if not events:
        raise Refused(_("send at least one event"), "bad_event")
    try:
        with transaction.atomic():
            # No key lookup here: a retry whose first attempt went through finds the version
            # moved on, and the conflict handler below looks its key up (after the first
            # attempt's commit, so it cannot miss it).
            game = _projection(game_id, lock=True)
            at = expected_version
            if queued is not None:
                stale = game.version != expected_version
                if stale and idempotency_key and (prior := store.find_prior(idempotency_key)):
                    return _replayed(prior, fingerprint)  # sent before: its first result
                _open(game)
                if _check_slot(_game_type(game.game_type), game, events, queued):
                    return _unchanged(game)  # recorded already, in its slot: nothing twice
                at = game.version
            _expect(game, at)
            _open(game)
            if game.results_only:
                raise Refused(
                    _(
                        "results were entered for this game; retract them (a correction) "
                        "before recording play by play"
                    ),
                    "results_entered",
                )
            if seat is None:
                policy.decide(game, user, policy.APPEND, events)
            else:
                policy.decide(game, seat, policy.SEAT_APPEND, events)
            kind = _game_type(game.game_type)
            state = kind.restore(game.snapshot or {})
            new = []
            for index, obj in enumerate(events):
                if not isinstance(obj, Mapping):
                    raise Refused(_("an event is a JSON object"), "bad_event", index)
                if isinstance(obj.get("type"), str) and obj["type"] in STORE_TYPES:
                    # (any other "type", a list or an object too, is the engine's to refuse)
                    raise Refused(
                        _("%(type)s is not a play: use the corrections, void or results endpoints")
                        % {"type": obj["type"]},
                        "bad_event",
                        index,
                    )
                try:
                    event = kind.parse(obj)
                    kind.step(state, event)
                except engine.RuleViolation as violation:
                    raise Refused.from_violation(violation, index) from None
                encoded = kind.encode(event)
                new.append(NewEvent(encoded.pop("type"), encoded))
            rows = store.append(
                game_id,
                at,
                new,
                # "deal": the log's name for a whole-table event the drafts completed
                metadata={
                    **_metadata(user, request_id, seat),
                    **({"deal": True} if whole_table else {}),
                },
                idempotency_key=idempotency_key,
                request_fingerprint=fingerprint,
                locked=True,  # the projection's row, read FOR UPDATE at this version
            )
            if forced and (then := _forced_after(kind, state)):
                rows = [
                    *rows,
                    *store.append(
                        game_id,
                        rows[-1].version,
                        then,
                        metadata={**_metadata(None, request_id), "forced": True},
                        locked=True,
                    ),
                ]
            game.version = rows[-1].version
            game.snapshot = kind.snapshot(state)
            game.summary = kind.summary(state)
            was = game.status
            game.status = FINISHED if kind.finished(state) else IN_PROGRESS
            game.save(update_fields=["version", "snapshot", "summary", "status", "updated_at"])
            if game.status != was:
                _save_results(game, kind)
                _announce(game, was)
            return _written(game, rows)
    except AlreadyAppended as duplicate:
        return _replayed(duplicate.prior, fingerprint)
    except VersionConflict as conflict:
        return _replay_or_conflict(conflict, idempotency_key, fingerprint)
    except AppendRefused as refused:  # rolled back now: the key's first append, or a conflict
        return _refused(refused, idempotency_key, fingerprint)


def _refused(refused: AppendRefused, idempotency_key: str | None, fingerprint: str) -> GameChange:
    """A locked append's refusal, after its rollback, answered as the store's savepoint would
    have: the key's first result, or the conflict."""
    outcome = refused.outcome()
    if isinstance(outcome, AlreadyAppended):
        return _replayed(outcome.prior, fingerprint)
    return _replay_or_conflict(outcome, idempotency_key, fingerprint)


FORCED_MAX = 64
"""More forced events in a row than a game has: a bug, not a game (the loop stops)."""


def _forced_after(kind: GameType, state: Any) -> list[NewEvent]:
    """The events the rules leave no choice about from ``state`` on, applied to it."""
    out: list[NewEvent] = []
    while len(out) < FORCED_MAX and (event := kind.forced(state)) is not None:
        kind.step(state, event)
        encoded = kind.encode(event)
        out.append(NewEvent(encoded.pop("type"), encoded))
    return out


def _unchanged(game: GameProjection) -> GameChange:
    return GameChange(
        game_id=game.stream_id,
        version=game.version,
        status=game.status,
        appended=(),
        summary=game.summary,
    )


Slot = tuple[int, int]
"""(round, trick) of a tap queued on a phone; trick 0 for a round-start Chef pick."""


QUEUED_EARLY = "queued_early"
"""A queued tap for a slot the table has not reached yet (the phone keeps it and sends it
again): not a refusal of the tap, only of its timing."""


def _check_slot(kind: GameType, game: GameProjection, events: Sequence[Any], queued: Slot) -> bool:
    """A queued tap may be recorded at the current version only in its own slot, as the game's
    rule for queued taps says (``GameType.queued_taps``: its module's ``check_slot``). True: the
    record already holds this very event in that slot (nothing to append)."""
    obj = events[0] if len(events) == 1 else None
    if not isinstance(obj, Mapping):
        raise Refused(_("a queued tap is one event"), "bad_event")
    rule = game_module(game.game_type, "queued_taps")
    if rule is None:
        raise Refused(_("this game's phones send no queued taps"), "bad_event")
    state = kind.restore(game.snapshot or {})
    checked: bool = rule.check_slot(
        kind, state, obj, queued, lambda: _view(game.stream_id, kind).record_events
    )
    return checked


def _check_seat(
    seat: SeatAccess,
    game_id: uuid.UUID,
    events: Sequence[Any],
    whole_table: bool,
    plays: Collection[str],
) -> None:
    """A seat's phone records only its own plays (``plays``: their types) and its shared
    seats', in its own game (or the one event of the whole table its drafts completed). A type
    of ``plays`` whose event names no ``player`` is the table's (Chefs' meal cards laid): the
    panel's phones may enter it, as the referee allows."""
    if seat.game_id != game_id:
        raise NotAllowed(_("this seat link is for another game"))
    for index, obj in enumerate(events):
        kind = obj.get("type") if isinstance(obj, Mapping) else None
        if whole_table and len(events) == 1:
            continue
        if kind not in plays:
            raise Refused(
                _("a seat's phone records its own plays and Chef picks only"), "bad_event", index
            )
        if "player" not in obj and "team" not in obj:
            continue  # a table's event the panel lets its phones enter (no seat's own play)
        player = obj.get("player", obj.get("team"))  # a team game's events name the team
        if not isinstance(player, str) or not seat.may_enter_for(player):
            if len(seat.acts_for) > 1:
                text = _(
                    "this phone enters for %(seat)s and the seats shared with it, not for "
                    "%(player)s"
                )
            else:
                text = _("this phone enters for %(seat)s, not for %(player)s")
            raise NotAllowed(text % {"seat": seat.player, "player": player})


def _append_store_event(
    *,
    game_id: uuid.UUID,
    expected_version: int,
    event: NewEvent,
    decide: Any,
    user: User | None,
    request_id: str,
    idempotency_key: str | None,
    seat: SeatAccess | None = None,
) -> GameChange:
    """Append one of the store's own events after ``decide(game, view, kind)`` accepted it,
    then refold the game. ``seat``: a seat's phone asks (games.services.undo), not a user."""
    _check_request([], idempotency_key)
    parts: list[Any] = [event.type, str(game_id), expected_version, event.data]
    if seat is not None:  # a key replays only its own seat's request
        parts.insert(0, f"seat-link:{seat.link_id}")
    fingerprint = _fingerprint(user, *parts)
    try:
        with transaction.atomic():
            # No key lookup here: a retry whose first attempt went through finds the version
            # moved on, and the conflict handler below looks its key up (after the first
            # attempt's commit, so it cannot miss it).
            game = _projection(game_id, lock=True)
            _expect(game, expected_version)
            kind = _game_type(game.game_type)
            view = _view(game_id, kind)
            decide(game, view, kind)
            rows = store.append(
                game_id,
                expected_version,
                [event],
                metadata=_metadata(user, request_id, seat),
                idempotency_key=idempotency_key,
                request_fingerprint=fingerprint,
                locked=True,  # the projection's row, read FOR UPDATE at this version
            )
            view = _view(game_id, kind)
            _save(game, view, kind)
            return _written(game, rows)
    except AlreadyAppended as duplicate:
        return _replayed(duplicate.prior, fingerprint)
    except VersionConflict as conflict:
        return _replay_or_conflict(conflict, idempotency_key, fingerprint)
    except AppendRefused as refused:  # rolled back now: the key's first append, or a conflict
        return _refused(refused, idempotency_key, fingerprint)


def _may_organize(game: GameProjection, user: User | None, action: str) -> None:
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("log in to change a game"))
    if policy.decide(game, user, action):
        return
    is_staff = bool(getattr(user, "is_staff", False))
    if not is_staff and game.created_by_id != user.pk:
        raise NotAllowed(_("only the game's organizer can do this"))


def game_correct(
    *,
    game_id: uuid.UUID,
    expected_version: int,
    retract: int,
    reason: str = "",
    user: User | None = None,
    request_id: str = "",
    idempotency_key: str | None = None,
) -> GameChange:
    """Retract the last ``retract`` entries of the record (plays or a results entry)."""

    def decide(game: GameProjection, view: GameView, kind: GameType) -> None:
        _open(game)
        policy.decide(game, user, policy.CORRECT)
        retractable = len(view.effective) - 1  # the game's first event stays
        if type(retract) is not int or not 1 <= retract <= retractable:
            raise Refused(
                ngettext(
                    "there is %(count)d event to retract, so %(asked)s cannot be",
                    "there are %(count)d events to retract, so %(asked)s cannot be",
                    retractable,
                )
                % {"count": retractable, "asked": retract},
                "bad_correction",
            )

    return _append_store_event(
        game_id=game_id,
        expected_version=expected_version,
        event=NewEvent(RETRACTED, {"count": retract, "reason": reason}),
        decide=decide,
        user=user,
        request_id=request_id,
        idempotency_key=idempotency_key,
    )


def game_void(
    *,
    game_id: uuid.UUID,
    expected_version: int,
    reason: str = "",
    user: User | None = None,
    request_id: str = "",
    idempotency_key: str | None = None,
) -> GameChange:
    """The organizer voids the whole game; its results no longer count."""

    def decide(game: GameProjection, view: GameView, kind: GameType) -> None:
        _may_organize(game, user, policy.VOID)
        _open(game)

    return _append_store_event(
        game_id=game_id,
        expected_version=expected_version,
        event=NewEvent(VOIDED, {"reason": reason}),
        decide=decide,
        user=user,
        request_id=request_id,
        idempotency_key=idempotency_key,
    )


def game_publish(
    *,
    game_id: uuid.UUID,
    expected_version: int,
    user: User | None = None,
    request_id: str = "",
    idempotency_key: str | None = None,
) -> GameChange:
    """Make the game readable by the public."""

    def decide(game: GameProjection, view: GameView, kind: GameType) -> None:
        _may_organize(game, user, policy.PUBLISH)
        _open(game)
        if game.published:
            raise Refused(_("the game is already published"), "already_published")

    return _append_store_event(
        game_id=game_id,
        expected_version=expected_version,
        event=NewEvent(PUBLISHED, {}),
        decide=decide,
        user=user,
        request_id=request_id,
        idempotency_key=idempotency_key,
    )


def game_enter_results(
    *,
    game_id: uuid.UUID,
    expected_version: int,
    scores: Mapping[str, Any] | None = None,
    totals: Mapping[str, Any] | None = None,
    entry: Mapping[str, Any] | None = None,
    user: User | None = None,
    request_id: str = "",
    idempotency_key: str | None = None,
) -> GameChange:
    """Results only: the game's own entry (``entry``; the game type says its shape), or for
    Trick-n-Chef each player's score for each of the three rounds (``scores``, ``totals``)."""
    data: dict[str, Any] = dict(entry or {})
    if scores is not None:
        data["scores"] = dict(scores)
    if totals is not None:
        data["totals"] = dict(totals)

    def decide(game: GameProjection, view: GameView, kind: GameType) -> None:
        _open(game)
        policy.decide(game, user, policy.RESULTS, [data])
        if view.results is not None:
            raise Refused(
                _("results were already entered; retract them (a correction) to enter new ones"),
                "results_entered",
            )
        if view.status == FINISHED:
            raise Refused(
                _("this game was recorded play by play to the end; its scores come from the plays"),
                "game_over",
            )
        try:
            kind.results(view.state, data)
        except engine.RuleViolation as violation:
            raise Refused.from_violation(violation, None) from None

    return _append_store_event(
        game_id=game_id,
        expected_version=expected_version,
        event=NewEvent(RESULTS, data),
        decide=decide,
        user=user,
        request_id=request_id,
        idempotency_key=idempotency_key,
    )


def _recorded_names(first: Mapping[str, Any]) -> list[Any]:
    """The names a record's first event gives: its players, or (a team game) each team's name
    and its players' names."""
    out = list(first.get("players") or [])
    for team in first.get("teams") or []:
        if isinstance(team, Mapping):
            out.append(team.get("name"))
            out.extend(team.get("players") or [])
    return out


def game_import_record(
    *,
    record: bytes | str,
    published: bool = False,
    game_type: str = DEFAULT_GAME_TYPE,
    user: User | None = None,
    request_id: str = "",
    idempotency_key: str | None = None,
) -> GameChange:
    """A new game from a record file, validated by the engine and stored event by event."""
    kind = _game_type(game_type)
    text = record.decode("utf-8", "replace") if isinstance(record, bytes) else record
    try:
        events = kind.read_record(record)
    except engine.InvalidRecord as error:
        raise Refused.from_violation(error.violation, error.index) from None
    if not events:
        raise Refused(_("the record is empty: it must start with game_started"), "bad_event", 0)
    encoded = [kind.encode(e) for e in events]
    _check_recorded_names(_recorded_names(encoded[0]))
    _check_request(encoded[0].get("players", []), idempotency_key)
    return _new_game(
        kind,
        [NewEvent(obj.pop("type"), obj) for obj in encoded],
        published=published,
        fingerprint=_fingerprint(user, "import", game_type, text, published),
        user=user,
        request_id=request_id,
        idempotency_key=idempotency_key,
    )
