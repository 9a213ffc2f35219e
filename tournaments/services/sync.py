"""Results: game status changes (the outbox) reflected in their tournament, confirmations."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games import outbox
from games import services as games
from games.gametypes import GAME_TYPES
from games.gametypes.base import Placement as GamePlacement
from games.models import Event, StatusChange
from games.projection import FINISHED, RESULTS, RETRACTED, VOIDED
from games.services import User
from tournaments import domain
from tournaments import events as tournament_events
from tournaments.domain import ORGANIZER, SCOREKEEPER, TournamentState
from tournaments.models import TournamentProjection, TournamentTable
from tournaments.results import Placement
from tournaments.services.access import _is_staff, _user_id, said
from tournaments.services.rounds import _maybe_advance
from tournaments.services.writes import TournamentChange, _act


def _entered_by(game_id: uuid.UUID, game_type: str, until: int) -> tuple[int, ...]:
    """Who entered a game's plays or results, up to version ``until`` (for the second-person
    confirmation)."""
    kind_types = GAME_TYPES[game_type].record_types
    entries = Event.objects.filter(stream_id=game_id, version__gt=1, version__lte=until)
    users = {
        e.metadata.get("by_id")
        for e in entries.only("type", "metadata")
        if e.type in kind_types or e.type in (RESULTS, RETRACTED)
    }
    return tuple(sorted(u for u in users if isinstance(u, int)))


def _caused_by(game_id: uuid.UUID, version: int) -> dict[str, Any]:
    """Who acted in the game's event that made a status change (the event at the change's
    version), as the tournament's result event keeps it: ``actor_id``, ``actor`` (username),
    ``actor_seat`` (a seat's phone), and for a correction or a void its ``cause`` (the event's
    type) and the ``reason`` the official typed, as typed. Absent values are left out."""
    event = (
        Event.objects.filter(stream_id=game_id, version=version)
        .only("type", "data", "metadata")
        .first()
    )
    if event is None:
        return {}
    meta = event.metadata or {}
    found: dict[str, Any] = {
        "actor_id": meta.get("by_id") if isinstance(meta.get("by_id"), int) else None,
        "actor": meta.get("by") if isinstance(meta.get("by"), str) else "",
        "actor_seat": meta.get("by_seat") if isinstance(meta.get("by_seat"), int) else None,
    }
    if event.type in (RETRACTED, VOIDED):
        reason = (event.data or {}).get("reason")
        found["cause"] = event.type
        found["reason"] = reason.strip() if isinstance(reason, str) else ""
    return {k: v for k, v in found.items() if v not in (None, "")}


SYNC_BATCH = 100
"""How many status changes one sync task handles at most (the sweep comes back for more)."""


def tournament_sync_pending(
    *, game_id: uuid.UUID | None = None, limit: int = SYNC_BATCH
) -> list[str]:
    """Handle the games' pending status changes (the outbox, :mod:`games.outbox`), oldest first
    and in order per game: each in one transaction that writes the tournament's event and
    marks the change handled, so each is reflected exactly once whatever fails in between.
    ``game_id``: only that game's changes. Returns what was done for each."""
    done: list[str] = []
    while len(done) < limit:
        with transaction.atomic():
            change = outbox.take_next(game_id)
            if change is None:
                break
            outcome = _sync_change(change)
            outbox.mark_handled(change, outcome)
        done.append(outcome)
    return done


def tournament_sync_game(*, game_id: uuid.UUID) -> str:
    """Bring a tournament table's result in line with its game's pending status changes (the
    Celery task's work): record the result of a finished game, withdraw it if the game was
    corrected or voided. Idempotent: running it twice records one result."""
    done = tournament_sync_pending(game_id=game_id)
    return ", ".join(done) if done else "unchanged"


def _placements(
    state: TournamentState, table: domain.Table, results: Sequence[GamePlacement]
) -> tuple[Placement, ...]:
    """A finished game's result as the store recorded it, as the tournament records it: its
    entrants by their ids, each with the game's place, points and tie-breaks."""
    by_name = {state.players[p].name: p for p in table.seats}
    return tuple(
        Placement(
            player=by_name[p.player],
            place=p.rank,
            victory_points=p.points,
            tiebreaks=p.tiebreaks,
        )
        for p in results
    )


