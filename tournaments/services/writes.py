"""The write path every tournament action shares: lock the tournament's row, check who is
asking, let the domain decide, append, fold, save the projections (:func:`_act`)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date as Date
from functools import cached_property
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from games import policy, store
from games.services import Conflict, GameNotFound, User
from games.store import NewEvent, VersionConflict
from tournaments import domain, rounds, timezones
from tournaments import events as tournament_events
from tournaments.domain import ORGANIZER, Refusal, TournamentState
from tournaments.models import TournamentProjection, TournamentRole, TournamentTable
from tournaments.services import snapshots
from tournaments.services.access import _metadata, _refused, _require
from tournaments.services.summary import _summary
from tournaments.signals import tournament_appended

ATTEMPTS = 5
"""How often a service without an expected version re-decides after a concurrent change."""


class TournamentNotFound(GameNotFound):
    pass


@dataclass(frozen=True, eq=False)
class TournamentChange:
    """What an action did: the tournament's new version, the events appended, and (built when
    first read: a result's worker never needs it) the tournament as the acting user sees it."""

    tournament_id: uuid.UUID
    version: int
    appended: tuple[tuple[int, str], ...]
    summarize: Callable[[], dict[str, Any]] = field(repr=False)

    @cached_property
    def state(self) -> dict[str, Any]:
        return self.summarize()

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.tournament_id),
            "version": self.version,
            "appended": [{"version": v, "type": t} for v, t in self.appended],
            "tournament": self.state,
        }


def _change(
    projection: TournamentProjection,
    state: TournamentState,
    appended: tuple[tuple[int, str], ...],
    user: User | None,
    system: bool,
) -> TournamentChange:
    """The change, its summary built from ``state`` while it is still at this version (the state
    is cached and folded on by later actions: after that, from the stream up to the version)."""
    tournament_id, version = projection.stream_id, state.version

    def summarize() -> dict[str, Any]:
        at = state if state.version == version else _fold(tournament_id, until=version)
        return _summary(projection, at, user, system)

    return TournamentChange(tournament_id, version, appended, summarize)


def _projection(tournament_id: uuid.UUID, *, lock: bool = False) -> TournamentProjection:
    """The tournament's projection, without its big columns (``state``, ``standings``: loaded
    if read); ``lock``: hold its row until the transaction ends, so that writers take turns (and
    a rebuild cannot write older state over theirs)."""
    projections = TournamentProjection.objects.defer(*snapshots.BIG_COLUMNS)
    if lock:
        projections = projections.select_for_update()
    try:
        return projections.get(stream_id=tournament_id)
    except TournamentProjection.DoesNotExist:
        raise TournamentNotFound(
            _("there is no tournament %(tournament)s") % {"tournament": tournament_id}
        ) from None


def _state(projection: TournamentProjection) -> TournamentState:
    """The tournament's state at the projection's version: for reading, never mutate it."""
    return snapshots.current(projection)


ROLES_CHANGED = frozenset({domain.CREATED, domain.ROLE_GRANTED, domain.ROLE_REVOKED})
TABLES_CHANGED = frozenset({domain.PUBLISHED})
ZONE_CHANGED = frozenset({domain.SETTINGS_CHANGED, domain.UNDONE})
"""Events after which a tournament's time zone may differ (tournaments.timezones)."""
DELAY_CHANGED = frozenset({domain.DELAY_SET, domain.SETTINGS_CHANGED, domain.UNDONE})
"""Events after which a round's relay delay may differ (games.policy.delays_changed)."""


def _save(
    projection: TournamentProjection,
    state: TournamentState,
    *,
    events: Sequence[tuple[str, Mapping[str, Any]]] | None = None,
) -> None:
    """Store the folded state and what is derived from it (standings, roles, tables).
    ``events``: the events just folded in, when the state was not refolded; then the snapshot
    is written only when due (:mod:`~tournaments.services.snapshots`), roles and tables synced
    only after events that change them, and the standings, when they cannot change, kept
    current; when they can, left stale for the next read to rank again
    (:func:`~tournaments.services.reads.current_standings`: ranking every player is the costliest
    part of an event in a big tournament). A drop or a reinstatement only flips the player's
    mark in their (current) row. Without ``events`` (a new tournament, a refold, a rebuild),
    everything is written."""
    config = state.config
    was_current = projection.standings_version == projection.version
    projection.name = config.name
    projection.date = Date.fromisoformat(config.date)
    projection.status = state.status
    projection.game_type = config.game_type
    projection.version = state.version
    projection.rounds_planned = config.rounds
    projection.current_round = sum(1 for r in state.rounds if r.status != "proposed")
    kinds = {kind for kind, _ in events or ()}
    everything = events is None or projection._state.adding
    fields = [*_SAVED_FIELDS, "updated_at"]
    if everything or snapshots.due(projection, state):
        projection.state = domain.to_json(state)
        projection.snapshot_version = state.version
        fields += ["state", "snapshot_version"]
    if everything:
        projection.standings = rounds.standings_json(state)
        projection.standings_version = state.version
        projection.save()
    else:
        if was_current and kinds <= domain.STANDINGS_UNCHANGED:
            projection.standings_version = state.version
            fields.append("standings_version")
        elif was_current and kinds <= domain.PLAYERS_MARKED:
            marked = {str(d["player"]) for kind, d in events or () if kind in domain.PLAYERS_MARKED}
            standings = projection.standings
            for row in standings["rows"]:
                if row["player"] in marked:
                    row["dropped"] = state.players[row["player"]].dropped
            projection.standings = standings
            projection.standings_version = state.version
            fields += ["standings", "standings_version"]
        projection.save(update_fields=fields)
    if everything or kinds & ROLES_CHANGED:
        _sync_roles(projection, state)
    if everything or kinds & TABLES_CHANGED:
        _sync_tables(projection, state)


