"""Seat links of a tournament's tables, for its organizers (docs/tournaments.md, "Seat links").

Each table's game gets one link per seat when its round is published
(:func:`~tournaments.services.rounds.tournament_publish`); a round published before seat links
existed gets them here, the first time the desk shows or prints them. The links are credentials
(games.seats): only the tournament's organizers (and staff) read them, and none of this is a
tournament event (reissuing a link changes no fact of the tournament).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Literal

from django.utils.translation import gettext as _

from games import services as games
from games.services import Refused, SeatLinkView, User
from tournaments.domain import ORGANIZER
from tournaments.models import TournamentTable
from tournaments.services.access import _require
from tournaments.services.writes import _projection, _state

SeatAction = Literal["reissue", "revoke", "share", "unshare"]
SEAT_ACTIONS: tuple[SeatAction, ...] = ("reissue", "revoke", "share", "unshare")


def _organizer_only(tournament_id: uuid.UUID, user: User | None) -> None:
    _require(_state(_projection(tournament_id)), user, ORGANIZER)


def _tables(
    tournament_id: uuid.UUID, round: int, numbers: Iterable[int] | None
) -> dict[int, uuid.UUID]:
    rows = TournamentTable.objects.filter(tournament_id=tournament_id, round=round)
    if numbers is not None:
        rows = rows.filter(number__in=list(numbers))
    return dict(rows.order_by("number").values_list("number", "game_id"))


def tournament_seat_links(
    *,
    tournament_id: uuid.UUID,
    round: int,
    user: User | None,
    tables: Iterable[int] | None = None,
) -> dict[int, list[SeatLinkView]]:
    """The seat links of a published round's tables (``tables``: those only), by table number,
    for the tournament's organizers. A table without links (its round was published before seat
    links existed) gets them now."""
    _organizer_only(tournament_id, user)
    games_of = _tables(tournament_id, round, tables)
    found = games.seat_links_of(list(games_of.values()))
    for game_id, links in found.items():
        if not links:  # published before seat links: issued once, on the first look
            found[game_id] = games.seat_links_issue(game_id=game_id, user=None)
    return {number: found[game_id] for number, game_id in games_of.items()}


def tournament_seat_link_change(
    *,
    tournament_id: uuid.UUID,
    round: int,
    table: int,
    seat: int,
    action: SeatAction,
    user: User | None,
) -> SeatLinkView:
    """Reissue a seat's link (the old one stops at once), revoke it, or let the table's other
    phones enter for that seat (``share``) or stop (``unshare``)."""
    _organizer_only(tournament_id, user)
    game_id = _tables(tournament_id, round, [table]).get(table)
    if game_id is None:
        raise Refused(
            _("round %(round)s has no published table %(table)s")
            % {"round": round, "table": table},
            "no_table",
        )
    if not games.seat_links_of([game_id])[game_id]:
        games.seat_links_issue(game_id=game_id, user=None)
    if action == "reissue":
        return games.seat_link_reissue(game_id=game_id, seat=seat, user=user)
    if action == "revoke":
        return games.seat_link_revoke(game_id=game_id, seat=seat, user=user)
    if action in ("share", "unshare"):
        return games.seat_link_share(
            game_id=game_id, seat=seat, shared=action == "share", user=user
        )
    raise Refused(
        _("%(action)s is not something a seat link can do") % {"action": repr(action)},
        "bad_action",
    )
