"""Tournament services: every organizer action is an event in the tournament's stream.

Each service: read the projection's state, check who is asking (roles are events too), let the
domain decide (tournaments.domain), append to the stream (games.store, optimistic), fold the new
events into the state and save the projections, all in one transaction. Games for a published
round are created through games.services; their results come back through
the games' outbox of status changes (:mod:`games.outbox`), handled by
:func:`tournament_sync_pending` in a Celery task nudged at each change and swept periodically.

Without ``expected_version`` a service re-reads and re-decides on a concurrent change (up to a
few times), which suits the organizer's buttons and the background tasks; with it, a concurrent
change is a :class:`~games.services.Conflict` the client handles.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import secrets
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date as Date
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import QuerySet
from django.utils import timezone

from games import outbox, store
from games import services as games
from games.gametypes import DEFAULT_GAME_TYPE, GAME_TYPES
from games.models import Event, GameProjection, StatusChange, Stream
from games.names import BadName, clean_names, is_blank
from games.projection import FINISHED, RESULTS, RETRACTED
from games.services import Conflict, GameError, GameNotFound, NotAllowed, Refused, User
from games.store import NewEvent, VersionConflict
from tournaments import domain, notes, pairing, ports, rounds, standings
from tournaments import events as tournament_events
from tournaments.domain import ORGANIZER, SCOREKEEPER, Refusal, TournamentState
from tournaments.models import TournamentProjection, TournamentRole, TournamentTable

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


# ----------------------------------------------------------------------------- helpers


def _refused(refusal: Refusal) -> GameError:
    """The domain's refusal as the services' error (a permission refusal is a 403)."""
    if refusal.code == "forbidden":
        return NotAllowed(refusal.message)
    return Refused(refusal.message, refusal.code)


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


def _user_id(user: User | None) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return int(user.pk)


def _is_staff(user: User | None) -> bool:
    return bool(user is not None and user.is_authenticated and getattr(user, "is_staff", False))


def _require(state: TournamentState, user: User | None, *roles: str, system: bool = False) -> None:
    """Only the given roles (or staff, or the system's own tasks) may do this."""
    if system:
        return
    if user is None or not user.is_authenticated:
        raise NotAllowed("log in to change a tournament")
    if _is_staff(user) or any(state.has_role(_user_id(user), role) for role in roles):
        return
    who = " or ".join(f"an {r}" if r == ORGANIZER else f"a {r}" for r in roles)
    raise NotAllowed(f"only {who} of this tournament can do this")


def _metadata(user: User | None, request_id: str, system: bool) -> dict[str, Any]:
    known = user is not None and user.is_authenticated
    return {
        "by": "system"
        if system and not known
        else (user.get_username() if known and user else None),
        "by_id": _user_id(user),
        "request_id": request_id or uuid.uuid4().hex,
    }


def _sees_proposals(state: TournamentState, user: User | None, system: bool = False) -> bool:
    """Organizers (and staff) see a round as soon as it is proposed; others once published."""
    return system or _is_staff(user) or state.has_role(_user_id(user), ORGANIZER)


def standings_visible(state: TournamentState, user: User | None) -> bool:
    """The public sees the standings unless the organizer hid them for the last rounds (until
    they are revealed); organizers always do."""
    config = state.config
    hidden = (
        config.standings_hidden_from is not None
        and len([r for r in state.rounds if r.status != "proposed"]) >= config.standings_hidden_from
        and not config.standings_revealed
    )
    return not hidden or _sees_proposals(state, user)


def downloads_allowed(state: TournamentState, user: User | None) -> bool:
    """CSV and record downloads: public once released; organizers always."""
    return state.config.downloads_released or _sees_proposals(state, user)


def _summary(
    projection: TournamentProjection,
    state: TournamentState,
    user: User | None = None,
    system: bool = False,
) -> dict[str, Any]:
    """The tournament as the API and pages show it, to this user."""
    config = state.config
    shown = [
        r for r in state.rounds if r.status != "proposed" or _sees_proposals(state, user, system)
    ]
    return {
        "id": str(projection.stream_id),
        "name": config.name,
        "date": config.date,
        "status": state.status,
        "version": state.version,
        "game_type": config.game_type,
        "settings": {
            "rounds": config.rounds,
            "scoring": config.scoring,
            "tiebreaks": list(config.tiebreaks),
            "pairing": config.pairing,
            "publish": config.publish,
            "round1": config.round1,
            "confirmation": config.confirmation,
            "check_in": config.check_in,
            "bye_points": config.bye_points,
            "standings_hidden_from": config.standings_hidden_from,
            "standings_revealed": config.standings_revealed,
            "downloads_released": config.downloads_released,
        },
        "standings_visible": standings_visible(state, user) if not system else True,
        "downloads": downloads_allowed(state, user) if not system else True,
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "rating": p.rating,
                "late": p.late,
                "checked_in": p.checked_in,
                "dropped": p.dropped,
            }
            for p in state.players.values()
        ],
        "rounds": [_round_json(state, r) for r in shown],
        "scheduled": {str(r): at for r, at in sorted(state.scheduled.items())},
        "roles": [
            {"user": state.usernames.get(uid, str(uid)), "roles": sorted(roles)}
            for uid, roles in sorted(state.roles.items())
            if roles
        ],
    }


