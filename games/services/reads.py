"""Game reads: projections, logs and records, with unplayed hands hidden from whoever may not
see them."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import ModuleType
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.registry import RULES
from engine.statistics import PlayerStatistics
from games import policy, store
from games.gametypes import GAME_TYPES, game_module
from games.gametypes.base import Placement
from games.models import Event, GameProjection
from games.projection import (
    FINISHED,
    IN_PROGRESS,
    GameView,
)
from games.services.common import User, _game_type, _projection, _view
from games.services.errors import GameNotFound, NotAllowed, Refused
from games.services.relay import LONGEST, as_seen, behind, behind_one, folded


def game_get(*, game_id: uuid.UUID, user: User | None = None) -> GameProjection:
    game = _projection(game_id)
    if not game.published and (user is None or not user.is_authenticated):
        raise GameNotFound(_("there is no game %(game)s") % {"game": game_id})  # not public
    return game


def game_get_seen(*, game_id: uuid.UUID, user: User | None = None) -> GameProjection:
    """:func:`game_get`, as ``user`` sees the game now: as it stood the relay's delay ago for a
    spectator of a delayed game (games.services.relay; never save it)."""
    game = game_get(game_id=game_id, user=user)
    late = behind_one(game, user)
    return game if late is None else as_seen(game, late)


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
    (the game's ``GameType.hands``). The stored event itself never changes."""

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


def hands_of(game_type: str) -> ModuleType | None:
    """The game's rule of hidden hands (``GameType.hands``: games/tricknchef/hands.py), None for
    a game whose record holds nothing a reader may not see while it is played."""
    return game_module(game_type, "hands")


Secret = tuple[ModuleType, Any]
"""A game's rule of hidden hands and what one reader may not see of its stream (its
``Hidden``)."""


def _card_types() -> frozenset[str]:
    """The event types that may name a secret card, in any registered game."""
    found: set[str] = set()
    for key in GAME_TYPES:
        rule = hands_of(key)
        if rule is not None:
            found |= rule.CARD_TYPES
    return frozenset(found)


def _hidden(games: Iterable[GameProjection], user: User | None) -> dict[uuid.UUID, Secret]:
    """What ``user`` may not see of each of these games: decided once per game (the policy's
    queries), and one query for all their deals."""
    rules = {g.stream_id: hands_of(g.game_type) for g in games}
    playing = [
        g
        for g in games
        if (rule := rules[g.stream_id]) is not None
        and g.status == IN_PROGRESS
        and rule.held_cards(g.snapshot)
    ]
    secret = [g for g in playing if not game_sees_hands(game=g, user=user)]
    if not secret:
        return {}
    starts: dict[uuid.UUID, list[tuple[int, int]]] = {g.stream_id: [] for g in secret}
    dealt = {rule.ROUND_STARTED for g in secret if (rule := rules[g.stream_id]) is not None}
    rows = Event.objects.filter(stream_id__in=starts, type__in=dealt).values_list(
        "stream_id", "version", "data__round"
    )
    for stream_id, version, number in rows:
        starts[stream_id].append((version, int(number or 0)))
    out: dict[uuid.UUID, Secret] = {}
    for game in secret:
        rule = rules[game.stream_id]
        assert rule is not None
        hidden = rule.round_in_progress(game.snapshot, starts[game.stream_id])
        if hidden is not None:
            out[game.stream_id] = (rule, hidden)
    return out


def _redacted(e: Event, secret: Secret | None) -> Any:
    if secret is None:
        return e.data
    rule, hidden = secret
    return rule.redact(e.version, e.type, e.data, hidden)


