"""A tournament as the fold of its stream's events, and the decisions that make new ones (pure).

Every organizer action is an event in the tournament's stream; the state here is what they add
up to. Decisions (``decide_*``) check an action against the state and return the event to append
(or raise :class:`Refusal` with a code and the organizer's words); :func:`apply` folds an event
into the state and never validates (eventsourcing's aggregate pattern, as in ``engine/``).

A mistaken action is undone by a new event (``action_undone``) naming the version it undoes;
the fold skips undone events, and the history keeps both.

Nothing here knows a game's rules: table sizes, placements and the start of a game come from the
game type (games.gametypes), looked up by the tournament's ``game_type``.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from tournaments import events as ev
from tournaments import notes

CREATED: Final = "tournament_created"
SETTINGS_CHANGED: Final = "settings_changed"
REGISTERED: Final = "player_registered"
CHECKED_IN: Final = "player_checked_in"
DROPPED: Final = "player_dropped"
REINSTATED: Final = "player_reinstated"
ROLE_GRANTED: Final = "role_granted"
ROLE_REVOKED: Final = "role_revoked"
PAIRED: Final = "round_paired"
PAIRING_CHANGED: Final = "pairing_changed"
PUBLISHED: Final = "round_published"
SCHEDULED: Final = "pairing_scheduled"
RESULT_RECORDED: Final = "result_recorded"
RESULT_WITHDRAWN: Final = "result_withdrawn"
RESULT_CONFIRMED: Final = "result_confirmed"
ROUND_CLOSED: Final = "round_closed"
FINISHED: Final = "tournament_finished"
UNDONE: Final = "action_undone"

ORGANIZER, SCOREKEEPER = "organizer", "scorekeeper"
ROLES: Final = (ORGANIZER, SCOREKEEPER)

PAIRING_MODES: Final = ("manual", "auto", "scheduled")
PUBLISH_MODES: Final = ("manual", "auto")
ROUND1_METHODS: Final = ("random", "order", "rating")
CONFIRMATION_MODES: Final = ("auto", "organizer", "second_person")
"""auto: a finished game's result counts at once. organizer: an organizer confirms it, or a
scorekeeper who did not enter that game. second_person: someone (organizer or scorekeeper) who
did not enter that game must confirm it."""

UNDOABLE: Final = frozenset(
    {
        REGISTERED,
        CHECKED_IN,
        DROPPED,
        REINSTATED,
        ROLE_GRANTED,
        ROLE_REVOKED,
        PAIRED,
        PAIRING_CHANGED,
        SCHEDULED,
        RESULT_CONFIRMED,
        ROUND_CLOSED,
        FINISHED,
        SETTINGS_CHANGED,
    }
)

MAX_NAME = 100


class Refusal(Exception):
    """An action the tournament's rules do not allow now, in the organizer's words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# ----------------------------------------------------------------------------- state


@dataclass
class Settings:
    name: str
    date: str
    rounds: int
    game_type: str
    scoring: str = "scaled"
    tiebreaks: tuple[str, ...] = ("victory_points", "opponents_average", "first_places")
    pairing: str = "manual"
    publish: str = "manual"
    round1: str = "random"
    confirmation: str = "organizer"
    check_in: bool = True
    bye_points: float | None = None
    seed: int = 0
    standings_hidden_from: int | None = None
    """From this round on the public does not see the standings, until they are revealed."""
    standings_revealed: bool = False
    downloads_released: bool = False
    """CSV and record downloads are public once the organizer releases them."""


@dataclass
class Player:
    id: str
    name: str
    order: int
    rating: int | None = None
    late: bool = False
    checked_in: bool = False
    dropped: bool = False


@dataclass
class Placement:
    player: str
    place: int
    victory_points: int
    last_round: int


@dataclass
class Table:
    number: int
    seats: tuple[str, ...]
    game: str | None = None
    result: tuple[Placement, ...] | None = None
    result_version: int | None = None
    entered_by: tuple[int, ...] = ()
    confirmed_by: int | None = None
    confirmed: bool = False