def _round_json(state: TournamentState, rnd: domain.Round) -> dict[str, Any]:
    name = {p.id: p.name for p in state.players.values()}
    detail = {
        d["table"]: {
            "spread": d["spread"],
            "points_spread": d["points_spread"],
            "repeats": [[name.get(a, a), name.get(b, b)] for a, b in d["repeats"]],
        }
        for d in rnd.details
    }
    return {
        "round": rnd.number,
        "status": rnd.status,
        "method": rnd.method,
        "seed": rnd.seed,
        "tables": [
            {
                "table": t.number,
                "seats": [{"player": p, "name": name.get(p, p)} for p in t.seats],
                "game": t.game,
                "result": None
                if t.result is None
                else [
                    {
                        "player": r.player,
                        "name": name.get(r.player, r.player),
                        "place": r.place,
                        "victory_points": r.victory_points,
                        "last_round": r.last_round,
                    }
                    for r in t.result
                ],
                "confirmed": t.confirmed,
                **detail.get(t.number, {}),
            }
            for t in rnd.tables
        ],
        "byes": [{"player": p, "name": name.get(p, p)} for p in rnd.byes],
        "cost": rnd.cost,
        "lower_bound": rnd.lower_bound,
        "notes": notes.describe_all(rnd.notes, name),
        "missing": rnd.missing if rnd.status == "published" else [],
    }


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
        [
            NewEvent(kind, tournament_events.to_data(tournament_events.parse(kind, data)))
            for kind, data in events
        ],
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


# ----------------------------------------------------------------------------- create


def tournament_create(
    *,
    user: User | None,
    name: str,
    date: str,
    rounds: int,
    game_type: str = DEFAULT_GAME_TYPE,
    scoring: str = "scaled",
    tiebreaks: Sequence[str] | None = None,
    pairing: str = "manual",
    publish: str = "manual",
    round1: str = "random",
    confirmation: str = "organizer",
    check_in: bool = True,
    bye_points: float | None = None,
    seed: int | None = None,
    standings_hidden_from: int | None = None,
    standings_revealed: bool = False,
    downloads_released: bool = False,
    request_id: str = "",
) -> TournamentChange:
    """A new tournament; its creator is its first organizer."""
    if user is None or not user.is_authenticated:
        raise NotAllowed("log in to create a tournament")
    settings: dict[str, Any] = {
        "name": " ".join(str(name).split()),
        "date": str(date),
        "rounds": rounds,
        "game_type": game_type,
        "scoring": scoring,
        "tiebreaks": list(tiebreaks if tiebreaks is not None else domain.Settings.tiebreaks),
        "pairing": pairing,
        "publish": publish,
        "round1": round1,
        "confirmation": confirmation,
        "check_in": bool(check_in),
        "bye_points": bye_points,
        "seed": secrets.randbelow(10**9) if seed is None else int(seed),
        "standings_hidden_from": standings_hidden_from,
        "standings_revealed": bool(standings_revealed),
        "downloads_released": bool(downloads_released),
    }
    try:
        domain.check_settings(settings, GAME_TYPES)
    except Refusal as refusal:
        raise _refused(refusal) from None
    _check_scoring(settings)
    event = {
        "settings": settings,
        "organizer": {"id": _user_id(user), "username": user.get_username()},
    }
    with transaction.atomic():
        stream = store.create_stream(Stream.Kind.TOURNAMENT)
        projection = TournamentProjection(stream=stream, created_by_id=_user_id(user))
        return _append(
            projection,
            TournamentState(),
            [(domain.CREATED, event)],
            user=user,
            request_id=request_id,
            system=False,
        )


