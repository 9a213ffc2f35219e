"""The relay's delay (docs/relay.md): a spectator sees a game as it stood ``delay`` seconds ago.

The app that owns a game says how long its spectators wait (games.policy.register_delay: a
tournament's round, 0 to 3600 seconds). For anyone who is not one of the game's officials
(games.services.reads.game_sees_hands) the public reads cut the game's log at the last event
recorded at least that long ago, and fold it there: the events, the state, the result and the
record file are the game's *as of* that version, and the hands of a round being played at that
version stay hidden (the game's rule of hidden hands, applied to the game as it stood). A seat's
phone reads through its own paths and is never delayed.

Every version of a stream is immutable, so a game folded up to a version is the same for every
reader and for ever: the folds are kept in this process by ``(game, version)``.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import reduce
from operator import or_
from typing import Any, Final

from django.db.models import Max, Q
from django.utils import timezone

from games import policy
from games.gametypes import GAME_TYPES
from games.models import Event, GameProjection
from games.projection import GameView
from games.recent import Recent
from games.services.common import User, _project, _view

LONGEST: Final = 3600
"""The longest delay any game may have, in seconds: an event older than this is never held
back, whatever the game's delay (the reads skip every question about older games)."""


@dataclass(frozen=True, slots=True)
class Behind:
    """What one reader is shown of a game the relay's delay holds back."""

    delay: int
    """The game's delay, in seconds."""
    at: datetime
    """The moment the reader sees the game as of (now minus the delay)."""
    version: int
    """The last version of the game's stream recorded at or before ``at`` (1 at least: the
    game's start, who sits where, is on the round's pairings already)."""


PUBLIC_STEP: Final = timedelta(milliseconds=250)
"""Every reader who is not logged in is shown the games as of the same moment, the clock
rounded down to this step: what they are shown of a game is worked out once a step in each
process (:func:`behind`), not once a read (a play shows at most this much later)."""

_public: Recent[tuple[uuid.UUID, int, datetime, datetime, int], tuple[Behind | None]] = Recent(4096)
"""What the public is shown of a game at a step, by (game, version, save, step, the delays'
generation: games.policy.delays_changed): a 1-tuple, so that "not late" is kept too."""


def public_moment(now: datetime) -> datetime:
    """``now`` rounded down to :data:`PUBLIC_STEP`."""
    return now - (now - now.replace(second=0, microsecond=0)) % PUBLIC_STEP


def behind(
    games: Iterable[GameProjection], user: User | None, now: datetime | None = None
) -> dict[uuid.UUID, Behind]:
    """The games of ``games`` that ``user`` sees late, and as of what: none for the games'
    officials, none for a game whose delay is 0 or whose every event is older than its delay.
    One query for the delays (the owning app's) and one for the versions, whatever the number
    of games; for a reader who is not logged in, none for a game already worked out at this
    :data:`PUBLIC_STEP` in this process (its version and save unchanged)."""
    now = now or timezone.now()
    recent = [g for g in games if g.updated_at > now - timedelta(seconds=LONGEST)]
    if not recent:
        return {}
    if user is not None and user.is_authenticated:
        return _behind(recent, user, now)
    moment, generation = public_moment(now), policy.delay_generation()
    out: dict[uuid.UUID, Behind] = {}
    missing = []
    for game in recent:
        held = _public.get((game.stream_id, game.version, game.updated_at, moment, generation))
        if held is None:
            missing.append(game)
        elif held[0] is not None:
            out[game.stream_id] = held[0]
    if missing:
        worked = _behind(missing, user, moment)
        for game in missing:
            found = worked.get(game.stream_id)
            key = (game.stream_id, game.version, game.updated_at, moment, generation)
            _public.put(key, (found,))
            if found is not None:
                out[game.stream_id] = found
    return out


def _behind(
    recent: list[GameProjection], user: User | None, now: datetime
) -> dict[uuid.UUID, Behind]:
    from games.services.reads import game_sees_hands  # reads import this module

    delays = policy.spectator_delays([g.stream_id for g in recent])
    cuts: dict[uuid.UUID, tuple[int, datetime]] = {}
    for game in recent:
        seconds = delays.get(game.stream_id, 0)
        at = now - timedelta(seconds=seconds)
        if seconds > 0 and game.updated_at > at and not game_sees_hands(game=game, user=user):
            cuts[game.stream_id] = (seconds, at)
    if not cuts:
        return {}
    by_cut: dict[datetime, list[uuid.UUID]] = {}
    for g, (_, at) in cuts.items():  # a round's tables share their cut: one condition for them
        by_cut.setdefault(at, []).append(g)
    wanted = reduce(or_, (Q(stream_id__in=ids, recorded_at__lte=at) for at, ids in by_cut.items()))
    versions = dict(
        Event.objects.filter(wanted)
        .values("stream_id")
        .annotate(last=Max("version"))
        .values_list("stream_id", "last")
    )
    out: dict[uuid.UUID, Behind] = {}
    for game in recent:
        if game.stream_id not in cuts:
            continue
        seconds, at = cuts[game.stream_id]
        version = max(1, int(versions.get(game.stream_id) or 0))
        if version < game.version:  # else nothing is held back after all
            out[game.stream_id] = Behind(seconds, at, version)
    return out


def behind_one(game: GameProjection, user: User | None) -> Behind | None:
    """:func:`behind` for one game."""
    return behind([game], user).get(game.stream_id)


_folds: Recent[tuple[uuid.UUID, int], GameView] = Recent(1024)


def folded(game_id: uuid.UUID, game_type: str, version: int) -> GameView:
    """The game folded up to ``version`` (kept: a version never changes). Do not change it."""
    key = (game_id, version)
    view = _folds.get(key)
    if view is None:
        view = _view(game_id, GAME_TYPES[game_type], until=version)
        _folds.put(key, view)
    return view


def as_seen(game: GameProjection, late: Behind) -> GameProjection:
    """A copy of the game's projection as it stood at ``late.version``: its version, status,
    players, snapshot and summary then (never saved: saving it raises). ``behind`` on it says
    how late it is."""
    view = folded(game.stream_id, game.game_type, late.version)
    seen = copy.copy(game)
    _project(seen, view, GAME_TYPES[game.game_type])  # published: as it is now
    seen.behind = late  # type: ignore[attr-defined]
    seen.save = _never_saved  # type: ignore[method-assign]
    return seen


def _never_saved(*args: Any, **kwargs: Any) -> None:
    raise RuntimeError("a game as a spectator sees it (games.services.relay.as_seen) is not saved")


def seen_games(
    games: Iterable[GameProjection], user: User | None, now: datetime | None = None
) -> dict[uuid.UUID, GameProjection]:
    """Each game as ``user`` sees it now (itself, or :func:`as_seen` where it is late)."""
    games = list(games)
    late = behind(games, user, now)
    return {g.stream_id: as_seen(g, late[g.stream_id]) if g.stream_id in late else g for g in games}


def delay_of(game: Any) -> Behind | None:
    """How late the game is shown to the reader it was read for (None: as it is)."""
    found: Behind | None = getattr(game, "behind", None)
    return found


def late_summary(games: Mapping[uuid.UUID, GameProjection]) -> dict[uuid.UUID, int]:
    """The delay in seconds of each game shown late (for a page that says so)."""
    return {g: late.delay for g, p in games.items() if (late := delay_of(p)) is not None}
