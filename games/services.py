"""Game services: every change to a game, each in one transaction (HackSoft-style services).

Each write: (1) an idempotency key seen before returns the first result and writes nothing;
(2) the projection is read and the expected version compared; (3) the game type's referee checks
the new events against the current state; (4) the events are appended; (5) the projection is
updated from the engine incrementally (a full replay only after a correction, a void or a
results entry). Any refusal leaves the log and the projections exactly as they were.

Views call these and map :class:`GameError` codes to HTTP statuses; they never touch models.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import Model, QuerySet

import engine
from games import hands, names, outbox, policy, store
from games.gametypes import DEFAULT_GAME_TYPE, GAME_TYPES, GameType
from games.models import Event, GameProjection, GameResult, Stream
from games.projection import (
    FINISHED,
    IN_PROGRESS,
    PUBLISHED,
    RESULTS,
    RETRACTED,
    STORE_TYPES,
    VOID,
    VOIDED,
    GameView,
    fold_game,
)
from games.signals import game_status_changed
from games.store import AlreadyAppended, NewEvent, PriorAppend, VersionConflict

User = AbstractBaseUser | AnonymousUser


# ----------------------------------------------------------------------------- errors


class GameError(Exception):
    """A refusal with a stable ``code`` and a message meant for the user."""

    code = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message}


class GameNotFound(GameError):
    code = "not_found"


class NotAllowed(GameError):
    code = "forbidden"


class KeyReused(GameError):
    code = "idempotency_key_reused"


class Refused(GameError):
    """The rules (or the game's status) refuse the change; ``index`` is the refused event's
    position in the request, or the record line for an import."""

    def __init__(self, message: str, code: str, index: int | None = None) -> None:
        super().__init__(message, code)
        self.index = index

    @classmethod
    def from_violation(cls, violation: engine.RuleViolation, index: int | None) -> Refused:
        return cls(violation.message, violation.code, index)

    def as_dict(self) -> dict[str, Any]:
        out = super().as_dict()
        if self.index is not None:
            out["event"] = self.index
        return out


class Conflict(GameError):
    """Someone else appended first: the client should reload and retry."""

    code = "conflict"

    def __init__(self, current_version: int, state: Any, expected: int, what: str = "game") -> None:
        super().__init__(
            f"the {what} is at version {current_version}, not {expected}: "
            "someone else changed it meanwhile; reload and try again"
        )
        self.current_version = current_version
        self.summary = state

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "current_version": self.current_version, "state": self.summary}


# ----------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class GameChange:
    """The outcome of a write: what was appended and the game as it now stands."""

    game_id: uuid.UUID
    version: int
    status: str
    appended: tuple[tuple[int, str], ...]
    summary: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.game_id),
            "version": self.version,
            "status": self.status,
            "appended": [{"version": v, "type": t} for v, t in self.appended],
            "state": self.summary,
        }


# ----------------------------------------------------------------------------- helpers


def _metadata(user: User | None, request_id: str) -> dict[str, Any]:
    known = user is not None and user.is_authenticated
    return {
        "by": user.get_username() if known and user is not None else None,
        "by_id": user.pk if known and user is not None else None,
        "request_id": request_id or uuid.uuid4().hex,
    }


MAX_NAME = 100  # GameResult.player
MAX_KEY = 200  # Event.idempotency_key


def _check_request(players: Sequence[str], idempotency_key: str | None) -> None:
    long = [p for p in players if isinstance(p, str) and len(p) > MAX_NAME]
    if long:
        raise Refused(f"a player's name has at most {MAX_NAME} characters", "bad_players", 0)
    if idempotency_key is not None and not 1 <= len(idempotency_key) <= MAX_KEY:
        raise Refused(f"an idempotency key has 1 to {MAX_KEY} characters", "bad_request")


def _clean_names(players: Sequence[Any]) -> list[Any]:
    """The players' names in their one spelling (games.names); anything else is the engine's
    to refuse."""
    try:
        return [names.clean_names([p])[0] if isinstance(p, str) else p for p in players]
    except names.BadName as error:
        raise Refused(str(error), "bad_players", 0) from None


def _check_recorded_names(players: Sequence[Any]) -> None:
    """A record file's names must be in their one spelling already: renaming its players
    would change the record."""
    for name in players:
        if not isinstance(name, str):
            continue  # the engine's to refuse
        try:
            [spelt] = names.clean_names([name])
        except names.BadName as error:
            raise Refused(str(error), "bad_players", 0) from None
        if spelt != name:
            raise Refused(
                f"the player name {name!r} must be written {spelt!r}: one spelling for one "
                "name (composed accents, no leading, trailing or repeated spaces)",
                "bad_players",
                0,
            )


def _fingerprint(user: User | None, *parts: Any) -> str:
    """The request's hash, including who sent it: a key replays only its own user's request."""
    return store.request_hash(_user_id(user), *parts)


def _user_id(user: User | None) -> Any:
    return user.pk if user is not None and user.is_authenticated else None


def _game_type(key: str) -> GameType:
    try:
        return GAME_TYPES[key]
    except KeyError:
        raise Refused(f"unknown game type {key!r}", "bad_game_type") from None


def _projection(game_id: uuid.UUID, *, lock: bool = False) -> GameProjection:
    """The game's projection; ``lock``: hold its row until the transaction ends, so that no other
    writer of the projection (another append, a rebuild) can replace it meanwhile."""
    games = GameProjection.objects.select_for_update() if lock else GameProjection.objects
    try:
        return games.get(stream_id=game_id)
    except GameProjection.DoesNotExist:
        raise GameNotFound(f"there is no game {game_id}") from None


def _expect(game: GameProjection, expected_version: int) -> None:
    if game.version != expected_version:
        raise VersionConflict(game.stream_id, expected_version, game.version)


def _open(game: GameProjection) -> None:
    if game.status == VOID:
        raise Refused("the game was voided: nothing more can be recorded", "game_void")


def _view(game_id: uuid.UUID, game_type: GameType, until: int | None = None) -> GameView:
    events = store.read_stream(game_id, until=until)
    return fold_game(((e.type, e.data) for e in events), game_type)


def _save(game: GameProjection, view: GameView, game_type: GameType) -> None:
    """Store a freshly folded view in the projection and its results."""
    was = IN_PROGRESS if game._state.adding else game.status  # a new game starts in progress
    game.version = view.version
    game.status = view.status
    game.players = view.players
    game.published = view.published
    game.results_only = view.results is not None
    game.snapshot = game_type.snapshot(view.state)
    game.summary = view.summary
    game.save()
    _save_results(game, game_type)
    _announce(game, was)


def _save_results(game: GameProjection, game_type: GameType) -> None:
    GameResult.objects.filter(game=game).delete()
    if game.status != FINISHED:
        return
    GameResult.objects.bulk_create(
        GameResult(
            game=game,
            player=p.player,
            seat=p.seat,
            rank=p.rank,
            total=p.total,
            last_round=p.last_round,
            round_scores=list(p.round_scores),
        )
        for p in game_type.placements(game.summary)
    )


def _announce(game: GameProjection, was: str) -> None:
    """A game's status changed: write it to the outbox (in this transaction, so it cannot be
    lost), and tell listeners after the commit, so they can look at once."""
    if game.status != was:
        outbox.record(game)
        game_id, status, version = game.stream_id, game.status, game.version
        transaction.on_commit(
            lambda: game_status_changed.send(
                sender=GameProjection, game_id=game_id, status=status, version=version
            )
        )


def _replayed(prior: PriorAppend, fingerprint: str) -> GameChange:
    """The result of an append made earlier with the same idempotency key."""
    if prior.request_hash != fingerprint:
        raise KeyReused(
            "this Idempotency-Key was already used for a different request; "
            "use a new key for a new request"
        )
    game = _projection(prior.stream_id)
    view = _view(prior.stream_id, _game_type(game.game_type), until=prior.last_version)
    appended = store.read_stream(
        prior.stream_id, since=prior.first_version - 1, until=prior.last_version
    )
    return GameChange(
        game_id=prior.stream_id,
        version=prior.last_version,
        status=view.status,
        appended=tuple((e.version, e.type) for e in appended),
        summary=view.summary,
    )


def _written(game: GameProjection, rows: Sequence[Event]) -> GameChange:
    return GameChange(
        game_id=game.stream_id,
        version=game.version,
        status=game.status,
        appended=tuple((e.version, e.type) for e in rows),
        summary=game.summary,
    )


def _replay_or_conflict(
    error: VersionConflict, idempotency_key: str | None, fingerprint: str
) -> GameChange:
    """A stale version is the retry of a request that went through (same key: its first
    result), or a real conflict."""
    if idempotency_key and (prior := store.find_prior(idempotency_key)):
        return _replayed(prior, fingerprint)
    game = _projection(error.stream_id)
    raise Conflict(game.version, game.summary, error.expected)


# ----------------------------------------------------------------------------- writes


def game_create(
    *,
    players: Sequence[str],
    suits: Sequence[str] | None = None,
    published: bool = False,
    game_type: str = DEFAULT_GAME_TYPE,
    user: User | None = None,
    request_id: str = "",
    idempotency_key: str | None = None,
) -> GameChange:
    """A new table: its stream starts with the record's first event."""
    kind = _game_type(game_type)
    players = _clean_names(players)
    start = kind.start(players, {"suits": suits})
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
    request_id: str = "",
    idempotency_key: str | None = None,
) -> GameChange:
    """Record the next events of a table (record-format objects, e.g. a card with coins)."""
    _check_request([], idempotency_key)
    fingerprint = _fingerprint(user, "append", str(game_id), expected_version, events)
    if not events:
        raise Refused("send at least one event", "bad_event")
    try:
        with transaction.atomic():
            # No key lookup here: a retry whose first attempt went through finds the version
            # moved on, and the conflict handler below looks its key up (after the first
            # attempt's commit, so it cannot miss it).
            game = _projection(game_id, lock=True)
            _expect(game, expected_version)
            _open(game)
            if game.results_only:
                raise Refused(
                    "results were entered for this game; retract them (a correction) "
                    "before recording play by play",
                    "results_entered",
                )
            policy.decide(game, user, policy.APPEND, events)
            kind = _game_type(game.game_type)
            state = kind.restore(game.snapshot or {})
            new = []
            for index, obj in enumerate(events):
                if not isinstance(obj, Mapping):
                    raise Refused("an event is a JSON object", "bad_event", index)
                if isinstance(obj.get("type"), str) and obj["type"] in STORE_TYPES:
                    # (any other "type", a list or an object too, is the engine's to refuse)
                    raise Refused(
                        f"{obj['type']} is not a play: use the corrections, void or results "
                        "endpoints",
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
                expected_version,
                new,
                metadata=_metadata(user, request_id),
                idempotency_key=idempotency_key,
                request_fingerprint=fingerprint,
            )
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


