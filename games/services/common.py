"""What the game services share: the result of a write, the user, and the helpers that read,
check and save a game's projection."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils.translation import gettext as _

from games import names, outbox, store
from games.gametypes import GAME_TYPES, GameType
from games.models import Event, GameProjection, GameResult
from games.projection import (
    FINISHED,
    IN_PROGRESS,
    VOID,
    GameView,
    fold_game,
)
from games.seats import SeatAccess
from games.services.errors import Conflict, GameNotFound, KeyReused, Refused
from games.signals import game_status_changed
from games.store import PriorAppend, VersionConflict

User = AbstractBaseUser | AnonymousUser


@dataclass(frozen=True, slots=True)
class GameChange:
    """The outcome of a write: what was appended and the game as it now stands."""

    game_id: uuid.UUID
    version: int
    status: str
    appended: tuple[tuple[int, str], ...]
    summary: dict[str, Any]
    projection: GameProjection | None = field(default=None, compare=False, repr=False)
    """The game's projection as this write saved it (None: a retry's first result), for an
    answer drawn from it without reading it again (a seat phone's tap: games/phone/views.py)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.game_id),
            "version": self.version,
            "status": self.status,
            "appended": [{"version": v, "type": t} for v, t in self.appended],
            "state": self.summary,
        }


def _metadata(user: User | None, request_id: str, seat: SeatAccess | None = None) -> dict[str, Any]:
    known = user is not None and user.is_authenticated
    out = {
        "by": user.get_username() if known and user is not None else None,
        "by_id": user.pk if known and user is not None else None,
        "request_id": request_id or uuid.uuid4().hex,
    }
    if seat is not None:
        out["by_seat"] = seat.seat  # the seat whose phone sent it (its link, not a name)
    return out


MAX_NAME = 100  # GameResult.player
MAX_KEY = 200  # Event.idempotency_key


def _check_request(players: Sequence[str], idempotency_key: str | None) -> None:
    long = [p for p in players if isinstance(p, str) and len(p) > MAX_NAME]
    if long:
        raise Refused(
            _("a player's name has at most %(count)s characters") % {"count": MAX_NAME},
            "bad_players",
            0,
        )
    if idempotency_key is not None and not 1 <= len(idempotency_key) <= MAX_KEY:
        raise Refused(
            _("an idempotency key has 1 to %(count)s characters") % {"count": MAX_KEY},
            "bad_request",
        )


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
                _(
                    "the player name %(name)s must be written %(spelt)s: one spelling for one "
                    "name (composed accents, no leading, trailing or repeated spaces)"
                )
                % {"name": repr(name), "spelt": repr(spelt)},
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
        raise GameNotFound(_("there is no game %(game)s") % {"game": game_id}) from None


def _expect(game: GameProjection, expected_version: int) -> None:
    if game.version != expected_version:
        raise VersionConflict(game.stream_id, expected_version, game.version)


def _open(game: GameProjection) -> None:
    if game.status == VOID:
        raise Refused(_("the game was voided: nothing more can be recorded"), "game_void")


def _view(game_id: uuid.UUID, game_type: GameType, until: int | None = None) -> GameView:
    events = store.read_stream(game_id, until=until)
    return fold_game(((e.type, e.data) for e in events), game_type)


def _project(game: GameProjection, view: GameView, game_type: GameType) -> None:
    """Set what the projection shows of the game from ``view`` (not whether it is published:
    the caller decides), without saving it."""
    game.version = view.version
    game.status = view.status
    game.players = view.players
    game.results_only = view.results is not None
    game.snapshot = game_type.snapshot(view.state)
    game.summary = view.summary


def _save(game: GameProjection, view: GameView, game_type: GameType) -> None:
    """Store a freshly folded view in the projection and its results."""
    was = IN_PROGRESS if game._state.adding else game.status  # a new game starts in progress
    _project(game, view, game_type)
    game.published = view.published
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
            total=p.points,
            last_round=p.last_round,
            tiebreaks=list(p.tiebreaks),
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
            _(
                "this Idempotency-Key was already used for a different request; "
                "use a new key for a new request"
            )
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
        projection=game,
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