@dataclass
class Round:
    number: int
    status: str  # proposed | published | closed
    tables: list[Table]
    byes: tuple[str, ...]
    method: str
    seed: int
    cost: dict[str, Any] = field(default_factory=dict)
    lower_bound: float = 0.0
    notes: tuple[dict[str, Any], ...] = ()
    """Codes with parameters (:mod:`tournaments.notes` turns them into words)."""
    scheduled_at: str | None = None
    details: list[dict[str, Any]] = field(default_factory=list)
    """Per table: standing spread, points spread, pairs who met before (transparency)."""

    def table(self, number: int) -> Table:
        for table in self.tables:
            if table.number == number:
                return table
        raise Refusal("unknown_table", f"round {self.number} has no table {number}")

    @property
    def missing(self) -> list[int]:
        """Tables whose result does not count yet."""
        return [t.number for t in self.tables if not t.confirmed]


@dataclass
class TournamentState:
    version: int = 0
    settings: Settings | None = None
    status: str = "registration"  # registration | running | finished
    players: dict[str, Player] = field(default_factory=dict)
    roles: dict[int, set[str]] = field(default_factory=dict)
    usernames: dict[int, str] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)
    undone: set[int] = field(default_factory=set)
    scheduled: dict[int, str] = field(default_factory=dict)

    @property
    def config(self) -> Settings:
        if self.settings is None:
            raise Refusal("not_found", "this stream is not a tournament")
        return self.settings

    def player(self, player_id: str) -> Player:
        try:
            return self.players[player_id]
        except KeyError:
            raise Refusal("unknown_player", f"there is no player {player_id!r}") from None

    def round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            raise Refusal("unknown_round", f"round {number} has not been paired")
        return self.rounds[number - 1]

    @property
    def last_round(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    def by_name(self, name: str) -> Player | None:
        folded = name.strip().casefold()
        return next((p for p in self.players.values() if p.name.casefold() == folded), None)

    def has_role(self, user_id: int | None, role: str) -> bool:
        return user_id is not None and role in self.roles.get(user_id, set())

    def table_of_game(self, game_id: str) -> tuple[Round, Table] | None:
        for rnd in self.rounds:
            for table in rnd.tables:
                if table.game == game_id:
                    return rnd, table
        return None


# ----------------------------------------------------------------------------- fold


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
    )
    state.players[player.id] = player


def _player_mark(name: str, value: bool) -> Any:
    def handler(
        state: TournamentState, event: ev.PlayerCheckedIn | ev.PlayerDropped | ev.PlayerReinstated
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


def _result_recorded(state: TournamentState, event: ev.ResultRecorded) -> None:
    table = state.rounds[event.round - 1].table(event.table)
    table.result = tuple(Placement(**p) for p in event.placements)
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
        ROLE_GRANTED,
        ROLE_REVOKED,
        PAIRED,
        PAIRING_CHANGED,
        SCHEDULED,
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
    ev.PlayerDropped: _player_mark("dropped", True),
    ev.PlayerReinstated: _player_mark("dropped", False),
    ev.RoleGranted: _role_granted,
    ev.RoleRevoked: _role_revoked,
    ev.RoundPaired: _paired,
    ev.PairingChanged: _pairing_changed,
    ev.RoundPublished: _published,
    ev.PairingScheduled: _scheduled,
    ev.ResultRecorded: _result_recorded,
    ev.ResultWithdrawn: _result_withdrawn,
    ev.ResultConfirmed: _result_confirmed,
    ev.RoundClosed: _round_closed,
    ev.TournamentFinished: _finished,
}
"""One handler per event type; ``action_undone`` changes nothing itself (:func:`fold` skips
what it undoes)."""


# ----------------------------------------------------------------------------- snapshot