def _append_store_event(
    *,
    game_id: uuid.UUID,
    expected_version: int,
    event: NewEvent,
    decide: Any,
    user: User | None,
    request_id: str,
    idempotency_key: str | None,
) -> GameChange:
    """Append one of the store's own events after ``decide(game, view, kind)`` accepted it,
    then refold the game."""
    _check_request([], idempotency_key)
    fingerprint = _fingerprint(user, event.type, str(game_id), expected_version, event.data)
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
                metadata=_metadata(user, request_id),
                idempotency_key=idempotency_key,
                request_fingerprint=fingerprint,
            )
            view = _view(game_id, kind)
            _save(game, view, kind)
            return _written(game, rows)
    except AlreadyAppended as duplicate:
        return _replayed(duplicate.prior, fingerprint)
    except VersionConflict as conflict:
        return _replay_or_conflict(conflict, idempotency_key, fingerprint)


def _may_organize(game: GameProjection, user: User | None, action: str) -> None:
    if user is None or not user.is_authenticated:
        raise NotAllowed("log in to change a game")
    if policy.decide(game, user, action):
        return
    is_staff = bool(getattr(user, "is_staff", False))
    if not is_staff and game.created_by_id != user.pk:
        raise NotAllowed("only the game's organizer can do this")


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
                f"there {'is' if retractable == 1 else 'are'} {retractable} "
                f"event{'' if retractable == 1 else 's'} to retract, so {retract} cannot be",
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
            raise Refused("the game is already published", "already_published")

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
    scores: Mapping[str, Any],
    totals: Mapping[str, Any] | None = None,
    user: User | None = None,
    request_id: str = "",
    idempotency_key: str | None = None,
) -> GameChange:
    """Results only: each player's score for each of the three rounds."""
    data: dict[str, Any] = {"scores": dict(scores)}
    if totals is not None:
        data["totals"] = dict(totals)

    def decide(game: GameProjection, view: GameView, kind: GameType) -> None:
        _open(game)
        policy.decide(game, user, policy.RESULTS, [data])
        if view.results is not None:
            raise Refused(
                "results were already entered; retract them (a correction) to enter new ones",
                "results_entered",
            )
        if view.status == FINISHED:
            raise Refused(
                "this game was recorded play by play to the end; its scores come from the plays",
                "game_over",
            )
        try:
            kind.results(view.players, scores, totals)
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
        raise Refused("the record is empty: it must start with game_started", "bad_event", 0)
    encoded = [kind.encode(e) for e in events]
    _check_recorded_names(encoded[0].get("players", []))
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


