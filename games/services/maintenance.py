"""Rebuilding and comparing projections from the log (the games' and, through registration,
the other apps')."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Model, QuerySet

from games.gametypes import DEFAULT_GAME_TYPE, GameType
from games.models import Event, GameProjection, Stream
from games.projection import (
    FINISHED,
    GameView,
)
from games.services.common import _game_type, _projection, _save, _view


@dataclass(frozen=True, slots=True)
class Difference:
    game_id: uuid.UUID | str
    """What differs: a game or tournament id, or another projection's key (a rating)."""
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
            (
                r.player,
                r.seat,
                r.rank,
                r.total,
                r.last_round,
                tuple(r.tiebreaks),
                tuple(r.round_scores),
            )
            for r in game.results.all()
        )
        if not game._state.adding
        else []
    )
    expected_results = sorted(
        (p.player, p.seat, p.rank, p.points, p.last_round, p.tiebreaks, p.round_scores)
        for p in (kind.placements(view.summary) if view.status == FINISHED else [])
    )
    if stored_results != expected_results:
        found.append(Difference(game.stream_id, "results", stored_results, expected_results))
    return found