_SAVED_FIELDS = (
    "name",
    "date",
    "status",
    "game_type",
    "version",
    "rounds_planned",
    "current_round",
)


def _sync_roles(projection: TournamentProjection, state: TournamentState) -> None:
    wanted = {(uid, role) for uid, roles in state.roles.items() for role in roles}
    existing = set(
        TournamentRole.objects.filter(tournament=projection).values_list("user_id", "role")
    )
    if wanted == existing:
        return
    TournamentRole.objects.filter(tournament=projection).delete()
    known = set(
        get_user_model()
        .objects.filter(pk__in={uid for uid, _ in wanted})
        .values_list("pk", flat=True)
    )
    TournamentRole.objects.bulk_create(
        TournamentRole(tournament=projection, user_id=uid, role=role)
        for uid, role in sorted(wanted)
        if uid in known
    )


def _sync_tables(projection: TournamentProjection, state: TournamentState) -> None:
    name = {p.id: p.name for p in state.players.values()}
    have = set(TournamentTable.objects.filter(tournament=projection).values_list("round", "number"))
    for rnd in state.rounds:
        for table in rnd.tables:
            if table.game is None or (rnd.number, table.number) in have:
                continue
            TournamentTable.objects.create(
                tournament=projection,
                round=rnd.number,
                number=table.number,
                game_id=uuid.UUID(table.game),
                seats=[name[p] for p in table.seats],
            )


def _append(
    projection: TournamentProjection,
    state: TournamentState,
    decided: Sequence[tournament_events.TournamentEvent],
    *,
    user: User | None,
    request_id: str,
    system: bool,
) -> TournamentChange:
    """Append decided events (typed: tournaments.events) at the state's version, fold them in
    (``state`` is the writer's, from :func:`snapshots.take`), save the projections. Must run
    inside transaction.atomic."""
    events = [(tournament_events.type_name(e), tournament_events.to_data(e)) for e in decided]
    rows = store.append(
        projection.stream_id,
        state.version,
        [NewEvent(kind, data) for kind, data in events],
        metadata=_metadata(user, request_id, system),
    )
    types = tuple(kind for kind, _ in events)
    transaction.on_commit(
        lambda: tournament_appended.send(
            sender=TournamentProjection, tournament_id=projection.stream_id, types=types
        )
    )
    if any(kind in ZONE_CHANGED for kind, _ in events):
        timezones.forget(projection.stream_id)  # the zone pages show may have changed
    if any(kind in DELAY_CHANGED for kind, _ in events):
        # What this process keeps of the spectators' cut is stale: now, and again once it is
        # committed (a read in between may have kept the cut as before it).
        policy.delays_changed()
        transaction.on_commit(policy.delays_changed)
    refolded = any(kind == domain.UNDONE for kind, _ in events)
    if refolded:  # an undo changes the past: fold again (and write the snapshot: see load)
        state = _fold(projection.stream_id)
    else:
        for row in rows:
            domain.apply(state, row.version, row.type, row.data)
    _save(projection, state, events=None if refolded else events)
    snapshots.keep(projection, state, rows[-1])
    return _change(projection, state, tuple((r.version, r.type) for r in rows), user, system)


def _fold(tournament_id: uuid.UUID, until: int | None = None) -> TournamentState:
    events = store.read_stream(tournament_id, until=until)
    return domain.fold((e.version, e.type, e.data) for e in events)


Decision = Callable[
    [TournamentProjection, TournamentState], Sequence[tournament_events.TournamentEvent]
]
"""A write's decision: the typed events to append (none: nothing to do)."""


def _act(
    tournament_id: uuid.UUID,
    decide: Decision,
    *,
    user: User | None,
    request_id: str = "",
    expected_version: int | None = None,
    system: bool = False,
    after: Callable[[TournamentState], None] | None = None,
    roles: tuple[str, ...] = (ORGANIZER,),
) -> TournamentChange:
    """Decide and append in one transaction, holding the tournament row's lock: writers of one
    tournament take turns instead of deciding on the same state and then failing at the append
    (result syncs running at once would burn each other's retries). A version that moved
    anyway (a stream written without the projection's lock) is re-read and re-decided unless
    the caller named the version it expects. Who may act (``roles``) is checked first, then the
    version, then the decision."""
    for attempt in range(ATTEMPTS):
        try:
            with transaction.atomic():
                projection = _projection(tournament_id, lock=True)
                state = _state(projection)
                _require(state, user, *roles, system=system)
                if expected_version is not None and state.version != expected_version:
                    raise VersionConflict(tournament_id, expected_version, state.version)
                try:
                    events = decide(projection, state)
                except Refusal as refusal:
                    raise _refused(refusal) from None
                if not events:  # nothing to do (an idempotent task running again)
                    if after is not None:
                        after(state)  # what should follow may have been lost: ask again
                    return _change(projection, state, (), user, system)
                change = _append(
                    projection,
                    snapshots.take(projection),
                    events,
                    user=user,
                    request_id=request_id,
                    system=system,
                )
                if after is not None:
                    after(_state(projection))
                return change
        except VersionConflict as conflict:
            if expected_version is not None or attempt == ATTEMPTS - 1:
                projection = _projection(tournament_id)
                raise Conflict(
                    projection.version,
                    _summary(projection, _state(projection), user, system),
                    conflict.expected,
                    what="tournament",
                ) from None
    raise AssertionError("unreachable")
