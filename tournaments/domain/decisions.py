"""Decisions: an action checked against the state, giving the event to append or a
:class:`Refusal` with a code and the organizer's words."""

from __future__ import annotations

import datetime
import functools
import zoneinfo
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Protocol

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
from tournaments.domain.words import ENGLISH, Say, Translator, gettext_lazy, ngettext_lazy
from tournaments.events import (
    PlayerCheckedIn,
    PlayerCheckedOut,
    PlayerDropped,
    PlayerRegistered,
    PlayerReinstated,
    RoleGranted,
    RoleRevoked,
)

MAX_TOURNAMENT_NAME = 200
MAX_ROUNDS = 30
MAX_REGISTRATION = 500
"""The most entrants one registration brings in, whatever it came as (a JSON list, a pasted
list or a CSV file, the desk): a club tournament has tens (docs/api.md, "Limits")."""
MAX_PLAYER_LIST_BYTES = 256 * 1024
"""The most a pasted list or CSV file of players may weigh (UTF-8), however it is sent (a
text/csv or text/plain body, JSON ``text``, the desk's paste or upload): 500 players with
ratings are about 20 KiB."""


class GameKind(Protocol):
    """What the decisions need of a game type (games.gametypes.GameType has it): its name, the
    numbers of entrants a table may have, and whether the entrants are teams."""

    @property
    def name(self) -> str: ...

    @property
    def table_sizes(self) -> tuple[int, ...]: ...

    @property
    def teams(self) -> bool: ...


def check_settings(
    settings: Mapping[str, Any], known_game_types: Mapping[str, GameKind] | Iterable[str]
) -> None:
    """Refuse settings a tournament cannot run with. With the game types themselves (not only
    their keys), the preferred ``table_size`` is checked against the game's table sizes."""
    name = str(settings.get("name", "")).strip()
    if not name:
        raise Refusal("bad_settings", gettext_lazy("a tournament needs a name"))
    if len(name) > MAX_TOURNAMENT_NAME:
        raise Refusal(
            "bad_settings",
            gettext_lazy(
                "a tournament's name has at most %(max)s characters", max=MAX_TOURNAMENT_NAME
            ),
        )
    try:
        datetime.date.fromisoformat(str(settings.get("date", "")))
    except ValueError:
        raise Refusal(
            "bad_settings",
            gettext_lazy("%(date)s is not a date (YYYY-MM-DD)", date=repr(settings.get("date"))),
        ) from None
    hidden = settings.get("standings_hidden_from")
    if hidden is not None and (type(hidden) is not int or hidden < 1):
        raise Refusal(
            "bad_settings", gettext_lazy("standings are hidden from a round number, 1 or more")
        )
    bye = settings.get("bye_points")
    if bye is not None and (isinstance(bye, bool) or not isinstance(bye, int | float) or bye < 0):
        raise Refusal("bad_settings", gettext_lazy("points for a bye are a number, 0 or more"))
    tiebreaks = list(settings.get("tiebreaks", ()))
    if len(set(tiebreaks)) != len(tiebreaks):
        raise Refusal("bad_settings", gettext_lazy("each tie-break is listed once"))
    rounds = settings.get("rounds")
    if type(rounds) is not int or not 1 <= rounds <= MAX_ROUNDS:
        raise Refusal(
            "bad_settings",
            gettext_lazy("the number of Swiss rounds is a whole number from 1 to 30"),
        )
    if settings.get("game_type") not in set(known_game_types):
        raise Refusal(
            "bad_settings",
            gettext_lazy(
                "unknown game type %(game_type)s", game_type=repr(settings.get("game_type"))
            ),
        )
    if isinstance(known_game_types, Mapping):
        check_table_size(settings.get("table_size"), known_game_types[settings["game_type"]])
    check_time_zone(settings.get("time_zone"))
    if "relay_delay" in settings:
        check_relay_delay(settings["relay_delay"])
    for key, allowed in (
        ("pairing", PAIRING_MODES),
        ("publish", PUBLISH_MODES),
        ("round1", ROUND1_METHODS),
        ("confirmation", CONFIRMATION_MODES),
    ):
        if key in settings and settings[key] not in allowed:
            raise Refusal(
                "bad_settings",
                gettext_lazy(
                    "%(setting)s is one of %(allowed)s, not %(value)s",
                    setting=key,
                    allowed=", ".join(allowed),
                    value=repr(settings[key]),
                ),
            )