def _shown(events: Iterable[Event], hidden: Mapping[uuid.UUID, Secret]) -> list[ShownEvent]:
    return [
        ShownEvent(
            id=e.id,
            stream_id=e.stream_id,
            version=e.version,
            type=e.type,
            data=_redacted(e, hidden.get(e.stream_id)),
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
    from anyone but its officials; a spectator of a delayed game gets it up to the version
    recorded the delay ago, and the game as it stood then (games.services.relay)."""
    game = game_get(game_id=game_id, user=user)
    late = behind_one(game, user)
    if late is not None:
        seen = as_seen(game, late)
        events = store.read_stream(game_id, since=since, until=late.version)
        return seen, _shown(events, _hidden([seen], user))
    events = store.read_stream(game_id, since=since)
    if events and events[-1].version > game.version:  # an append committed in between
        game.refresh_from_db(fields=["version", "status", "snapshot", "updated_at"])
        late = behind_one(game, user)  # that append may be one to hold back
        if late is not None:
            seen = as_seen(game, late)
            kept = [e for e in events if e.version <= late.version]
            return seen, _shown(kept, _hidden([seen], user))
        game.version = max(game.version, events[-1].version)  # hide what that append dealt
    return game, _shown(events, _hidden([game], user))


def log_read(
    *, after: store.Cursor = store.START, limit: int = 500, user: User | None = None
) -> list[ShownEvent]:
    """The global log after ``after`` (games/store.py), each game's hands of a round being
    played hidden from anyone but its officials: decided once per game in the page.

    The log is one sequence: where the relay's delay holds a game back from this reader
    (games.services.relay), the page ends before that game's first event still held back, so
    that a reader who follows the log with the last event's cursor misses nothing (the rest
    comes once the delay has passed)."""
    events = store.read_all(after=after, limit=limit)
    fields = ("stream_id", "status", "snapshot", "created_by", "game_type", "version", "updated_at")
    now = timezone.now()
    recent = {e.stream_id for e in events if e.recorded_at > now - timedelta(seconds=LONGEST)}
    seen: dict[uuid.UUID, GameProjection] = {}
    if recent:
        current = list(GameProjection.objects.filter(stream_id__in=recent).only(*fields))
        late = behind(current, user, now)
        if late:
            held = next(
                (
                    n
                    for n, e in enumerate(events)
                    if e.stream_id in late and e.version > late[e.stream_id].version
                ),
                None,
            )
            if held is not None:
                events = events[:held]
            seen = {g: as_seen(p, late[g]) for p in current if (g := p.stream_id) in late}
    card_types = _card_types()
    with_cards = {e.stream_id for e in events if e.type in card_types}
    games = [
        *(
            GameProjection.objects.filter(stream_id__in=with_cards - set(seen), status=IN_PROGRESS)
            .only(*fields)
            .iterator()
            if with_cards - set(seen)
            else ()
        ),
        *(p for g, p in seen.items() if g in with_cards and p.status == IN_PROGRESS),
    ]
    return _shown(events, _hidden(games, user))


def game_check_write(*, game_id: uuid.UUID, user: User | None) -> GameProjection:
    """The game, if ``user`` may record its plays (else NotAllowed): lets a page say so before
    the first tap. Every write checks again."""
    game = _projection(game_id)
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("log in to enter a table"))
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
            _("this game was entered as results only: it has no play-by-play record to export"),
            "results_only",
        )
    game.refresh_from_db(fields=["status", "snapshot", "version", "updated_at"])
    late = behind_one(game, user)
    if late is not None:  # a spectator of a delayed game: the record as it stood then
        view = folded(game_id, game.game_type, late.version)
        game = as_seen(game, late)
    secret = _hidden([game], user).get(game.stream_id)
    if secret is not None:  # a round is being played: its deal is not for everyone yet
        return kind.write_record(secret[0].finished_rounds(view.record_events))
    return kind.write_record(view.record_events)


def game_view(
    *, game_id: uuid.UUID, user: User | None = None, until: int | None = None
) -> GameView:
    """The game folded from its log (for history pages and checks), up to ``until``, and for a
    spectator of a delayed game up to the version recorded the delay ago at most
    (games.services.relay). It holds every hand: a page shows a reader who does not see them
    (game_sees_hands) only the cards played."""
    game = game_get(game_id=game_id, user=user)
    late = behind_one(game, user)
    # Never past the version the cut was decided at: an append committing meanwhile waits
    # for the next read (where it may be one to hold back).
    last = late.version if late is not None else game.version
    until = last if until is None else min(until, last)
    return _view(game_id, _game_type(game.game_type), until=until)


def game_placements_at(*, game_id: uuid.UUID, version: int) -> tuple[str, list[Placement]]:
    """The game's type and its result as of ``version``, one :class:`Placement` an entrant in
    rank order (for consumers of its status changes; no permission check: the caller is the
    system): the results the store recorded when that is the game's current version, else as
    the game's type ranks it at that version (a later change was made since)."""
    game = _projection(game_id)
    if game.version == version:
        stored = [r.placement() for r in game.results.all()]
        if stored:
            return game.game_type, stored
    kind = _game_type(game.game_type)
    at = game.summary if game.version == version else _view(game_id, kind, until=version).summary
    return game.game_type, kind.placements(at)


def game_play_statistics(*, game_id: uuid.UUID, version: int) -> dict[str, PlayerStatistics]:
    """What the game's rules mine from its play log as of ``version`` (engine.statistics), by
    player name as the record names them: nothing for a game entered as results only, a game
    whose rules mine nothing, or one not finished at that version. For consumers of results
    (the club's statistics); no permission check: the caller is the system."""
    game = _projection(game_id)
    rules = RULES.get(game.game_type)
    mine = getattr(rules, "statistics", None)
    if mine is None or (game.results_only and game.version == version):
        return {}  # no plays to mine (a results-only game is not replayed for nothing)
    view = _view(game_id, _game_type(game.game_type), until=version)
    if view.results is not None or view.status != FINISHED:
        return {}
    found: dict[str, PlayerStatistics] = mine(view.record_events)
    return found
