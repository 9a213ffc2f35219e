"""Who may change a tournament's games (registered with games.policy when the app starts).

A tournament table's game is entered by the tournament's scorekeepers and organizers only (a
scorekeeper of tournament A cannot touch tournament B's tables); only organizers void it, and
once its result is confirmed only organizers correct it. In a game that has the rule (its game
type's ``first_player_rule``: Trick-n-Chef, and Food Truck, whose round 1 may start with anyone),
round 1's first player must be seat 1 of the table, as the pairing set it; the other games'
tables (Chefs, Crazy Kitchen: who cooks first is set at its start) are not subject to it. While
a round is being played, its organizers and scorekeepers (and staff) are the only ones who see
the cards still held (games/hands.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from games import policy
from games.gametypes import DEFAULT_GAME_TYPE, GAME_TYPES
from games.services import NotAllowed, Refused
from tournaments import domain
from tournaments.models import TournamentRole, TournamentTable


def tournament_games(
    game: Any, user: Any, action: str, events: Sequence[Mapping[str, Any]]
) -> bool | None:
    table = TournamentTable.objects.filter(game_id=game.stream_id).first()
    if table is None:
        return None  # not a tournament game: the defaults apply
    if action == policy.EXPORT:
        state = _tournament_state(table)
        if state.config.downloads_released or _organizes(table, user):
            return True
        raise NotAllowed(_("the organizer has not released the tournament's downloads yet"))
    if action == policy.SEAT_APPEND:  # a seat link's phone: the link is its credential
        _check_first_player(game, table, events)
        return True
    if user is None or not user.is_authenticated:
        raise NotAllowed(_("log in as a scorekeeper of this tournament"))
    roles = set(
        TournamentRole.objects.filter(
            tournament_id=table.tournament_id, user_id=user.pk
        ).values_list("role", flat=True)
    )
    organizer = bool(user.is_staff) or domain.ORGANIZER in roles
    if action == policy.HANDS:
        if not organizer and domain.SCOREKEEPER not in roles:
            raise NotAllowed(
                _("only this tournament's organizers and scorekeepers see the hands being played")
            )
    elif action in (policy.VOID, policy.PUBLISH, policy.SEATS):
        if not organizer:
            raise NotAllowed(_("only an organizer of this tournament can do this"))
    elif not organizer and domain.SCOREKEEPER not in roles:
        raise NotAllowed(_("only this tournament's scorekeepers and organizers enter its tables"))
    elif action == policy.CORRECT and not organizer and _confirmed(table):
        raise NotAllowed(_("this table's result is confirmed: only an organizer can correct it"))
    if action == policy.APPEND:
        _check_first_player(game, table, events)
    return True


def _has_first_player_rule(game: Any) -> bool:
    """Whether the game's type starts round 1 with the pairing's seat 1 (Trick-n-Chef, Food
    Truck)."""
    kind = GAME_TYPES.get(getattr(game, "game_type", None) or DEFAULT_GAME_TYPE)
    return kind is not None and kind.first_player_rule


def _check_first_player(
    game: Any, table: TournamentTable, events: Sequence[Mapping[str, Any]]
) -> None:
    if not _has_first_player_rule(game):
        return
    for index, event in enumerate(events):
        if (
            isinstance(event, Mapping)
            and event.get("type") == "round_started"
            and event.get("round") == 1
            and event.get("first_player") != _first_player(table)
        ):
            raise Refused(
                _("at this tournament table %(player)s (seat 1) is the first player of round 1")
                % {"player": _first_player(table)},
                "bad_first_player",
                index,
            )


def tournament_seating(game: Any) -> policy.Seating | None:
    """Which tournament, round and table the game is, and round 1's first player (seat 1)."""
    table = (  # asked at every render of the table page: not the tournament's big columns
        TournamentTable.objects.filter(game_id=game.stream_id)
        .select_related("tournament")
        .only("round", "number", "seats", "tournament__name")
        .first()
    )
    if table is None:
        return None
    where = _("%(tournament)s · round %(round)s · table %(table)s") % {
        "tournament": table.tournament.name,
        "round": table.round,
        "table": table.number,
    }
    tid = table.tournament_id
    round_page = reverse("public:round", args=[tid, table.round])
    trail = (
        (table.tournament.name, reverse("public:tournament", args=[tid])),
        (_("Round %(round)s") % {"round": table.round}, round_page),
        (_("Table %(table)s") % {"table": table.number}, f"{round_page}#table-{table.number}"),
    )
    return policy.Seating(
        where=where,
        trail=trail,
        clock=reverse("public:clock", args=[tid]),
        first_player=_first_player(table) if _has_first_player_rule(game) else None,
    )


def _first_player(table: TournamentTable) -> str:
    """Round 1's first player at a tournament table: seat 1, as the pairing set it."""
    return str(table.seats[0])


def _organizes(table: TournamentTable, user: Any) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return (
        bool(user.is_staff)
        or TournamentRole.objects.filter(
            tournament_id=table.tournament_id, user_id=user.pk, role=domain.ORGANIZER
        ).exists()
    )


def _tournament_state(table: TournamentTable) -> domain.TournamentState:
    from tournaments import services  # services import the game services, which import this

    return services.tournament_state(table.tournament_id)


def _confirmed(table: TournamentTable) -> bool:
    state = _tournament_state(table)
    if table.round > len(state.rounds):
        return False
    return any(t.number == table.number and t.confirmed for t in state.round(table.round).tables)


def relay_delays(game_ids: Sequence[Any]) -> dict[Any, int]:
    """How long spectators wait to see each of these games that is a tournament table: its
    round's relay delay, else the tournament's (docs/relay.md). One query for the tables, and
    each tournament's state once."""
    rows = TournamentTable.objects.filter(game_id__in=list(game_ids)).values_list(
        "game_id", "tournament_id", "round"
    )
    states: dict[Any, domain.TournamentState] = {}
    out: dict[Any, int] = {}
    for game_id, tournament_id, number in rows:
        if tournament_id not in states:
            from tournaments import services  # services import the game services

            states[tournament_id] = services.tournament_state(tournament_id)
        state = states[tournament_id]
        if state.settings is not None:
            out[game_id] = state.relay_delay(number)
    return out