@functools.cache
def time_zone_names() -> frozenset[str]:
    """Every IANA time zone name this machine's zoneinfo knows (Europe/Paris, UTC, ...)."""
    return frozenset(zoneinfo.available_timezones())


def check_time_zone(name: Any) -> None:
    """Refuse a time zone setting that is not a zone's name (None: the site's zone)."""
    if name is None or (type(name) is str and name in time_zone_names()):
        return
    raise Refusal(
        "bad_settings",
        gettext_lazy(
            "%(zone)s is not a time zone: give its name, such as Europe/Paris or America/New_York",
            zone=repr(name),
        ),
    )


def check_table_size(size: Any, game: GameKind) -> None:
    """Refuse a preferred table size the game does not allow (None: the game's largest)."""
    if size is None:
        return
    sizes = tuple(game.table_sizes)
    if type(size) is int and size in sizes:
        return
    if game.teams:
        raise Refusal(
            "bad_settings",
            gettext_lazy(
                "a %(game)s table is two teams: its size is 2, not %(size)s",
                game=game.name,
                size=repr(size),
            ),
        )
    raise Refusal(
        "bad_settings",
        gettext_lazy(
            "a %(game)s table seats %(least)s to %(most)s players, not %(size)s",
            game=game.name,
            least=min(sizes),
            most=max(sizes),
            size=repr(size),
        ),
    )


def pairing_sizes(game_sizes: Sequence[int], preferred: int | None) -> tuple[int, ...]:
    """The table sizes a round is paired with: the game's sizes up to the organizer's preferred
    size (every size the game allows when none was chosen). The largest is the full table; the
    smaller ones fill in where the players do not divide evenly (Trick-n-Chef: 3 and 4; Food
    Truck at 3: 2 and 3)."""
    allowed = sorted(set(game_sizes))
    full = preferred if preferred in allowed else allowed[-1]
    return tuple(s for s in allowed if s <= full)


def decide_register(
    state: TournamentState,
    names: Sequence[str],
    ratings: Sequence[int | None] | None = None,
    members: Sequence[Sequence[str]] | None = None,
    team_members: tuple[int, int] | None = None,
) -> list[PlayerRegistered]:
    """``player_registered`` events for new entrants (late if the tournament has begun).

    In a team game (``team_members``: the fewest and most players a team may have) each name is
    a team's and ``members`` gives each team's players, in the same order; in another game
    ``members`` must be absent."""
    if state.status == "finished":
        raise Refusal("tournament_finished", gettext_lazy("the tournament is finished"))
    cleaned = [" ".join(str(n).split()) for n in names]
    if not cleaned:
        raise Refusal("bad_players", gettext_lazy("give at least one name"))
    if ratings is not None and len(ratings) != len(cleaned):
        raise Refusal(
            "bad_players",
            gettext_lazy(
                "give one rating (or null) per name: %(names)s names, %(ratings)s ratings",
                names=len(cleaned),
                ratings=len(ratings),
            ),
        )
    if len(cleaned) > MAX_REGISTRATION:
        raise Refusal(
            "bad_players",
            gettext_lazy(
                "one registration takes at most %(max)s names, not %(count)s: register them in "
                "several parts",
                max=MAX_REGISTRATION,
                count=len(cleaned),
            ),
        )
    teams = _check_members(state, cleaned, members, team_members)
    seen: set[str] = set()
    for name in cleaned:
        if not name:
            raise Refusal(
                "bad_players", gettext_lazy("a player needs a name (one of the names is empty)")
            )
        if len(name) > MAX_NAME:
            raise Refusal(
                "bad_players",
                gettext_lazy(
                    "a name has at most %(max)s characters: %(name)s...",
                    max=MAX_NAME,
                    name=name[:20],
                ),
            )
        if state.by_name(name) is not None or name.casefold() in seen:
            if teams is not None:
                raise Refusal(
                    "duplicate_player",
                    gettext_lazy(
                        "there is already a team named %(name)s; give each team a name of its own",
                        name=name,
                    ),
                )
            raise Refusal(
                "duplicate_player",
                gettext_lazy(
                    "there is already a player named %(name)s; add something to tell them "
                    "apart (e.g. %(name)s B.)",
                    name=name,
                ),
            )
        seen.add(name.casefold())
    late = bool(state.rounds)
    start = len(state.players) + 1
    return [
        PlayerRegistered(
            player=f"P{start + i}",
            name=name,
            rating=None if ratings is None else ratings[i],
            late=late,
            members=() if teams is None else tuple(teams[i]),
        )
        for i, name in enumerate(cleaned)
    ]