def to_json(state: TournamentState) -> dict[str, Any]:
    """The state as JSON data, for the projection row. Written out field by field rather than
    with dataclasses.asdict, which deep-copies every value: a thousand players' state is saved
    on every result, and this is ten times faster (tests check both give the same JSON)."""
    return {
        "schema": SNAPSHOT_SCHEMA,
        "version": state.version,
        "settings": None if state.settings is None else _settings_json(state.settings),
        "status": state.status,
        "players": [_player_json(p) for p in state.players.values()],
        "roles": [[uid, sorted(roles)] for uid, roles in sorted(state.roles.items())],
        "usernames": [[uid, name] for uid, name in sorted(state.usernames.items())],
        "rounds": [_round_json(r) for r in state.rounds],
        "undone": sorted(state.undone),
        "scheduled": [[r, at] for r, at in sorted(state.scheduled.items())],
    }


def _settings_json(settings: Settings) -> dict[str, Any]:
    data = dict(vars(settings))
    data["tiebreaks"] = list(settings.tiebreaks)
    return data


def _player_json(p: Player) -> dict[str, Any]:
    return dict(vars(p))


def _round_json(r: Round) -> dict[str, Any]:
    return {
        "number": r.number,
        "status": r.status,
        "tables": [
            {
                "number": t.number,
                "seats": list(t.seats),
                "game": t.game,
                "result": None if t.result is None else [dict(vars(p)) for p in t.result],
                "result_version": t.result_version,
                "entered_by": list(t.entered_by),
                "confirmed_by": t.confirmed_by,
                "confirmed": t.confirmed,
            }
            for t in r.tables
        ],
        "byes": list(r.byes),
        "method": r.method,
        "seed": r.seed,
        "cost": copy.deepcopy(r.cost),
        "lower_bound": r.lower_bound,
        "notes": copy.deepcopy(list(r.notes)),
        "scheduled_at": r.scheduled_at,
        "details": copy.deepcopy(r.details),
    }


SNAPSHOT_SCHEMA: Final = 2
"""The version of :func:`to_json`'s format. 1 (no ``"schema"`` key): notes were sentences."""


class SnapshotVersionError(ValueError):
    """A stored snapshot this code cannot read: rebuild the projections from the events."""


def from_json(data: Mapping[str, Any]) -> TournamentState:
    """The state of a stored snapshot, upcast from an older version; a newer or unknown one
    is refused with :class:`SnapshotVersionError` (rebuild the projections from the log)."""
    schema = data.get("schema", 1)
    if schema not in (1, SNAPSHOT_SCHEMA):
        raise SnapshotVersionError(
            f"the tournament snapshot is at schema version {schema!r}; this code reads "
            f"versions 1 to {SNAPSHOT_SCHEMA}. Rebuild the projections from the event log "
            "(manage.py rebuild_projections)"
        )
    try:
        if schema == 1:
            return _from_json(data, _notes_v1)
        return _from_json(data, lambda raw, players: tuple(dict(n) for n in raw))
    except (TypeError, KeyError) as error:
        raise SnapshotVersionError(
            f"the tournament snapshot (schema version {schema}) does not fit this code "
            f"({type(error).__name__}: {error}). Rebuild the projections from the event log "
            "(manage.py rebuild_projections)"
        ) from None


def _notes_v1(raw: Sequence[Any], players: Sequence[Mapping[str, Any]]) -> tuple[Any, ...]:
    labels = {p["name"]: p["id"] for p in players}
    labels.update({p["id"]: p["id"] for p in players})
    return notes.upcast_all(raw, labels)