# ----------------------------------------------------------------------------- reads


def game_get(*, game_id: uuid.UUID, user: User | None = None) -> GameProjection:
    game = _projection(game_id)
    if not game.published and (user is None or not user.is_authenticated):
        raise GameNotFound(f"there is no game {game_id}")  # unpublished games are not public
    return game


def game_list(*, user: User | None = None) -> QuerySet[GameProjection]:
    """Games newest first: published ones for the public, all for logged-in users."""
    games = GameProjection.objects.defer("snapshot", "summary").order_by(
        "-stream__created_at", "-stream_id"
    )
    if user is None or not user.is_authenticated:
        games = games.filter(published=True)
    return games


@dataclass(frozen=True, slots=True)
class ShownEvent:
    """A stored event as one reader sees it: its data with the hands hidden where they must be
    (games/hands.py). The stored event itself never changes."""

    id: int
    stream_id: uuid.UUID
    version: int
    type: str
    data: Any
    metadata: Mapping[str, Any]
    recorded_at: datetime
    tx_id: int


def game_sees_hands(*, game: GameProjection, user: User | None) -> bool:
    """Whether ``user`` is one of the game's officials, who see the cards still held in a round
    being played: a tournament says who for its games (organizers, the scorekeepers of its
    tables); otherwise the game's creator. Staff always."""
    if user is None or not user.is_authenticated:
        return False
    if getattr(user, "is_staff", False):
        return True
    try:
        if policy.decide(game, user, policy.HANDS):
            return True
    except NotAllowed:
        return False
    return game.created_by_id is not None and game.created_by_id == user.pk