def _check_members(
    state: TournamentState,
    names: Sequence[str],
    members: Sequence[Sequence[str]] | None,
    team_members: tuple[int, int] | None,
) -> list[list[str]] | None:
    """Each team's members, cleaned and checked (None: not a team game)."""
    if team_members is None:
        if members is not None and any(members):
            raise Refusal(
                "bad_players",
                gettext_lazy(
                    "this tournament's entrants are players, not teams: give names without members"
                ),
            )
        return None
    least, most = team_members
    if members is None or len(members) != len(names):
        raise Refusal(
            "bad_players",
            gettext_lazy("this tournament's entrants are teams: give each team's players"),
        )
    playing = {m.casefold(): p.name for p in state.players.values() for m in p.members}
    teams: list[list[str]] = []
    for team, listed in zip(names, members, strict=True):
        cleaned = [" ".join(str(m).split()) for m in listed]
        if any(not m for m in cleaned):
            raise Refusal(
                "bad_players",
                gettext_lazy("a player of team %(team)s has no name", team=team),
            )
        for member in cleaned:
            if len(member) > MAX_NAME:
                raise Refusal(
                    "bad_players",
                    gettext_lazy(
                        "a name has at most %(max)s characters: %(name)s...",
                        max=MAX_NAME,
                        name=member[:20],
                    ),
                )
            other = playing.get(member.casefold())
            if other is not None:
                raise Refusal(
                    "duplicate_player",
                    gettext_lazy(
                        "%(player)s already plays in team %(other)s: a player plays in one team",
                        player=member,
                        other=other,
                    ),
                )
            playing[member.casefold()] = team
        if len(cleaned) < least:
            raise Refusal(
                "bad_team",
                ngettext_lazy(
                    "team %(team)s has %(count)s player; a team needs at least %(least)s",
                    "team %(team)s has %(count)s players; a team needs at least %(least)s",
                    len(cleaned),
                    team=team,
                    count=len(cleaned),
                    least=least,
                ),
            )
        if len(cleaned) > most:
            raise Refusal(
                "bad_team",
                ngettext_lazy(
                    "team %(team)s has %(count)s player; a team has at most %(most)s",
                    "team %(team)s has %(count)s players; a team has at most %(most)s",
                    len(cleaned),
                    team=team,
                    count=len(cleaned),
                    most=most,
                ),
            )
        teams.append(cleaned)
    return teams


PlayerChange = PlayerCheckedIn | PlayerCheckedOut | PlayerDropped | PlayerReinstated
_PLAYER_CHANGES: Final[dict[str, type[PlayerChange]]] = {
    CHECKED_IN: PlayerCheckedIn,
    CHECKED_OUT: PlayerCheckedOut,
    DROPPED: PlayerDropped,
    REINSTATED: PlayerReinstated,
}


def decide_player_change(state: TournamentState, player_id: str, kind: str) -> PlayerChange:
    player = state.player(player_id)
    if kind == CHECKED_IN and player.checked_in:
        raise Refusal(
            "already_done", gettext_lazy("%(player)s is already checked in", player=player.name)
        )
    if kind == CHECKED_OUT and not player.checked_in:
        raise Refusal(
            "already_done", gettext_lazy("%(player)s is not checked in", player=player.name)
        )
    if kind == DROPPED and player.dropped:
        raise Refusal(
            "already_done", gettext_lazy("%(player)s has already dropped", player=player.name)
        )
    if kind == REINSTATED and not player.dropped:
        raise Refusal(
            "already_done", gettext_lazy("%(player)s has not dropped", player=player.name)
        )
    return _PLAYER_CHANGES[kind](player=player_id)


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
        gettext_lazy(
            "%(player)s plays at table %(table)s of round %(round)s, which is not finished. "
            "Dropping %(player)s does not end that game: the table still needs its result (if "
            "it cannot finish, enter what was played as results only). Drop %(player)s anyway?",
            player=name,
            table=where[1],
            round=where[0],
        ),
    )