def _check_scoring(settings: Mapping[str, Any]) -> None:
    if settings.get("scoring") not in standings.PRESETS:
        raise Refused(
            f"unknown scoring preset {settings.get('scoring')!r} "
            f"(presets: {', '.join(standings.PRESETS)})",
            "bad_settings",
        )
    unknown = [t for t in settings.get("tiebreaks", ()) if t not in standings.TIEBREAKS]
    if unknown:
        raise Refused(
            f"unknown tie-break {', '.join(map(repr, unknown))} "
            f"(tie-breaks: {', '.join(standings.TIEBREAKS)})",
            "bad_settings",
        )


SETTINGS_ANY_TIME = frozenset(
    {
        "name",
        "date",
        "pairing",
        "publish",
        "confirmation",
        "rounds",
        "standings_hidden_from",
        "standings_revealed",
        "downloads_released",
    }
)
SETTINGS_BEFORE_START = frozenset({"scoring", "tiebreaks", "round1", "check_in", "bye_points"})


def tournament_change_settings(
    *,
    tournament_id: uuid.UUID,
    changes: Mapping[str, Any],
    user: User | None,
    request_id: str = "",
    expected_version: int | None = None,
) -> TournamentChange:
    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        unknown = set(changes) - SETTINGS_ANY_TIME - SETTINGS_BEFORE_START
        if unknown:
            raise Refusal("bad_settings", f"cannot change {', '.join(sorted(unknown))}")
        if state.rounds and set(changes) & SETTINGS_BEFORE_START:
            fixed = ", ".join(sorted(set(changes) & SETTINGS_BEFORE_START))
            raise Refusal("bad_settings", f"{fixed} cannot change once round 1 is paired")
        merged = {**dataclasses.asdict(state.config), **changes}
        domain.check_settings(merged, GAME_TYPES)
        if "rounds" in changes and changes["rounds"] < len(state.rounds):
            raise Refusal("bad_settings", f"{len(state.rounds)} rounds are already paired")
        _check_scoring(merged)
        return [(domain.SETTINGS_CHANGED, {"changes": dict(changes)})]

    return _act(
        tournament_id,
        decide,
        user=user,
        request_id=request_id,
        expected_version=expected_version,
    )


# ----------------------------------------------------------------------------- players


def parse_player_list(text: str) -> tuple[list[str], list[int | None] | None]:
    """Names from a pasted list (one per line) or a CSV file (a ``name`` column, optionally a
    ``rating`` column; without a header, the first column is the name)."""
    lines = [line for line in text.splitlines() if not is_blank(line)]
    if not lines:
        return [], None
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    header = [cell.strip().casefold() for cell in rows[0]]
    if "name" in header:
        col = header.index("name")
        rating_col = header.index("rating") if "rating" in header else None
        names, ratings = [], []
        for number, row in enumerate(rows[1:], start=2):
            if col >= len(row) or is_blank(row[col]):
                raise Refused(f"line {number} has no name", "bad_players")
            names.append(row[col])
            value = (
                row[rating_col].strip() if rating_col is not None and rating_col < len(row) else ""
            )
            if value and not value.lstrip("-").isdigit():
                raise Refused(f"line {number}: the rating {value!r} is not a number", "bad_players")
            ratings.append(int(value) if value else None)
        return names, (ratings if rating_col is not None else None)
    if all(len(row) == 1 for row in rows):
        return [row[0] for row in rows], None
    return [row[0] for row in rows if row], None


def tournament_register(
    *,
    tournament_id: uuid.UUID,
    user: User | None,
    names: Sequence[str] = (),
    text: str = "",
    ratings: Sequence[int | None] | None = None,
    checked_in: bool = False,
    request_id: str = "",
    expected_version: int | None = None,
) -> TournamentChange:
    """Register players: names, or a pasted list / CSV text. After round 1 they are late
    entries, seated from the next pairing."""

    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        listed, rated = parse_player_list(text) if text else (list(names), ratings)
        try:  # one spelling for one name (games.names), before the domain compares them
            listed = clean_names(listed)
        except BadName as error:
            raise Refused(str(error), "bad_players") from None
        events = domain.decide_register(state, listed, rated)
        for event in events:
            event["checked_in"] = checked_in
        return [(domain.REGISTERED, e) for e in events]

    return _act(
        tournament_id, decide, user=user, request_id=request_id, expected_version=expected_version
    )