def _hidden(games: Iterable[GameProjection], user: User | None) -> dict[uuid.UUID, hands.Hidden]:
    """What ``user`` may not see of each of these games: decided once per game (the policy's
    queries), and one query for all their deals."""
    playing = [g for g in games if g.status == IN_PROGRESS and hands.held_cards(g.snapshot)]
    secret = [g for g in playing if not game_sees_hands(game=g, user=user)]
    if not secret:
        return {}
    starts: dict[uuid.UUID, list[tuple[int, int]]] = {g.stream_id: [] for g in secret}
    rows = Event.objects.filter(stream_id__in=starts, type=hands.ROUND_STARTED).values_list(
        "stream_id", "version", "data__round"
    )
    for stream_id, version, number in rows:
        starts[stream_id].append((version, int(number or 0)))
    out = {}
    for game in secret:
        hidden = hands.round_in_progress(game.snapshot, starts[game.stream_id])
        if hidden is not None:
            out[game.stream_id] = hidden
    return out


def _shown(events: Iterable[Event], hidden: Mapping[uuid.UUID, hands.Hidden]) -> list[ShownEvent]:
    return [
        ShownEvent(
            id=e.id,
            stream_id=e.stream_id,
            version=e.version,
            type=e.type,
            data=hands.redact(e.version, e.type, e.data, hidden.get(e.stream_id)),
            metadata=e.metadata,
            recorded_at=e.recorded_at,
            tx_id=e.tx_id,
        )
        for e in events
    ]


def game_events(
    *, game_id: uuid.UUID, since: int = 0, user: User | None = None
) -> tuple[GameProjection, list[ShownEvent]]:
    """The game's history after version ``since``, the hands of a round being played hidden
    from anyone but its officials."""
    game = game_get(game_id=game_id, user=user)
    events = store.read_stream(game_id, since=since)
    if events and events[-1].version > game.version:  # an append committed in between
        game.version = events[-1].version
        game.refresh_from_db(fields=["status", "snapshot"])  # hide what that append dealt
    return game, _shown(events, _hidden([game], user))