def decide_role(
    state: TournamentState, user_id: int, username: str, role: str, grant: bool
) -> RoleGranted | RoleRevoked:
    if role not in ROLES:
        raise Refusal(
            "bad_role",
            gettext_lazy(
                "a role is %(roles)s, not %(role)s", roles=" or ".join(ROLES), role=repr(role)
            ),
        )
    has = state.has_role(user_id, role)
    if grant and has:
        raise Refusal("already_done", _role_words(username, role, held=True))
    if not grant and not has:
        raise Refusal("already_done", _role_words(username, role, held=False))
    if not grant and role == ORGANIZER:
        others = [
            uid for uid, roles in state.roles.items() if ORGANIZER in roles and uid != user_id
        ]
        if not others:
            raise Refusal(
                "last_organizer", gettext_lazy("a tournament keeps at least one organizer")
            )
    return (RoleGranted if grant else RoleRevoked)(user_id=user_id, username=username, role=role)


def _role_words(username: str, role: str, *, held: bool) -> Say:
    """ "Ana is already an organizer" / "Ana is not a scorekeeper": one sentence per role, so
    that a language can say each role in its own way."""

    def say(t: Translator) -> str:
        if role == ORGANIZER:
            text = (
                t.gettext("%(user)s is already an organizer")
                if held
                else t.gettext("%(user)s is not an organizer")
            )
        elif held:
            text = t.gettext("%(user)s is already a scorekeeper")
        else:
            text = t.gettext("%(user)s is not a scorekeeper")
        return text % {"user": username}

    return say


def seated_players(state: TournamentState) -> list[Player]:
    """Who is seated in the next round: not dropped, and checked in if the tournament checks in."""
    check_in = state.config.check_in
    return [p for p in state.players.values() if not p.dropped and (p.checked_in or not check_in)]


def check_can_pair(state: TournamentState, number: int) -> None:
    """Refuse pairing round ``number`` unless the previous one is complete."""
    if state.status == "finished":
        raise Refusal("tournament_finished", gettext_lazy("the tournament is finished"))
    expected = len(state.rounds) + 1
    if number != expected:
        raise Refusal(
            "wrong_round",
            gettext_lazy(
                "the next round to pair is round %(expected)s, not %(round)s",
                expected=expected,
                round=number,
            ),
        )
    if number > state.config.rounds:
        raise Refusal(
            "no_more_rounds",
            ngettext_lazy(
                "the tournament has %(rounds)s round; finish it instead",
                "the tournament has %(rounds)s rounds; finish it instead",
                state.config.rounds,
                rounds=state.config.rounds,
            ),
        )
    last = state.last_round
    if last is not None and last.status != "closed":
        if last.status == "proposed":
            raise Refusal(
                "round_not_published",
                gettext_lazy(
                    "round %(round)s is proposed but not published yet", round=last.number
                ),
            )
        missing = last.missing
        if missing:
            raise Refusal(
                "results_missing",
                ngettext_lazy(
                    "round %(round)s is not complete: table %(tables)s has no confirmed result yet",
                    "round %(round)s is not complete: tables %(tables)s have no confirmed "
                    "result yet",
                    len(missing),
                    round=last.number,
                    tables=", ".join(map(str, missing)),
                ),
            )
        raise Refusal(
            "round_not_closed", gettext_lazy("close round %(round)s first", round=last.number)
        )


def decide_swap(state: TournamentState, number: int, a: str, b: str) -> list[list[str]]:
    """The tables of a proposed round after swapping two players (or two seats)."""
    rnd = state.round(number)
    if rnd.status != "proposed":
        raise Refusal(
            "round_published",
            gettext_lazy("round %(round)s is published; its tables are final", round=number),
        )
    if a == b:
        raise Refusal("bad_swap", gettext_lazy("choose two different players"))
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
                raise Refusal(
                    "bad_swap",
                    gettext_lazy(
                        "%(player)s has the bye; swap players seated at tables", player=name
                    ),
                )
            raise Refusal(
                "bad_swap",
                gettext_lazy(
                    "%(player)s is not seated in round %(round)s", player=name, round=number
                ),
            )
        spots.append(where)
    (ta, sa), (tb, sb) = spots
    tables[ta][sa], tables[tb][sb] = tables[tb][sb], tables[ta][sa]
    return tables


def check_publish(state: TournamentState, number: int, *, teams: bool = False) -> Round:
    """The round to publish; ``teams``: its entrants are teams, and each table's two teams
    must be seatable together (:func:`check_team_sizes`)."""
    rnd = state.round(number)
    if rnd.status != "proposed":
        raise Refusal(
            "round_published",
            gettext_lazy("round %(round)s is already published", round=number),
        )
    if teams:
        for table in rnd.tables:
            check_team_sizes(state, number, table)
    return rnd


