"""Decisions: an action checked against the state, giving the event to append or a
:class:`Refusal` with a code and the organizer's words."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from tournaments.domain.state import (
    CHECKED_IN,
    CHECKED_OUT,
    CONFIRMATION_MODES,
    CREATED,
    DROPPED,
    MAX_NAME,
    ORGANIZER,
    PAIRED,
    PAIRING_CHANGED,
    PAIRING_MODES,
    PUBLISH_MODES,
    PUBLISHED,
    REGISTERED,
    REINSTATED,
    RESULT_CONFIRMED,
    RESULT_RECORDED,
    RESULT_WITHDRAWN,
    ROLES,
    ROUND1_METHODS,
    ROUND_CLOSED,
    SCHEDULED,
    SCOREKEEPER,
    UNDOABLE,
    UNDONE,
    Player,
    Refusal,
    Round,
    Table,
    TournamentState,
)

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
    if kind == CHECKED_OUT and not player.checked_in:
        raise Refusal("already_done", f"{player.name} is not checked in")
    if kind == DROPPED and player.dropped:
        raise Refusal("already_done", f"{player.name} has already dropped")
    if kind == REINSTATED and not player.dropped:
        raise Refusal("already_done", f"{player.name} has not dropped")
    return {"player": player_id}


def open_table(state: TournamentState, player_id: str) -> tuple[int, int] | None:
    """(round, table) where the player sits at a published table whose game has no result yet,
    or None."""
    last = state.last_round
    if last is None or last.status != "published":
        return None
    for table in last.tables:
        if player_id in table.seats and table.result is None:
            return last.number, table.number
    return None


def check_drop_at_open_table(state: TournamentState, player_id: str) -> None:
    """Refuse (``at_open_table``) dropping a player whose table is still being played, unless
    the organizer confirms: the drop does not end that game, and the table still needs a
    result."""
    where = open_table(state, player_id)
    if where is None or state.player(player_id).dropped:
        return
    name = state.player(player_id).name
    raise Refusal(
        "at_open_table",
        f"{name} plays at table {where[1]} of round {where[0]}, which is not finished. "
        f"Dropping {name} does not end that game: the table still needs its result (if it "
        f"cannot finish, enter what was played as results only). Drop {name} anyway?",
    )


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


CLOCK_LONGEST = datetime.timedelta(hours=24)
"""The furthest ahead a round's clock may end."""


def check_clock(
    state: TournamentState,
    number: int,
    ends_at: datetime.datetime | None,
    now: datetime.datetime,
) -> Round:
    """Setting (or, with ``ends_at`` None, stopping) the clock of round ``number``."""
    rnd = state.round(number)
    if state.status == "finished":
        raise Refusal("already_done", "the tournament is finished")
    if rnd.status == "closed":
        raise Refusal("round_closed", f"round {number} is closed; its clock has stopped")
    if rnd.status == "proposed":
        raise Refusal("round_not_published", f"publish round {number} first, then start its clock")
    if ends_at is None:
        if rnd.ends_at is None:
            raise Refusal("no_clock", f"round {number} has no clock to stop")
        return rnd
    if ends_at <= now:
        raise Refusal("clock_past", "the round's end must be later than now")
    if ends_at - now > CLOCK_LONGEST:
        raise Refusal("clock_too_far", "the round's end must be within 24 hours from now")
    return rnd


def check_finish(state: TournamentState) -> None:
    if state.status == "finished":
        raise Refusal("already_done", "the tournament is already finished")
    last = state.last_round
    if last is not None and last.status != "closed":
        raise Refusal("round_not_closed", f"close round {last.number} first")


NOT_UNDOABLE: Final = {
    CREATED: "creating the tournament cannot be undone",
    PUBLISHED: "publishing cannot be undone: void a table's game instead",
    RESULT_RECORDED: (
        "a result cannot be undone here: it comes from its game, corrected on the table's page"
    ),
    RESULT_WITHDRAWN: (
        "a withdrawn result cannot be undone here: it comes back when its game is finished again"
    ),
    UNDONE: "an undo cannot be undone: do the action again instead",
}
"""Why each kind of action that is never undone is not, in the organizer's words."""

Stored = tuple[int, str, Mapping[str, Any]]


def check_undo(state: TournamentState, events: Sequence[Stored], version: int) -> str:
    """Refuse undoing an event that cannot be undone now; return its type."""
    target = next(((v, k, d) for v, k, d in events if v == version), None)
    if target is None:
        raise Refusal("bad_undo", f"there is no action at version {version}")
    refusal = _undo_refusal(state, target, _Context(state, events))
    if refusal is not None:
        raise Refusal("bad_undo", refusal)
    return target[1]


def undo_refusals(state: TournamentState, events: Sequence[Stored]) -> dict[int, str]:
    """Why each action of the stream cannot be undone now (version -> the organizer's words,
    as :func:`check_undo` would refuse it); an action missing here can be undone. One pass, for
    the history page (thousands of actions)."""
    context = _Context(state, events)
    found = {}
    for event in events:
        refusal = _undo_refusal(state, event, context)
        if refusal is not None:
            found[event[0]] = refusal
    return found


class _Context:
    """What deciding an undo needs beside the state, computed once for a whole stream: who has
    been seated, and the version of each round's pairing that counts (not undone)."""

    def __init__(self, state: TournamentState, events: Sequence[Stored]) -> None:
        self._seated: set[str] | None = None
        self.state = state
        self.pairing: dict[int, int] = {}
        for version, kind, data in events:
            if kind == PAIRED and version not in state.undone:
                self.pairing[data["round"]] = version

    @property
    def seated(self) -> set[str]:
        if self._seated is None:
            rounds = self.state.rounds
            self._seated = {p for r in rounds for t in r.tables for p in t.seats}
            self._seated.update(p for r in rounds for p in r.byes)
        return self._seated


def _undo_refusal(state: TournamentState, event: Stored, context: _Context) -> str | None:
    version, kind, data = event
    if version in state.undone:
        return f"the action at version {version} is already undone"
    if kind not in UNDOABLE:
        return NOT_UNDOABLE.get(kind, f"{kind.replace('_', ' ')} cannot be undone")
    if kind == REGISTERED and data["player"] in context.seated:
        return f"{data['name']} has been seated; drop them instead"
    if kind in (PAIRED, PAIRING_CHANGED, SCHEDULED):
        number = data["round"]
        if number <= len(state.rounds) and state.rounds[number - 1].status != "proposed":
            return f"round {number} is published; its pairing is final"
        if kind == PAIRING_CHANGED and context.pairing.get(number, 0) > version:
            return f"this swap belongs to a pairing of round {number} that was undone"
    if kind == RESULT_CONFIRMED and state.rounds[data["round"] - 1].status == "closed":
        return f"round {data['round']} is closed; undo its closing first"
    if kind == ROUND_CLOSED and len(state.rounds) > data["round"]:
        return f"round {data['round'] + 1} is already paired; its closing is final"
    return None