def log_read(
    *, after: store.Cursor = store.START, limit: int = 500, user: User | None = None
) -> list[ShownEvent]:
    """The global log after ``after`` (games/store.py), each game's hands of a round being
    played hidden from anyone but its officials: decided once per game in the page."""
    events = store.read_all(after=after, limit=limit)
    with_cards = {e.stream_id for e in events if e.type in hands.CARD_TYPES}
    games = (
        GameProjection.objects.filter(stream_id__in=with_cards, status=IN_PROGRESS).only(
            "stream_id", "status", "snapshot", "created_by", "game_type", "version"
        )
        if with_cards
        else GameProjection.objects.none()
    )
    return _shown(events, _hidden(games, user))


def game_check_write(*, game_id: uuid.UUID, user: User | None) -> GameProjection:
    """The game, if ``user`` may record its plays (else NotAllowed): lets a page say so before
    the first tap. Every write checks again."""
    game = _projection(game_id)
    if user is None or not user.is_authenticated:
        raise NotAllowed("log in to enter a table")
    policy.decide(game, user, policy.APPEND)
    return game


def game_may_export(*, game: GameProjection, user: User | None) -> bool:
    """Whether ``user`` may download this game's record file now."""
    try:
        policy.decide(game, user, policy.EXPORT)
    except NotAllowed:
        return False
    return True


def game_export_record(*, game_id: uuid.UUID, user: User | None = None) -> str:
    """The game's record file: the effective record, corrections applied. While a round is
    being played, anyone but the game's officials gets it up to the end of the last finished
    round."""
    game = game_get(game_id=game_id, user=user)
    policy.decide(game, user, policy.EXPORT)
    kind = _game_type(game.game_type)
    view = _view(game_id, kind)
    if view.results is not None:
        raise Refused(
            "this game was entered as results only: it has no play-by-play record to export",
            "results_only",
        )
    game.refresh_from_db(fields=["status", "snapshot"])  # at least as new as the view
    if _hidden([game], user):  # a round is being played: its deal is not for everyone yet
        return kind.write_record(hands.finished_rounds(view.record_events))
    return kind.write_record(view.record_events)


def game_view(
    *, game_id: uuid.UUID, user: User | None = None, until: int | None = None
) -> GameView:
    """The game folded from its log (for history pages and checks). It holds every hand: a
    page shows a reader who does not see them (game_sees_hands) only the cards played."""
    game = game_get(game_id=game_id, user=user)
    return _view(game_id, _game_type(game.game_type), until=until)


def game_summary_at(*, game_id: uuid.UUID, version: int) -> tuple[str, dict[str, Any]]:
    """The game's type and summary as of ``version`` (for consumers of its status changes; no
    permission check: the caller is the system)."""
    game = _projection(game_id)
    if game.version == version:
        return game.game_type, game.summary
    return game.game_type, _view(game_id, _game_type(game.game_type), until=version).summary


# ----------------------------------------------------------------------------- maintenance


@dataclass(frozen=True, slots=True)
class Difference:
    game_id: uuid.UUID
    field: str
    stored: Any
    rebuilt: Any


def as_stored(value: Any) -> Any:
    """A JSON-ready value as it reads back from the database (tuples become lists)."""
    return json.loads(json.dumps(value))


Rebuilder = Callable[..., tuple[int, list[Difference]]]
_rebuilders: dict[str, Rebuilder] = {}


def register_rebuilder(name: str, rebuild: Rebuilder) -> None:
    """Other apps' projections (tournaments) join ``manage.py rebuild_projections``."""
    _rebuilders[name] = rebuild


Digest = Callable[[], Iterable[tuple[str, Any]]]
_digests: dict[str, Digest] = {}


def register_digest(name: str, parts: Digest) -> None:
    """Other apps' projections join ``projections_digest``."""
    _digests[name] = parts


def projections_digest() -> str:
    """A fingerprint of every projection: equal digests, equal standings, results and states
    (to check a restore)."""
    from games.backup import digest

    def parts() -> Iterable[tuple[str, Any]]:
        for game in GameProjection.objects.order_by("stream_id"):
            yield (
                f"game {game.stream_id}",
                [
                    game.game_type,
                    game.version,
                    game.status,
                    game.published,
                    game.results_only,
                    game.players,
                    game.summary,
                    game.snapshot,
                    sorted(
                        (r.player, r.seat, r.rank, r.total, r.last_round, r.round_scores)
                        for r in game.results.all()
                    ),
                ],
            )
        for name, more in sorted(_digests.items()):
            for key, value in more():
                yield f"{name} {key}", value

    return digest(parts())