def check_team_sizes(state: TournamentState, number: int, table: Table) -> None:
    """Refuse a table whose two teams differ by more than one player: a team game seats them
    together only then (Crazy Kitchen's rule CK1.3, the team games' rule)."""
    teams = [state.players[p] for p in table.seats]
    sizes = [len(team.members) for team in teams]
    if len(sizes) == 2 and abs(sizes[0] - sizes[1]) > 1:
        raise Refusal(
            "bad_teams",
            gettext_lazy(
                "round %(round)s, table %(table)s: %(a)s has %(a_size)s players and %(b)s "
                "has %(b_size)s; teams at a table differ by one player at most. Swap teams "
                "between tables before publishing.",
                round=number,
                table=table.number,
                a=teams[0].name,
                a_size=sizes[0],
                b=teams[1].name,
                b_size=sizes[1],
            ),
        )


def check_confirm(
    state: TournamentState, number: int, table_number: int, user_id: int | None, staff: bool
) -> Table:
    rnd = state.round(number)
    table = rnd.table(table_number)
    if table.result is None:
        raise Refusal(
            "no_result",
            gettext_lazy(
                "table %(table)s of round %(round)s has no result yet",
                table=table_number,
                round=number,
            ),
        )
    if table.confirmed:
        raise Refusal(
            "already_done",
            gettext_lazy(
                "table %(table)s of round %(round)s is confirmed", table=table_number, round=number
            ),
        )
    if rnd.status == "closed":
        raise Refusal("round_closed", gettext_lazy("round %(round)s is closed", round=number))
    entered = user_id is not None and user_id in table.entered_by
    organizer = staff or state.has_role(user_id, ORGANIZER)
    scorekeeper = state.has_role(user_id, SCOREKEEPER)
    mode = state.config.confirmation
    if mode == "second_person" and entered:
        raise Refusal(
            "second_person_required",
            gettext_lazy("this table's result must be confirmed by someone who did not enter it"),
        )
    if not organizer and not (scorekeeper and not entered):
        raise Refusal(
            "forbidden",
            gettext_lazy(
                "an organizer confirms results, or a scorekeeper who did not enter the table"
            ),
        )
    return table