def _from_json(data: Mapping[str, Any], read_notes: Any) -> TournamentState:
    settings = data["settings"]
    if settings is not None:
        settings = Settings(**{**settings, "tiebreaks": tuple(settings["tiebreaks"])})
    rounds = []
    for r in data["rounds"]:
        tables = [
            Table(
                number=t["number"],
                seats=tuple(t["seats"]),
                game=t["game"],
                result=None if t["result"] is None else tuple(Placement(**p) for p in t["result"]),
                result_version=t["result_version"],
                entered_by=tuple(t["entered_by"]),
                confirmed_by=t["confirmed_by"],
                confirmed=t["confirmed"],
            )
            for t in r["tables"]
        ]
        rounds.append(
            Round(
                number=r["number"],
                status=r["status"],
                tables=tables,
                byes=tuple(r["byes"]),
                method=r["method"],
                seed=r["seed"],
                cost=dict(r["cost"]),
                lower_bound=r["lower_bound"],
                notes=read_notes(r["notes"], data["players"]),
                scheduled_at=r.get("scheduled_at"),
                details=list(r.get("details", [])),
            )
        )
    return TournamentState(
        version=data["version"],
        settings=settings,
        status=data["status"],
        players={p["id"]: Player(**p) for p in data["players"]},
        roles={uid: set(roles) for uid, roles in data["roles"]},
        usernames={uid: name for uid, name in data["usernames"]},
        rounds=rounds,
        undone=set(data["undone"]),
        scheduled={r: at for r, at in data["scheduled"]},
    )


# ----------------------------------------------------------------------------- decisions


MAX_TOURNAMENT_NAME = 200


def check_settings(settings: Mapping[str, Any], known_game_types: Iterable[str]) -> None:
    """Refuse settings a tournament cannot run with."""
    name = str(settings.get("name", "")).strip()
    if not name:
        raise Refusal("bad_settings", "a tournament needs a name")
    if len(name) > MAX_TOURNAMENT_NAME:
        raise Refusal(
            "bad_settings", f"a tournament's name has at most {MAX_TOURNAMENT_NAME} characters"
        )
    try:
        datetime.date.fromisoformat(str(settings.get("date", "")))
    except ValueError:
        raise Refusal(
            "bad_settings", f"{settings.get('date')!r} is not a date (YYYY-MM-DD)"
        ) from None
    hidden = settings.get("standings_hidden_from")
    if hidden is not None and (type(hidden) is not int or hidden < 1):
        raise Refusal("bad_settings", "standings are hidden from a round number, 1 or more")
    bye = settings.get("bye_points")
    if bye is not None and (isinstance(bye, bool) or not isinstance(bye, int | float) or bye < 0):
        raise Refusal("bad_settings", "points for a bye are a number, 0 or more")
    tiebreaks = list(settings.get("tiebreaks", ()))
    if len(set(tiebreaks)) != len(tiebreaks):
        raise Refusal("bad_settings", "each tie-break is listed once")
    rounds = settings.get("rounds")
    if type(rounds) is not int or not 1 <= rounds <= 30:
        raise Refusal("bad_settings", "the number of Swiss rounds is a whole number from 1 to 30")
    if settings.get("game_type") not in set(known_game_types):
        raise Refusal("bad_settings", f"unknown game type {settings.get('game_type')!r}")
    for key, allowed in (
        ("pairing", PAIRING_MODES),
        ("publish", PUBLISH_MODES),
        ("round1", ROUND1_METHODS),
        ("confirmation", CONFIRMATION_MODES),
    ):
        if key in settings and settings[key] not in allowed:
            raise Refusal(
                "bad_settings", f"{key} is one of {', '.join(allowed)}, not {settings[key]!r}"
            )


def decide_register(
    state: TournamentState, names: Sequence[str], ratings: Sequence[int | None] | None = None
) -> list[dict[str, Any]]:
    """``player_registered`` events for new players (late if the tournament has begun)."""
    if state.status == "finished":
        raise Refusal("tournament_finished", "the tournament is finished")
    cleaned = [" ".join(str(n).split()) for n in names]
    if not cleaned:
        raise Refusal("bad_players", "give at least one name")
    seen: set[str] = set()
    for name in cleaned:
        if not name:
            raise Refusal("bad_players", "a player needs a name (one of the names is empty)")
        if len(name) > MAX_NAME:
            raise Refusal(
                "bad_players", f"a name has at most {MAX_NAME} characters: {name[:20]}..."
            )
        if state.by_name(name) is not None or name.casefold() in seen:
            raise Refusal(
                "duplicate_player",
                f"there is already a player named {name}; add something to tell them apart "
                f"(e.g. {name} B.)",
            )
        seen.add(name.casefold())
    late = bool(state.rounds)
    start = len(state.players) + 1
    return [
        {
            "player": f"P{start + i}",
            "name": name,
            "rating": None if ratings is None else ratings[i],
            "late": late,
        }
        for i, name in enumerate(cleaned)
    ]