def rebuild_all(*, fix: bool = True) -> dict[str, tuple[int, list[Difference]]]:
    """Every projection, games first (others are derived from games' results too)."""
    results = {"games": projections_rebuild(fix=fix)}
    for name, rebuild in _rebuilders.items():
        results[name] = rebuild(fix=fix)
    return results


def projections_rebuild(*, fix: bool = True) -> tuple[int, list[Difference]]:
    """Recompute every game projection from the log; report (and fix) what differs. A game
    stream without a projection (after a restore) gets one."""
    differences: list[Difference] = []
    checked = 0
    for game in streams_projected(Stream.Kind.GAME, GameProjection.objects.all(), _new_projection):
        checked += 1
        kind = _game_type(game.game_type)
        view = _view(game.stream_id, kind)
        found = _differences(game, view, kind)
        if found and not game._state.adding:
            found = _recheck(game.stream_id, kind, fix=fix)
        elif found and fix:
            with transaction.atomic():
                _save(game, view, kind)
        differences.extend(found)
    return checked, differences


def _recheck(game_id: uuid.UUID, kind: GameType, *, fix: bool) -> list[Difference]:
    """Compare (and fix) a game's projection again under its row lock: the first look read the
    row and the log without one, and a writer may have moved both on since. Under the lock the
    log read is at least as new as the row, so a rebuild never writes older state over newer."""
    with transaction.atomic():
        game = _projection(game_id, lock=True)
        view = _view(game_id, kind)
        found = _differences(game, view, kind)
        if found and fix:
            _save(game, view, kind)
    return found


P = TypeVar("P", bound=Model)


def streams_projected(
    kind: str, projections: QuerySet[P], new: Callable[[uuid.UUID], P]
) -> Iterator[P]:
    """The projection of every stream of this kind, a chunk at a time (constant memory), then
    ``new(stream_id)`` for each stream that has none yet (a restored log): what a rebuild goes
    through."""
    yield from projections.order_by("stream_id").iterator()
    missing = Stream.objects.filter(kind=kind).exclude(id__in=projections.values("stream_id"))
    for stream_id in list(missing.order_by("id").values_list("id", flat=True)):
        yield new(stream_id)


def stream_origin(stream_id: uuid.UUID) -> tuple[dict[str, Any], int | None]:
    """The metadata of a stream's first event, and the id of the user who wrote it if that
    user still exists: who created a game or tournament, for a projection made anew."""
    first = Event.objects.filter(stream_id=stream_id, version=1).first()
    metadata: dict[str, Any] = first.metadata if first is not None else {}
    creator = metadata.get("by_id")
    if creator is not None and not get_user_model().objects.filter(pk=creator).exists():
        creator = None
    return metadata, creator


def _new_projection(stream_id: uuid.UUID) -> GameProjection:
    """An empty projection for a game stream that has none, its type and creator from the
    stream's first event."""
    metadata, creator = stream_origin(stream_id)
    return GameProjection(
        stream_id=stream_id,
        game_type=metadata.get("game_type", DEFAULT_GAME_TYPE),
        version=0,
        status="",
        players=[],
        summary={},
        created_by_id=creator,
    )


def _differences(game: GameProjection, view: GameView, kind: GameType) -> list[Difference]:
    rebuilt = GameProjection(stream_id=game.stream_id, game_type=game.game_type)
    rebuilt.version, rebuilt.status = view.version, view.status
    rebuilt.published, rebuilt.results_only = view.published, view.results is not None
    rebuilt.players, rebuilt.summary = view.players, view.summary
    rebuilt.snapshot = as_stored(kind.snapshot(view.state))
    found = [
        Difference(game.stream_id, name, getattr(game, name), getattr(rebuilt, name))
        for name in (
            "version",
            "status",
            "published",
            "results_only",
            "players",
            "summary",
            "snapshot",
        )
        if getattr(game, name) != getattr(rebuilt, name)
    ]
    stored_results = (
        sorted(
            (r.player, r.seat, r.rank, r.total, r.last_round, tuple(r.round_scores))
            for r in game.results.all()
        )
        if not game._state.adding
        else []
    )
    expected_results = sorted(
        (p.player, p.seat, p.rank, p.total, p.last_round, p.round_scores)
        for p in (kind.placements(view.summary) if view.status == FINISHED else [])
    )
    if stored_results != expected_results:
        found.append(Difference(game.stream_id, "results", stored_results, expected_results))
    return found