def check_close(state: TournamentState, number: int) -> Round:
    rnd = state.round(number)
    if rnd.status == "closed":
        raise Refusal("already_done", gettext_lazy("round %(round)s is closed", round=number))
    if rnd.status == "proposed":
        raise Refusal(
            "round_not_published",
            gettext_lazy("round %(round)s is not published yet", round=number),
        )
    missing = rnd.missing
    if missing:
        raise Refusal(
            "results_missing",
            ngettext_lazy(
                "round %(round)s cannot close: table %(tables)s has no confirmed result yet",
                "round %(round)s cannot close: tables %(tables)s have no confirmed result yet",
                len(missing),
                round=number,
                tables=", ".join(map(str, missing)),
            ),
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
        raise Refusal("already_done", gettext_lazy("the tournament is finished"))
    if rnd.status == "closed":
        raise Refusal(
            "round_closed",
            gettext_lazy("round %(round)s is closed; its clock has stopped", round=number),
        )
    if rnd.status == "proposed":
        raise Refusal(
            "round_not_published",
            gettext_lazy("publish round %(round)s first, then start its clock", round=number),
        )
    if ends_at is None:
        if rnd.ends_at is None:
            raise Refusal(
                "no_clock", gettext_lazy("round %(round)s has no clock to stop", round=number)
            )
        return rnd
    if ends_at <= now:
        raise Refusal("clock_past", gettext_lazy("the round's end must be later than now"))
    if ends_at - now > CLOCK_LONGEST:
        raise Refusal(
            "clock_too_far", gettext_lazy("the round's end must be within 24 hours from now")
        )
    return rnd


RELAY_DELAY_LONGEST = 3600
"""The longest delay spectators may be kept behind the tables, in seconds (an hour, as chess
relays allow)."""


def check_relay_delay(seconds: Any) -> None:
    """Refuse a relay delay that is not a whole number of seconds from 0 to an hour."""
    if type(seconds) is not int or not 0 <= seconds <= RELAY_DELAY_LONGEST:
        raise Refusal(
            "bad_delay",
            gettext_lazy("the spectators' delay is from 0 to 60 minutes"),
        )


def check_delay(state: TournamentState, number: int, seconds: int | None) -> Round:
    """Setting (or, with ``seconds`` None, giving back to the tournament's) the relay's delay
    of round ``number``."""
    rnd = state.round(number)
    if state.status == "finished":
        raise Refusal("already_done", gettext_lazy("the tournament is finished"))
    if rnd.status == "closed":
        raise Refusal(
            "round_closed",
            gettext_lazy(
                "round %(round)s is closed: its tables are no longer played", round=number
            ),
        )
    if seconds is not None:
        check_relay_delay(seconds)
    if rnd.delay == seconds:
        raise Refusal("unchanged", gettext_lazy("the round already has this delay"))
    return rnd


def check_finish(state: TournamentState) -> None:
    if state.status == "finished":
        raise Refusal("already_done", gettext_lazy("the tournament is already finished"))
    last = state.last_round
    if last is not None and last.status != "closed":
        raise Refusal(
            "round_not_closed", gettext_lazy("close round %(round)s first", round=last.number)
        )


NOT_UNDOABLE: Final[dict[str, Say]] = {
    CREATED: gettext_lazy("creating the tournament cannot be undone"),
    PUBLISHED: gettext_lazy("publishing cannot be undone: void a table's game instead"),
    RESULT_RECORDED: gettext_lazy(
        "a result cannot be undone here: it comes from its game, corrected on the table's page"
    ),
    RESULT_WITHDRAWN: gettext_lazy(
        "a withdrawn result cannot be undone here: it comes back when its game is finished again"
    ),
    UNDONE: gettext_lazy("an undo cannot be undone: do the action again instead"),
}
"""Why each kind of action that is never undone is not, in the organizer's words."""

Stored = tuple[int, str, Mapping[str, Any]]


def check_undo(state: TournamentState, events: Sequence[Stored], version: int) -> str:
    """Refuse undoing an event that cannot be undone now; return its type."""
    target = next(((v, k, d) for v, k, d in events if v == version), None)
    if target is None:
        raise Refusal(
            "bad_undo", gettext_lazy("there is no action at version %(version)s", version=version)
        )
    refusal = _undo_refusal(state, target, _Context(state, events))
    if refusal is not None:
        raise Refusal("bad_undo", refusal)
    return target[1]


def undo_refusals(
    state: TournamentState, events: Sequence[Stored], t: Translator = ENGLISH
) -> dict[int, str]:
    """Why each action of the stream cannot be undone now (version -> the organizer's words,
    said by ``t``, as :func:`check_undo` would refuse it); an action missing here can be undone.
    One pass, for the history page (thousands of actions)."""
    context = _Context(state, events)
    found = {}
    for event in events:
        refusal = _undo_refusal(state, event, context)
        if refusal is not None:
            found[event[0]] = refusal(t)
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


def _undo_refusal(state: TournamentState, event: Stored, context: _Context) -> Say | None:
    version, kind, data = event
    if version in state.undone:
        return gettext_lazy("the action at version %(version)s is already undone", version=version)
    if kind not in UNDOABLE:
        return NOT_UNDOABLE.get(
            kind, gettext_lazy("%(action)s cannot be undone", action=kind.replace("_", " "))
        )
    if kind == REGISTERED and data["player"] in context.seated:
        return gettext_lazy("%(player)s has been seated; drop them instead", player=data["name"])
    if kind in (PAIRED, PAIRING_CHANGED, SCHEDULED):
        number = data["round"]
        if number <= len(state.rounds) and state.rounds[number - 1].status != "proposed":
            return gettext_lazy("round %(round)s is published; its pairing is final", round=number)
        if kind == PAIRING_CHANGED and context.pairing.get(number, 0) > version:
            return gettext_lazy(
                "this swap belongs to a pairing of round %(round)s that was undone", round=number
            )
    if kind == RESULT_CONFIRMED and state.rounds[data["round"] - 1].status == "closed":
        return gettext_lazy(
            "round %(round)s is closed; undo its closing first", round=data["round"]
        )
    if kind == ROUND_CLOSED and len(state.rounds) > data["round"]:
        return gettext_lazy(
            "round %(round)s is already paired; its closing is final", round=data["round"] + 1
        )
    return None