def _player_action(kind: str) -> Callable[..., TournamentChange]:
    def service(
        *,
        tournament_id: uuid.UUID,
        player: str,
        user: User | None,
        request_id: str = "",
        expected_version: int | None = None,
    ) -> TournamentChange:
        def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
            return [(kind, domain.decide_player_change(state, player, kind))]

        return _act(
            tournament_id,
            decide,
            user=user,
            request_id=request_id,
            expected_version=expected_version,
        )

    return service


tournament_check_in = _player_action(domain.CHECKED_IN)
tournament_drop = _player_action(domain.DROPPED)
tournament_reinstate = _player_action(domain.REINSTATED)


def tournament_set_role(
    *,
    tournament_id: uuid.UUID,
    username: str,
    role: str,
    grant: bool,
    user: User | None,
    request_id: str = "",
    expected_version: int | None = None,
) -> TournamentChange:
    """Organizers assign scorekeepers (and co-organizers) by username."""

    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        target = get_user_model().objects.filter(username=username).first()
        if target is None:
            raise Refusal("unknown_user", f"there is no user {username!r}")
        data = domain.decide_role(state, int(target.pk), username, role, grant)
        return [(domain.ROLE_GRANTED if grant else domain.ROLE_REVOKED, data)]

    return _act(
        tournament_id, decide, user=user, request_id=request_id, expected_version=expected_version
    )


# ----------------------------------------------------------------------------- rounds