def decide_player_change(state: TournamentState, player_id: str, kind: str) -> dict[str, Any]:
    player = state.player(player_id)
    if kind == CHECKED_IN and player.checked_in:
        raise Refusal("already_done", f"{player.name} is already checked in")
    if kind == DROPPED and player.dropped:
        raise Refusal("already_done", f"{player.name} has already dropped")
    if kind == REINSTATED and not player.dropped:
        raise Refusal("already_done", f"{player.name} has not dropped")
    return {"player": player_id}


def decide_role(
    state: TournamentState, user_id: int, username: str, role: str, grant: bool
) -> dict[str, Any]:
    if role not in ROLES:
        raise Refusal("bad_role", f"a role is {' or '.join(ROLES)}, not {role!r}")
    has = state.has_role(user_id, role)
    if grant and has:
        raise Refusal("already_done", f"{username} is already a {role}")
    if not grant and not has:
        raise Refusal("already_done", f"{username} is not a {role}")
    if not grant and role == ORGANIZER:
        others = [
            uid for uid, roles in state.roles.items() if ORGANIZER in roles and uid != user_id
        ]
        if not others:
            raise Refusal("last_organizer", "a tournament keeps at least one organizer")
    return {"user_id": user_id, "username": username, "role": role}


def seated_players(state: TournamentState) -> list[Player]:
    """Who is seated in the next round: not dropped, and checked in if the tournament checks in."""
    check_in = state.config.check_in
    return [p for p in state.players.values() if not p.dropped and (p.checked_in or not check_in)]


def check_can_pair(state: TournamentState, number: int) -> None:
    """Refuse pairing round ``number`` unless the previous one is complete."""
    if state.status == "finished":
        raise Refusal("tournament_finished", "the tournament is finished")
    expected = len(state.rounds) + 1
    if number != expected:
        raise Refusal("wrong_round", f"the next round to pair is round {expected}, not {number}")
    if number > state.config.rounds:
        raise Refusal(
            "no_more_rounds", f"the tournament has {state.config.rounds} rounds; finish it instead"
        )
    last = state.last_round
    if last is not None and last.status != "closed":
        if last.status == "proposed":
            raise Refusal(
                "round_not_published", f"round {last.number} is proposed but not published yet"
            )
        missing = last.missing
        if missing:
            raise Refusal(
                "results_missing",
                f"round {last.number} is not complete: table"
                f"{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} "
                f"{'have' if len(missing) > 1 else 'has'} no confirmed result yet",
            )
        raise Refusal("round_not_closed", f"close round {last.number} first")


def decide_swap(state: TournamentState, number: int, a: str, b: str) -> list[list[str]]:
    """The tables of a proposed round after swapping two players (or two seats)."""
    rnd = state.round(number)
    if rnd.status != "proposed":
        raise Refusal("round_published", f"round {number} is published; its tables are final")
    if a == b:
        raise Refusal("bad_swap", "choose two different players")
    tables = [list(t.seats) for t in rnd.tables]
    byes = list(rnd.byes)
    spots = []
    for who in (a, b):
        name = state.player(who).name
        where = next(
            ((ti, si) for ti, seats in enumerate(tables) for si, p in enumerate(seats) if p == who),
            None,
        )
        if where is None:
            if who in byes:
                raise Refusal("bad_swap", f"{name} has the bye; swap players seated at tables")
            raise Refusal("bad_swap", f"{name} is not seated in round {number}")
        spots.append(where)
    (ta, sa), (tb, sb) = spots
    tables[ta][sa], tables[tb][sb] = tables[tb][sb], tables[ta][sa]
    return tables


