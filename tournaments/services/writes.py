"""The write path every tournament action shares: lock the tournament's row, check who is
asking, let the domain decide, append, fold, save the projections (:func:`_act`)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date as Date
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from games import store
from games.services import Conflict, GameNotFound, User
from games.store import NewEvent, VersionConflict
from tournaments import domain, rounds
from tournaments.domain import ORGANIZER, Refusal, TournamentState
from tournaments.models import TournamentProjection, TournamentRole, TournamentTable
from tournaments.services.access import _metadata, _refused, _require
from tournaments.services.summary import _summary

ATTEMPTS = 5
"""How often a service without an expected version re-decides after a concurrent change."""


class TournamentNotFound(GameNotFound):
    pass


@dataclass(frozen=True, slots=True)
class TournamentChange:
    tournament_id: uuid.UUID
    version: int
    appended: tuple[tuple[int, str], ...]
    state: dict[str, Any]

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": str(self.tournament_id),
            "version": self.version,
            "appended": [{"version": v, "type": t} for v, t in self.appended],
            "tournament": self.state,
        }


def _projection(tournament_id: uuid.UUID, *, lock: bool = False) -> TournamentProjection:
    """The tournament's projection; ``lock``: hold its row until the transaction ends, so that
    writers take turns (and a rebuild cannot write older state over theirs)."""
    projections = (
        TournamentProjection.objects.select_for_update() if lock else TournamentProjection.objects
    )
    try:
        return projections.get(stream_id=tournament_id)
    except TournamentProjection.DoesNotExist:
        raise TournamentNotFound(f"there is no tournament {tournament_id}") from None


def _state(projection: TournamentProjection) -> TournamentState:
    return domain.from_json(projection.state)


def _save(
    projection: TournamentProjection,
    state: TournamentState,
    *,
    events: Sequence[tuple[str, Mapping[str, Any]]] | None = None,
) -> None:
    """Store the folded state and what is derived from it (standings, roles, tables).
    ``events``: the events just folded in, when the state was not refolded: the standings are
    ranked again only if they can change them (ranking every player is the costliest part of a
    save in a big tournament). A drop or a reinstatement only flips the player's mark in their
    row."""
    config = state.config
    projection.name = config.name
    projection.date = Date.fromisoformat(config.date)
    projection.status = state.status
    projection.game_type = config.game_type
    projection.version = state.version
    projection.rounds_planned = config.rounds
    projection.current_round = sum(1 for r in state.rounds if r.status != "proposed")
    projection.state = domain.to_json(state)
    kinds = {kind for kind, _ in events or ()}
    if events is None or projection._state.adding or not kinds <= domain.PLAYERS_MARKED:
        projection.standings = rounds.standings_json(state)
        projection.save()
    elif kinds <= domain.STANDINGS_UNCHANGED:
        projection.save(update_fields=[*_SAVED_FIELDS, "updated_at"])
    else:
        marked = {str(data["player"]) for kind, data in events if kind in domain.PLAYERS_MARKED}
        for row in projection.standings["rows"]:
            if row["player"] in marked:
                row["dropped"] = state.players[row["player"]].dropped
        projection.save()
    _sync_roles(projection, state)
    _sync_tables(projection, state)


_SAVED_FIELDS = (
    "name",
    "date",
    "status",
    "game_type",
    "version",
    "rounds_planned",
    "current_round",
    "state",
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
    events: Sequence[tuple[str, dict[str, Any]]],
    *,
    user: User | None,
    request_id: str,
    system: bool,
) -> TournamentChange:
    """Append decided events at the state's version, fold them in, save the projections.
    Must run inside transaction.atomic."""
    rows = store.append(
        projection.stream_id,
        state.version,
        [NewEvent(kind, data) for kind, data in events],
        metadata=_metadata(user, request_id, system),
    )
    refolded = any(kind == domain.UNDONE for kind, _ in events)
    if refolded:
        state = _fold(projection.stream_id)
    else:
        for row in rows:
            domain.apply(state, row.version, row.type, row.data)
    _save(projection, state, events=None if refolded else events)
    return TournamentChange(
        tournament_id=projection.stream_id,
        version=state.version,
        appended=tuple((r.version, r.type) for r in rows),
        state=_summary(projection, state, user, system),
    )


def _fold(tournament_id: uuid.UUID) -> TournamentState:
    return domain.fold((e.version, e.type, e.data) for e in store.read_stream(tournament_id))


Decision = Callable[[TournamentProjection, TournamentState], Sequence[tuple[str, dict[str, Any]]]]


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
                    return TournamentChange(
                        projection.stream_id,
                        state.version,
                        (),
                        _summary(projection, state, user, system),
                    )
                change = _append(
                    projection, state, events, user=user, request_id=request_id, system=system
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
