"""Rounds: pairing, manual changes, publishing, closing, scheduling, advancing, undo."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import services as games
from games import store
from games.gametypes import GAME_TYPES
from games.services import Refused, User
from tournaments import domain, events, pairing, ports, rounds
from tournaments.domain import Refusal, TournamentState
from tournaments.models import TournamentProjection
from tournaments.pairing import headtohead
from tournaments.services import snapshots
from tournaments.services.writes import TournamentChange, _act, _projection, _state


def _sizes(state: TournamentState, only: domain.Round | None = None) -> tuple[int, ...]:
    """The table sizes the next round is paired with: the game's sizes up to the organizer's
    preferred size (all of them when none was chosen). With ``only`` (a proposed round, to
    re-cost after a swap), the sizes its tables have too (the setting may have changed)."""
    config = state.config
    sizes = domain.pairing_sizes(GAME_TYPES[config.game_type].table_sizes, config.table_size)
    if only is not None:
        return tuple(sorted(set(sizes) | {len(t.seats) for t in only.tables}))
    return sizes


def _head_to_head(state: TournamentState) -> bool:
    """Whether the game is played by two entrants a table (Crazy Kitchen's two teams): then
    rounds are paired head to head, with sides (tournaments.pairing.headtohead)."""
    return tuple(GAME_TYPES[state.config.game_type].table_sizes) == (2,)


def _h2h_request(
    state: TournamentState, request: pairing.PairingRequest
) -> headtohead.HeadToHeadRequest:
    played = [[t.seats for t in r.tables] for r in state.rounds if r.status != "proposed"]
    return headtohead.request_from_entrants(
        request.entrants,
        headtohead.sides_from_tables(played),
        shuffle_seed=request.seed if request.method == "random" else None,
    )


def _h2h_cost(cost: headtohead.HeadToHeadCost) -> dict[str, Any]:
    return {
        "repeats": cost.repeats,
        "side_violations": cost.side_violations,
        "score_difference": str(cost.score_difference),
        "side_preferences": cost.side_preferences,
    }


def _h2h_event(
    number: int, request: pairing.PairingRequest, result: headtohead.HeadToHeadPairing
) -> events.RoundPaired:
    """The ``round_paired`` event of a head-to-head pairing: each table's seats are the entrant
    who starts as the cooks (seat 1, who cooks first), then the one who starts as customers."""
    tables = [[m.cooks, m.customers] for m in result.matches]
    return events.RoundPaired(
        round=number,
        method=result.method,
        seed=request.seed,
        tables=tuple(tuple(t) for t in tables),
        byes=() if result.bye is None else (result.bye,),
        cost=_h2h_cost(result.cost),
        notes=result.notes,
        details=tuple(rounds.table_details(request, tables)),
    )


def tournament_pair(
    *,
    tournament_id: uuid.UUID,
    round: int | None = None,
    user: User | None = None,
    system: bool = False,
    request_id: str = "",
    expected_version: int | None = None,
) -> TournamentChange:
    """Propose the tables of the next round (an event; review, swap, then publish)."""

    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        number = len(state.rounds) + 1 if round is None else round
        domain.check_can_pair(state, number)
        request = rounds.pairing_request(state, number, _sizes(state))
        if _head_to_head(state):
            matched = headtohead.pair_head_to_head(_h2h_request(state, request))
            return [_h2h_event(number, request, matched)]
        try:
            result = pairing.pair(request)
        except ValueError as error:
            raise Refusal("cannot_pair", str(error)) from None
        return [rounds.round_event(number, request, result)]

    return _act(
        tournament_id,
        decide,
        user=user,
        request_id=request_id,
        expected_version=expected_version,
        system=system,
    )


def tournament_swap(
    *,
    tournament_id: uuid.UUID,
    round: int,
    a: str,
    b: str,
    user: User | None,
    request_id: str = "",
    expected_version: int | None = None,
) -> TournamentChange:
    """Swap two players (between tables, or two seats of one table) before publishing."""

    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        tables = domain.decide_swap(state, round, a, b)
        rnd = state.round(round)
        request = rounds.pairing_request(state, round, _sizes(state, rnd), only=rnd)
        if _head_to_head(state):
            matches = [(seats[0], seats[1]) for seats in tables]
            cost = _h2h_cost(headtohead.cost_of_matches(_h2h_request(state, request), matches))
        else:
            cost = rounds.cost_json(pairing.cost_of(tables, request))
        return [
            events.PairingChanged(
                round=round,
                change={"swap": [a, b]},
                tables=tuple(tuple(t) for t in tables),
                byes=tuple(state.round(round).byes),
                cost=cost,
                details=tuple(rounds.table_details(request, tables)),
            )
        ]

    return _act(
        tournament_id, decide, user=user, request_id=request_id, expected_version=expected_version
    )


def tournament_publish(
    *,
    tournament_id: uuid.UUID,
    round: int,
    user: User | None = None,
    system: bool = False,
    request_id: str = "",
    expected_version: int | None = None,
) -> TournamentChange:
    """Publish a round: each table becomes a game (seat 1 is round 1's first player) with a
    private link for each seat (docs/tournaments.md, "Seat links"), and the pairings become
    public."""

    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        kind = GAME_TYPES[state.config.game_type]
        rnd = domain.check_publish(state, round, teams=kind.teams)
        name = {p.id: p.name for p in state.players.values()}
        organizer = user if user is not None and user.is_authenticated else None
        games_created = []
        for table in rnd.tables:
            players = [name[p] for p in table.seats]
            options = kind.table_options(len(players))
            if kind.teams:  # the teams' players; seat 1 is the team that cooks first
                options["members"] = {name[p]: list(state.players[p].members) for p in table.seats}
            change = games.game_create(
                players=players,
                suits=options.get("suits"),
                options={k: v for k, v in options.items() if k != "suits"} or None,
                published=True,
                game_type=kind.key,
                user=organizer,
                request_id=request_id,
                idempotency_key=f"tournament:{projection.stream_id}:r{round}:t{table.number}",
            )
            # Each seat's private link (games.seats), in this transaction: a table is never
            # published without them. Idempotent, as the game is (a retried decision).
            games.seat_links_issue(game_id=change.game_id, user=None)
            games_created.append({"table": table.number, "game": str(change.game_id)})
        return [events.RoundPublished(round=round, games=tuple(games_created))]

    return _act(
        tournament_id,
        decide,
        user=user,
        request_id=request_id,
        expected_version=expected_version,
        system=system,
    )


def tournament_schedule(
    *,
    tournament_id: uuid.UUID,
    round: int,
    at: datetime,
    user: User | None,
    request_id: str = "",
    expected_version: int | None = None,
) -> TournamentChange:
    """Pair (and publish, if the tournament publishes automatically) round ``round`` at a set
    time, once the round before is complete."""

    when = at if timezone.is_aware(at) else timezone.make_aware(at)

    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        if round != len(state.rounds) + 1:
            raise Refusal(
                "wrong_round",
                _("the next round to pair is round %(round)s") % {"round": len(state.rounds) + 1},
            )
        if round > state.config.rounds:
            raise Refusal(
                "no_more_rounds",
                ngettext(
                    "the tournament has %(rounds)s round",
                    "the tournament has %(rounds)s rounds",
                    state.config.rounds,
                )
                % {"rounds": state.config.rounds},
            )
        return [events.PairingScheduled(round=round, at=when.isoformat())]

    return _act(
        tournament_id, decide, user=user, request_id=request_id, expected_version=expected_version
    )


def tournament_set_clock(
    *,
    tournament_id: uuid.UUID,
    round: int,
    ends_at: datetime | None = None,
    minutes: int | None = None,
    stop: bool = False,
    user: User | None,
    request_id: str = "",
    expected_version: int | None = None,
    now: datetime | None = None,
) -> TournamentChange:
    """Set round ``round``'s clock: it ends at ``ends_at``, or ``minutes`` from now; with
    ``stop``, the clock is stopped (the round has no end time)."""
    now = now or timezone.now()
    if [ends_at is not None, minutes is not None, stop].count(True) != 1:
        raise Refused(_("give one of: the time the round ends, its minutes, or stop"), "bad_clock")
    if stop:
        when = None
    elif minutes is not None:
        when = now + timedelta(minutes=minutes)
    elif ends_at is not None:
        when = ends_at if timezone.is_aware(ends_at) else timezone.make_aware(ends_at)
    else:
        raise AssertionError("unreachable: one of the three was given")
    when = when.replace(microsecond=0) if when is not None else None

    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        domain.check_clock(state, round, when, now)
        return [
            events.RoundClockSet(
                round=round,
                ends_at=None if when is None else when.isoformat(),
                minutes=minutes if not stop else None,
            )
        ]

    return _act(
        tournament_id, decide, user=user, request_id=request_id, expected_version=expected_version
    )


def tournament_set_delay(
    *,
    tournament_id: uuid.UUID,
    round: int,
    seconds: int | None,
    user: User | None,
    request_id: str = "",
    expected_version: int | None = None,
) -> TournamentChange:
    """Set how long spectators wait to see round ``round``'s tables (0 to 3600 seconds), or,
    with ``seconds`` None, give the round back the tournament's delay (docs/relay.md)."""

    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        domain.check_delay(state, round, seconds)
        return [events.RoundDelaySet(round=round, seconds=seconds)]

    return _act(
        tournament_id, decide, user=user, request_id=request_id, expected_version=expected_version
    )


def tournament_close_round(
    *,
    tournament_id: uuid.UUID,
    round: int,
    user: User | None = None,
    system: bool = False,
    request_id: str = "",
    expected_version: int | None = None,
) -> TournamentChange:
    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        domain.check_close(state, round)
        return [events.RoundClosed(round=round)]

    return _act(
        tournament_id,
        decide,
        user=user,
        request_id=request_id,
        expected_version=expected_version,
        system=system,
    )


def tournament_finish(
    *,
    tournament_id: uuid.UUID,
    user: User | None,
    request_id: str = "",
    expected_version: int | None = None,
) -> TournamentChange:
    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        domain.check_finish(state)
        return [events.TournamentFinished()]

    return _act(
        tournament_id, decide, user=user, request_id=request_id, expected_version=expected_version
    )


def tournament_undo(
    *,
    tournament_id: uuid.UUID,
    version: int,
    reason: str = "",
    user: User | None,
    request_id: str = "",
    expected_version: int | None = None,
) -> TournamentChange:
    """Undo an earlier organizer action by a new event; the history shows both."""

    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        stream = [(e.version, e.type, e.data) for e in store.read_stream(tournament_id)]
        domain.check_undo(state, stream, version)
        return [events.ActionUndone(version=version, reason=reason)]

    return _act(
        tournament_id, decide, user=user, request_id=request_id, expected_version=expected_version
    )


def _maybe_advance(tournament_id: uuid.UUID) -> Callable[[TournamentState], None]:
    """After a result: if the tournament pairs automatically and the round is complete, pair the
    next round through the task queue once this transaction commits."""

    def after(state: TournamentState) -> None:
        number = _stalled(state)
        if number is not None:
            ports.advance_on_commit(tournament_id, number)

    return after


ALREADY_DONE = frozenset({"already_done", "wrong_round", "round_published", "no_more_rounds"})


def tournament_advance(*, tournament_id: uuid.UUID, round: int) -> str:
    """Pair round ``round`` (closing the one before), and publish it if the tournament publishes
    automatically. Idempotent, also when two run at once: a step another run already took counts
    as done."""
    done = []
    steps: list[tuple[str, Callable[[TournamentState], bool], Callable[[], Any]]] = [
        (
            "closed",
            lambda s: (
                len(s.rounds) == round - 1
                and s.last_round is not None
                and s.last_round.status == "published"
            ),
            lambda: tournament_close_round(
                tournament_id=tournament_id, round=round - 1, system=True
            ),
        ),
        (
            "paired",
            lambda s: len(s.rounds) < round,
            lambda: tournament_pair(tournament_id=tournament_id, round=round, system=True),
        ),
        (
            "published",
            lambda s: (
                s.config.publish == "auto"
                and len(s.rounds) >= round
                and s.round(round).status == "proposed"
            ),
            lambda: tournament_publish(tournament_id=tournament_id, round=round, system=True),
        ),
    ]
    for name, needed, step in steps:
        if not needed(_state(_projection(tournament_id))):
            continue
        try:
            step()
            done.append(name)
        except Refused as refused:
            if refused.code not in ALREADY_DONE:
                raise
    return ", ".join(done) if done else "nothing to do"


def _stalled(state: TournamentState) -> int | None:
    """An automatically pairing tournament whose last round is complete but not advanced (its
    task was lost): the round to pair."""
    last = state.last_round
    if (
        state.config.pairing == "auto"
        and last is not None
        and last.status == "published"
        and not last.missing
        and last.number < state.config.rounds
    ):
        return last.number + 1
    return None


def tournament_run_schedules(*, now: datetime | None = None) -> list[str]:
    """The beat task: pair (and publish) every round whose set time has come, and advance
    automatic tournaments whose advance was lost."""
    now = now or timezone.now()
    done = []
    running = TournamentProjection.objects.filter(status__in=["registration", "running"])
    for projection in running.defer(*snapshots.BIG_COLUMNS):
        state = _state(projection)
        number = len(state.rounds) + 1
        at = state.scheduled.get(number)
        due = at is not None and datetime.fromisoformat(at) <= now
        stalled = _stalled(state)
        if not due and stalled is None:
            continue
        try:
            outcome = tournament_advance(
                tournament_id=projection.stream_id, round=stalled or number
            )
            done.append(f"{projection.stream_id}: {outcome}")
        except Refused as refused:
            done.append(f"{projection.stream_id}: waiting ({refused.message})")
    return done
