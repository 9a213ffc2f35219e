"""The fold: each event applied to the state, in place, never validated (decisions did); undone
events skipped."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from tournaments import events as ev
from tournaments import notes
from tournaments.domain.state import (
    CHECKED_IN,
    CHECKED_OUT,
    CLOCK_SET,
    DELAY_SET,
    DROPPED,
    FINISHED,
    ORGANIZER,
    PAIRED,
    PAIRING_CHANGED,
    REINSTATED,
    ROLE_GRANTED,
    ROLE_REVOKED,
    ROUND_CLOSED,
    SCHEDULED,
    UNDONE,
    Player,
    Round,
    Settings,
    Table,
    TournamentState,
)
from tournaments.results import Placement


def fold(events: Iterable[tuple[int, str, Mapping[str, Any]]]) -> TournamentState:
    """Replay a tournament stream's stored ``(version, type, data)`` events; undone events are
    skipped."""
    events = list(events)
    undone = {int(data["version"]) for _, kind, data in events if kind == UNDONE}
    state = TournamentState()
    for version, kind, data in events:
        if version in undone:
            state.version = version
            state.undone.add(version)
            continue
        apply(state, version, kind, data)
    return state


def apply(state: TournamentState, version: int, kind: str, data: Mapping[str, Any]) -> None:
    """Fold one stored event into the state (in place): parsed, upcast, then applied."""
    apply_event(state, version, ev.parse(kind, data, lambda: _labels(state)))


def _labels(state: TournamentState) -> dict[str, str]:
    """How notes written as prose named the players (name, or id) -> id."""
    labels = {p.name: p.id for p in state.players.values()}
    labels.update({p.id: p.id for p in state.players.values()})
    return labels


def apply_event(state: TournamentState, version: int, event: ev.TournamentEvent) -> None:
    """Fold one typed event into the state (in place). Never validates: decisions did."""
    state.version = version
    handler = _HANDLERS.get(type(event))
    if handler is not None:
        handler(state, event)


def _created(state: TournamentState, event: ev.TournamentCreated) -> None:
    settings = dict(event.settings)
    settings["tiebreaks"] = tuple(settings.get("tiebreaks", ()))
    state.settings = Settings(**settings)
    organizer = event.organizer
    state.roles[organizer["id"]] = {ORGANIZER}
    state.usernames[organizer["id"]] = organizer["username"]


def _settings_changed(state: TournamentState, event: ev.SettingsChanged) -> None:
    changes = dict(event.changes)
    if "tiebreaks" in changes:
        changes["tiebreaks"] = tuple(changes["tiebreaks"])
    state.settings = dataclasses.replace(state.config, **changes)


def _registered(state: TournamentState, event: ev.PlayerRegistered) -> None:
    player = Player(
        id=event.player,
        name=event.name,
        order=len(state.players) + 1,
        rating=event.rating,
        late=bool(event.late),
        checked_in=bool(event.checked_in),
        members=tuple(event.members),
    )
    state.players[player.id] = player


def _player_mark(name: str, value: bool) -> Any:
    def handler(
        state: TournamentState,
        event: ev.PlayerCheckedIn | ev.PlayerCheckedOut | ev.PlayerDropped | ev.PlayerReinstated,
    ) -> None:
        player = state.players.get(event.player)
        if player is not None:
            setattr(player, name, value)

    return handler


def _role_granted(state: TournamentState, event: ev.RoleGranted) -> None:
    state.roles.setdefault(event.user_id, set()).add(event.role)
    state.usernames[event.user_id] = event.username


def _role_revoked(state: TournamentState, event: ev.RoleRevoked) -> None:
    state.roles.get(event.user_id, set()).discard(event.role)


def _tables(raw: Sequence[Sequence[str]]) -> list[Table]:
    return [Table(number=i, seats=tuple(seats)) for i, seats in enumerate(raw, start=1)]


def _paired(state: TournamentState, event: ev.RoundPaired) -> None:
    state.rounds.append(
        Round(
            number=event.round,
            status="proposed",
            tables=_tables(event.tables),
            byes=tuple(event.byes),
            method=event.method,
            seed=event.seed,
            cost=dict(event.cost),
            lower_bound=float(event.lower_bound),
            notes=tuple(dict(n) for n in event.notes),
            details=[dict(d) for d in event.details],
        )
    )
    if state.status == "registration":
        state.status = "running"


def _pairing_changed(state: TournamentState, event: ev.PairingChanged) -> None:
    if len(state.rounds) >= event.round:
        rnd = state.rounds[event.round - 1]
        rnd.tables = _tables(event.tables)
        rnd.byes = tuple(event.byes)
        if event.cost is not None:
            rnd.cost = dict(event.cost)
        rnd.details = [dict(d) for d in event.details]
        swapped = event.change.get("swap")
        if swapped:
            rnd.notes = (*rnd.notes, notes.swapped(swapped[0], swapped[1]))


def _published(state: TournamentState, event: ev.RoundPublished) -> None:
    rnd = state.rounds[event.round - 1]
    rnd.status = "published"
    for entry in event.games:
        rnd.table(entry["table"]).game = entry["game"]


def _scheduled(state: TournamentState, event: ev.PairingScheduled) -> None:
    state.scheduled[event.round] = event.at


def _clock_set(state: TournamentState, event: ev.RoundClockSet) -> None:
    state.rounds[event.round - 1].ends_at = event.ends_at


def _delay_set(state: TournamentState, event: ev.RoundDelaySet) -> None:
    state.rounds[event.round - 1].delay = event.seconds


def _result_recorded(state: TournamentState, event: ev.ResultRecorded) -> None:
    table = state.rounds[event.round - 1].table(event.table)
    table.result = tuple(Placement.from_json(p) for p in event.placements)
    table.result_version = event.game_version
    table.entered_by = tuple(event.entered_by)
    table.confirmed = state.config.confirmation == "auto"
    table.confirmed_by = None


def _result_withdrawn(state: TournamentState, event: ev.ResultWithdrawn) -> None:
    table = state.rounds[event.round - 1].table(event.table)
    table.result = None
    table.result_version = None
    table.confirmed = False
    table.confirmed_by = None


def _result_confirmed(state: TournamentState, event: ev.ResultConfirmed) -> None:
    table = state.rounds[event.round - 1].table(event.table)
    if table.result_version == event.game_version:
        table.confirmed = True
        table.confirmed_by = event.by


def _round_closed(state: TournamentState, event: ev.RoundClosed) -> None:
    state.rounds[event.round - 1].status = "closed"


def _finished(state: TournamentState, event: ev.TournamentFinished) -> None:
    state.status = "finished"


STANDINGS_UNCHANGED: Final = frozenset(
    {
        CHECKED_IN,
        CHECKED_OUT,
        ROLE_GRANTED,
        ROLE_REVOKED,
        PAIRED,
        PAIRING_CHANGED,
        SCHEDULED,
        CLOCK_SET,
        DELAY_SET,
        ROUND_CLOSED,
        FINISHED,
    }
)
"""Events that never change the standings (which depend on the players, the confirmed results,
the byes of published rounds and the scoring settings): a service need not recompute them."""
PLAYERS_MARKED: Final = STANDINGS_UNCHANGED | {DROPPED, REINSTATED}
"""... and events that change no more than a player's dropped mark (ranks ignore it)."""

_HANDLERS: Final[dict[type[ev.TournamentEvent], Any]] = {
    ev.TournamentCreated: _created,
    ev.SettingsChanged: _settings_changed,
    ev.PlayerRegistered: _registered,
    ev.PlayerCheckedIn: _player_mark("checked_in", True),
    ev.PlayerCheckedOut: _player_mark("checked_in", False),
    ev.PlayerDropped: _player_mark("dropped", True),
    ev.PlayerReinstated: _player_mark("dropped", False),
    ev.RoleGranted: _role_granted,
    ev.RoleRevoked: _role_revoked,
    ev.RoundPaired: _paired,
    ev.PairingChanged: _pairing_changed,
    ev.RoundPublished: _published,
    ev.PairingScheduled: _scheduled,
    ev.RoundClockSet: _clock_set,
    ev.RoundDelaySet: _delay_set,
    ev.ResultRecorded: _result_recorded,
    ev.ResultWithdrawn: _result_withdrawn,
    ev.ResultConfirmed: _result_confirmed,
    ev.RoundClosed: _round_closed,
    ev.TournamentFinished: _finished,
}
"""One handler per event type; ``action_undone`` changes nothing itself (:func:`fold` skips
what it undoes)."""