def check_publish(state: TournamentState, number: int) -> Round:
    rnd = state.round(number)
    if rnd.status != "proposed":
        raise Refusal("round_published", f"round {number} is already published")
    return rnd


def check_confirm(
    state: TournamentState, number: int, table_number: int, user_id: int | None, staff: bool
) -> Table:
    rnd = state.round(number)
    table = rnd.table(table_number)
    if table.result is None:
        raise Refusal("no_result", f"table {table_number} of round {number} has no result yet")
    if table.confirmed:
        raise Refusal("already_done", f"table {table_number} of round {number} is confirmed")
    if rnd.status == "closed":
        raise Refusal("round_closed", f"round {number} is closed")
    entered = user_id is not None and user_id in table.entered_by
    organizer = staff or state.has_role(user_id, ORGANIZER)
    scorekeeper = state.has_role(user_id, SCOREKEEPER)
    mode = state.config.confirmation
    if mode == "second_person" and entered:
        raise Refusal(
            "second_person_required",
            "this table's result must be confirmed by someone who did not enter it",
        )
    if not organizer and not (scorekeeper and not entered):
        raise Refusal(
            "forbidden",
            "an organizer confirms results, or a scorekeeper who did not enter the table",
        )
    return table


def check_close(state: TournamentState, number: int) -> Round:
    rnd = state.round(number)
    if rnd.status == "closed":
        raise Refusal("already_done", f"round {number} is closed")
    if rnd.status == "proposed":
        raise Refusal("round_not_published", f"round {number} is not published yet")
    missing = rnd.missing
    if missing:
        raise Refusal(
            "results_missing",
            f"round {number} cannot close: table{'s' if len(missing) > 1 else ''} "
            f"{', '.join(map(str, missing))} {'have' if len(missing) > 1 else 'has'} "
            "no confirmed result yet",
        )
    return rnd


def check_finish(state: TournamentState) -> None:
    if state.status == "finished":
        raise Refusal("already_done", "the tournament is already finished")
    last = state.last_round
    if last is not None and last.status != "closed":
        raise Refusal("round_not_closed", f"close round {last.number} first")


def check_undo(
    state: TournamentState, events: Sequence[tuple[int, str, Mapping[str, Any]]], version: int
) -> str:
    """Refuse undoing an event that cannot be undone now; return its type."""
    target = next(((v, k, d) for v, k, d in events if v == version), None)
    if target is None:
        raise Refusal("bad_undo", f"there is no action at version {version}")
    _, kind, data = target
    if version in state.undone:
        raise Refusal("bad_undo", f"the action at version {version} is already undone")
    if kind not in UNDOABLE:
        raise Refusal("bad_undo", f"{kind.replace('_', ' ')} cannot be undone")
    later_rounds = [r for r in state.rounds]
    if kind == REGISTERED:
        who = data["player"]
        if any(who in t.seats for r in later_rounds for t in r.tables) or any(
            who in r.byes for r in later_rounds
        ):
            raise Refusal("bad_undo", f"{data['name']} has been seated; drop them instead")
    if kind in (PAIRED, PAIRING_CHANGED, SCHEDULED):
        number = data["round"]
        if number <= len(state.rounds) and state.rounds[number - 1].status != "proposed":
            raise Refusal("bad_undo", f"round {number} is published; its pairing is final")
    if kind == RESULT_CONFIRMED:
        number = data["round"]
        if state.rounds[number - 1].status == "closed":
            raise Refusal("bad_undo", f"round {number} is closed; undo its closing first")
    if kind == ROUND_CLOSED and len(state.rounds) > data["round"]:
        raise Refusal("bad_undo", f"round {data['round'] + 1} is already paired")
    return kind