def _sizes(state: TournamentState) -> tuple[int, ...]:
    return tuple(GAME_TYPES[state.config.game_type].table_sizes)


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
        try:
            result = pairing.pair(request)
        except ValueError as error:
            raise Refusal("cannot_pair", str(error)) from None
        return [(domain.PAIRED, rounds.round_event(number, request, result))]

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
        request = rounds.pairing_request(state, round, _sizes(state), only=state.round(round))
        cost = pairing.cost_of(tables, request)
        return [
            (
                domain.PAIRING_CHANGED,
                {
                    "round": round,
                    "change": {"swap": [a, b]},
                    "tables": tables,
                    "byes": list(state.round(round).byes),
                    "cost": rounds.cost_json(cost),
                    "details": rounds.table_details(request, tables),
                },
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
    """Publish a round: each table becomes a game (seat 1 is round 1's first player), and the
    pairings become public."""

    def decide(projection: TournamentProjection, state: TournamentState) -> list[Any]:
        rnd = domain.check_publish(state, round)
        kind = GAME_TYPES[state.config.game_type]
        name = {p.id: p.name for p in state.players.values()}
        organizer = user if user is not None and user.is_authenticated else None
        games_created = []
        for table in rnd.tables:
            players = [name[p] for p in table.seats]
            options = kind.table_options(len(players))
            change = games.game_create(
                players=players,
                suits=options.get("suits"),
                published=True,
                game_type=kind.key,
                user=organizer,
                request_id=request_id,
                idempotency_key=f"tournament:{projection.stream_id}:r{round}:t{table.number}",
            )
            games_created.append({"table": table.number, "game": str(change.game_id)})
        return [(domain.PUBLISHED, {"round": round, "games": games_created})]

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
            raise Refusal("wrong_round", f"the next round to pair is round {len(state.rounds) + 1}")
        if round > state.config.rounds:
            raise Refusal("no_more_rounds", f"the tournament has {state.config.rounds} rounds")
        return [(domain.SCHEDULED, {"round": round, "at": when.isoformat()})]

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
        return [(domain.ROUND_CLOSED, {"round": round})]

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
        return [(domain.FINISHED, {})]

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
        events = [(e.version, e.type, e.data) for e in store.read_stream(tournament_id)]
        domain.check_undo(state, events, version)
        return [(domain.UNDONE, {"version": version, "reason": reason})]

    return _act(
        tournament_id, decide, user=user, request_id=request_id, expected_version=expected_version
    )


# ----------------------------------------------------------------------------- results


def _entered_by(game_id: uuid.UUID, until: int) -> tuple[int, ...]:
    """Who entered a game's plays or results, up to version ``until`` (for the second-person
    confirmation)."""
    kind_types = GAME_TYPES[GameProjection.objects.get(stream_id=game_id).game_type].record_types
    entries = Event.objects.filter(stream_id=game_id, version__gt=1, version__lte=until)
    users = {
        e.metadata.get("by_id")
        for e in entries.only("type", "metadata")
        if e.type in kind_types or e.type in (RESULTS, RETRACTED)
    }
    return tuple(sorted(u for u in users if isinstance(u, int)))


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
    state: TournamentState, table: domain.Table, game_type: str, summary: Mapping[str, Any]
) -> tuple[domain.Placement, ...]:
    """A finished game's result as the tournament records it (players by their ids)."""
    by_name = {state.players[p].name: p for p in table.seats}
    return tuple(
        domain.Placement(
            player=by_name[p.player], place=p.rank, victory_points=p.total, last_round=p.last_round
        )
        for p in GAME_TYPES[game_type].placements(summary)
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
            game_type, summary = games.game_summary_at(game_id=game_id, version=change.version)
            placements = _placements(state, table, game_type, summary)
            if table.result == placements:
                # Finished again with no change between: the same result (a change made anew
                # by a rebuild after a restore, at a later version such as game_published).
                return []
            outcome["done"] = "recorded"
            return [
                (
                    domain.RESULT_RECORDED,
                    {
                        "round": rnd.number,
                        "table": table.number,
                        "game": str(game_id),
                        "game_version": change.version,
                        "placements": [dataclasses.asdict(p) for p in placements],
                        "entered_by": list(_entered_by(game_id, change.version)),
                    },
                )
            ]
        if table.result is None:
            return []
        outcome["done"] = "withdrawn"
        return [
            (
                domain.RESULT_WITHDRAWN,
                {"round": rnd.number, "table": table.number, "game": str(game_id)},
            )
        ]

    _act(
        link.tournament_id, decide, user=None, system=True, after=_maybe_advance(link.tournament_id)
    )
    return outcome["done"]


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
            (
                domain.RESULT_CONFIRMED,
                {
                    "round": round,
                    "table": table,
                    "game_version": found.result_version,
                    "by": _user_id(user),
                },
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
    for projection in TournamentProjection.objects.filter(status__in=["registration", "running"]):
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


# ----------------------------------------------------------------------------- reads


def tournament_get(
    *, tournament_id: uuid.UUID, user: User | None = None
) -> tuple[TournamentProjection, dict[str, Any]]:
    """The tournament as this user may see it (proposed rounds: organizers only)."""
    projection = _projection(tournament_id)
    return projection, _summary(projection, _state(projection), user)


def tournament_get_with_standings(
    *, tournament_id: uuid.UUID, user: User | None = None
) -> tuple[TournamentProjection, dict[str, Any], dict[str, Any] | None]:
    """:func:`tournament_get` and :func:`tournament_standings` from one read of the projection
    (the standings page): the standings are None while hidden from this user."""
    projection = _projection(tournament_id)
    state = _state(projection)
    standings = dict(projection.standings) if standings_visible(state, user) else None
    return projection, _summary(projection, state, user), standings


def tournament_standings(*, tournament_id: uuid.UUID, user: User | None) -> dict[str, Any]:
    """The standings (columns and rows) if this user may see them now."""
    projection = _projection(tournament_id)
    if not standings_visible(_state(projection), user):
        raise NotAllowed("the organizer has hidden the standings until the end of the tournament")
    return dict(projection.standings)


def tournament_check_downloads(*, tournament_id: uuid.UUID, user: User | None) -> None:
    """Refuse a download the organizer has not released yet."""
    if not downloads_allowed(_state(_projection(tournament_id)), user):
        raise NotAllowed("the organizer has not released the downloads yet")


def tournament_of_game(game_id: uuid.UUID) -> uuid.UUID | None:
    """The tournament a game is a table of; None for a game outside any tournament."""
    found = TournamentTable.objects.filter(game_id=game_id).values_list("tournament_id").first()
    return None if found is None else found[0]


def tournament_version(tournament_id: uuid.UUID) -> str | None:
    """What a tournament's pages depend on, as a short key: its version and when its projection
    was saved (a projection rebuilt at the same version is new too); None if there is no such
    tournament. One indexed query, in SQL rather than through the ORM: the public standings ask
    it on every visit, and building the query costs more than running it."""
    meta = TournamentProjection._meta
    stream = meta.get_field("stream")
    table, column = connection.ops.quote_name(meta.db_table), stream.column
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT version, updated_at FROM {table} WHERE {column} = %s",  # noqa: S608
            [stream.get_db_prep_value(tournament_id, connection)],
        )
        row = cursor.fetchone()
    return None if row is None else f"{row[0]}:{row[1]}"


def tournament_list() -> QuerySet[TournamentProjection]:
    return TournamentProjection.objects.defer("state", "standings").order_by("-date", "name")


def tournament_history(*, tournament_id: uuid.UUID, user: User | None) -> list[dict[str, Any]]:
    """Every action, who and when, including the ones later undone (marked): organizers only."""
    _require(_state(_projection(tournament_id)), user, ORGANIZER)
    events = store.read_stream(tournament_id)
    undone = {e.data["version"]: e.version for e in events if e.type == domain.UNDONE}
    return [
        {
            "version": e.version,
            "type": e.type,
            "data": e.data,
            "by": e.metadata.get("by"),
            "at": e.recorded_at.isoformat(),
            "undone_by": undone.get(e.version),
        }
        for e in events
    ]


def tournaments_digest() -> Iterator[tuple[str, Any]]:
    """What projections_digest fingerprints of each tournament."""
    for projection in TournamentProjection.objects.order_by("stream_id"):
        yield (
            str(projection.stream_id),
            [
                projection.version,
                projection.status,
                projection.current_round,
                projection.state,
                projection.standings,
                sorted(
                    (t.round, t.number, str(t.game_id), t.seats)
                    for t in TournamentTable.objects.filter(tournament=projection)
                ),
            ],
        )


def _new_projection(stream_id: uuid.UUID) -> TournamentProjection:
    """An empty projection for a tournament stream that has none (after a restore)."""
    _, creator = games.stream_origin(stream_id)
    return TournamentProjection(stream_id=stream_id, created_by_id=creator, state={}, standings={})


def tournaments_rebuild(*, fix: bool = True) -> tuple[int, list[games.Difference]]:
    """Recompute every tournament projection from its stream (rebuild_projections calls it),
    and find tables whose game's result never reached the tournament (and, fixing, send it)."""
    differences: list[games.Difference] = []
    checked = 0
    for projection in games.streams_projected(
        Stream.Kind.TOURNAMENT, TournamentProjection.objects.all(), _new_projection
    ):
        checked += 1
        state = _fold(projection.stream_id)
        found = _projection_differences(projection, state)
        if found and not projection._state.adding:
            found = _recheck(projection.stream_id, fix=fix)
        elif found and fix:
            with transaction.atomic():
                _save(projection, state)
        differences.extend(found)
        differences.extend(_unsynced_tables(projection.stream_id, state, fix=fix))
    return checked, differences


def _projection_differences(
    projection: TournamentProjection, state: TournamentState
) -> list[games.Difference]:
    rebuilt_state = games.as_stored(domain.to_json(state))
    rebuilt_standings = games.as_stored(rounds.standings_json(state))
    return [
        games.Difference(projection.stream_id, field, stored, rebuilt)
        for field, stored, rebuilt in (
            ("state", projection.state, rebuilt_state),
            ("standings", projection.standings, rebuilt_standings),
        )
        if stored != rebuilt
    ]


def _recheck(tournament_id: uuid.UUID, *, fix: bool) -> list[games.Difference]:
    """Compare (and fix) again under the row's lock: writers may have moved the row and the
    stream on since the first look, and a rebuild must never write older state over theirs."""
    with transaction.atomic():
        projection = _projection(tournament_id, lock=True)
        state = _fold(tournament_id)
        found = _projection_differences(projection, state)
        if found and fix:
            _save(projection, state)
    return found


def _unsynced_tables(
    tournament_id: uuid.UUID, state: TournamentState, *, fix: bool
) -> list[games.Difference]:
    """Tables whose result disagrees with their game and that no pending status change will
    mend (a change lost before the outbox existed): reported, and when fixing, put in the
    outbox and handled at once."""
    tables: dict[uuid.UUID, domain.Table] = {
        uuid.UUID(table.game): table
        for rnd in state.rounds
        for table in rnd.tables
        if table.game is not None
    }
    if not tables:
        return []
    waiting = set(
        StatusChange.objects.filter(game_id__in=tables, handled_at__isnull=True).values_list(
            "game_id", flat=True
        )
    )
    found = []
    for game in GameProjection.objects.filter(stream_id__in=tables).only(
        "stream_id", "game_type", "version", "status", "summary"
    ):
        table = tables[game.stream_id]
        result = (
            _placements(state, table, game.game_type, game.summary)
            if game.status == FINISHED
            else None
        )
        if game.stream_id in waiting or table.result == result:
            continue
        found.append(
            games.Difference(tournament_id, f"table {table.number} result", table.result, result)
        )
        if fix:
            with transaction.atomic():
                outbox.record(game)
            tournament_sync_pending(game_id=game.stream_id)
    return found