def _sync_change(change: StatusChange) -> str:
    """Reflect one status change of a game in its tournament (inside the caller's
    transaction): the result as it was at the change's version."""
    link = TournamentTable.objects.filter(game_id=change.game_id).first()
    if link is None:
        return "not a tournament game"
    game_id = change.game_id
    outcome = {"done": "unchanged"}

    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        found = state.table_of_game(str(game_id))
        if found is None:
            return []
        rnd, table = found
        if change.status == FINISHED:
            if table.result_version == change.version:
                return []
            game_type, results = games.game_placements_at(game_id=game_id, version=change.version)
            placements = _placements(state, table, results)
            if table.result == placements:
                # Finished again with no change between: the same result (a change made anew
                # by a rebuild after a restore, at a later version such as game_published).
                return []
            outcome["done"] = "recorded"
            return [
                tournament_events.ResultRecorded(
                    round=rnd.number,
                    table=table.number,
                    game=str(game_id),
                    game_version=change.version,
                    placements=tuple(p.to_json() for p in placements),
                    entered_by=tuple(_entered_by(game_id, game_type, change.version)),
                    **_caused_by(game_id, change.version),
                )
            ]
        if table.result is None:
            return []
        outcome["done"] = "withdrawn"
        return [
            tournament_events.ResultWithdrawn(
                round=rnd.number,
                table=table.number,
                game=str(game_id),
                **_caused_by(game_id, change.version),
            )
        ]

    _act(
        link.tournament_id, decide, user=None, system=True, after=_maybe_advance(link.tournament_id)
    )
    return outcome["done"]


@dataclasses.dataclass(frozen=True, slots=True)
class ConfirmedTables:
    """What "Confirm all finished tables" did: the tables confirmed (in one append), and the
    finished tables left unconfirmed, each with why this user may not confirm it."""

    change: TournamentChange
    confirmed: tuple[int, ...]
    left: tuple[tuple[int, str], ...]


def _result_version(table: domain.Table) -> int:
    """The game version of a table's recorded result (check_confirm found one)."""
    version = table.result_version
    if version is None:
        raise AssertionError("a recorded result carries its game's version")
    return version


def tournament_confirm_finished(
    *,
    tournament_id: uuid.UUID,
    round: int,
    user: User | None,
    request_id: str = "",
    expected_version: int | None = None,
) -> ConfirmedTables:
    """Confirm every finished, unconfirmed table of a round that this user may confirm (the
    same rules as :func:`tournament_confirm`, table by table), in one transaction. A table the
    user may not confirm (they entered it) is left, with the reason; refused only when no table
    could be confirmed."""
    confirmed: list[int] = []
    left: list[tuple[int, str]] = []

    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        confirmed.clear()  # a retried attempt decides again from scratch
        left.clear()
        rnd = state.round(round)
        if rnd.status == "closed":
            raise domain.Refusal("round_closed", _("round %(round)s is closed") % {"round": round})
        events: list[Any] = []
        for table in rnd.tables:
            if table.result is None or table.confirmed:
                continue
            try:
                found = domain.check_confirm(
                    state, round, table.number, _user_id(user), _is_staff(user)
                )
            except domain.Refusal as refusal:
                left.append((table.number, said(refusal.say)))
                continue
            confirmed.append(table.number)
            events.append(
                tournament_events.ResultConfirmed(
                    round=round,
                    table=table.number,
                    game_version=_result_version(found),
                    by=_user_id(user),
                )
            )
        if events:
            return events
        if left:
            number, why = left[0]
            raise domain.Refusal(
                "cannot_confirm",
                _("table %(table)s is not confirmed: %(why)s") % {"table": number, "why": why},
            )
        raise domain.Refusal(
            "no_result", _("round %(round)s has no finished table to confirm") % {"round": round}
        )

    change = _act(
        tournament_id,
        decide,
        user=user,
        request_id=request_id,
        expected_version=expected_version,
        after=_maybe_advance(tournament_id),
        roles=(ORGANIZER, SCOREKEEPER),
    )
    return ConfirmedTables(change, tuple(confirmed), tuple(left))


def tournament_confirm(
    *,
    tournament_id: uuid.UUID,
    round: int,
    table: int,
    user: User | None,
    request_id: str = "",
    expected_version: int | None = None,
) -> TournamentChange:
    """Confirm a table's result: by an organizer, or by someone who did not enter it."""

    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        found = domain.check_confirm(state, round, table, _user_id(user), _is_staff(user))
        return [
            tournament_events.ResultConfirmed(
                round=round,
                table=table,
                game_version=_result_version(found),
                by=_user_id(user),
            )
        ]

    return _act(
        tournament_id,
        decide,
        user=user,
        request_id=request_id,
        expected_version=expected_version,
        after=_maybe_advance(tournament_id),
        roles=(ORGANIZER, SCOREKEEPER),
    )
