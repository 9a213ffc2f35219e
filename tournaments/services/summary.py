"""The tournament as the API and the pages show it, to one user (a presenter of the state)."""

from __future__ import annotations

from typing import Any

from django.utils import translation

from games.gametypes import GAME_TYPES
from games.services import User
from tournaments import domain, notes
from tournaments.domain import TournamentState
from tournaments.models import TournamentProjection
from tournaments.results import Placement
from tournaments.services.access import _sees_proposals, downloads_allowed, standings_visible


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
        }
        | ({"table_size": config.table_size} if config.table_size is not None else {})
        | ({"time_zone": config.time_zone} if config.time_zone is not None else {})
        | ({"relay_delay": config.relay_delay} if config.relay_delay else {})
        # only when chosen, as table_size: a default tournament's summary is as before
        | ({"rank_not_checked_in": True} if config.rank_not_checked_in else {}),
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
            | ({"members": list(p.members)} if p.members else {})
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


def _tiebreaks_json(result: Placement, last_round: bool) -> dict[str, Any]:
    """A placement's tie-break values as the summary (and the API, the exports) give them: as
    ``last_round``, the one value of a game whose type says so (Trick-n-Chef's deal 3, as its
    results have always been given), else ``last_round`` null and ``tiebreaks`` when there are
    some (no key otherwise)."""
    if last_round:
        return {"last_round": result.tiebreaks[0] if result.tiebreaks else None}
    return {"last_round": None} | (
        {"tiebreaks": list(result.tiebreaks)} if result.tiebreaks else {}
    )


def _round_json(state: TournamentState, rnd: domain.Round) -> dict[str, Any]:
    kind = GAME_TYPES.get(state.config.game_type)
    last_round = bool(kind and kind.tiebreak_as_last_round)
    name = {p.id: p.name for p in state.players.values()}
    members = {p.id: list(p.members) for p in state.players.values() if p.members}

    def seat(p: str) -> dict[str, Any]:
        """A seat (or a bye): the entrant, and a team's players."""
        return {"player": p, "name": name.get(p, p)} | (
            {"members": members[p]} if p in members else {}
        )

    detail = {
        d["table"]: {
            "spread": d["spread"],
            "points_spread": d["points_spread"],
            "repeats": [[name.get(a, a), name.get(b, b)] for a, b in d["repeats"]],
        }
        for d in rnd.details
    }
    return (
        {
            "round": rnd.number,
            "status": rnd.status,
            "method": rnd.method,
            "seed": rnd.seed,
            "tables": [
                {
                    "table": t.number,
                    "seats": [seat(p) for p in t.seats],
                    "game": t.game,
                    "result": None
                    if t.result is None
                    else [
                        {
                            "player": r.player,
                            "name": name.get(r.player, r.player),
                            "place": r.place,
                            "victory_points": r.victory_points,
                            **_tiebreaks_json(r, last_round),
                        }
                        for r in t.result
                    ],
                    "confirmed": t.confirmed,
                    **detail.get(t.number, {}),
                }
                for t in rnd.tables
            ],
            "byes": [seat(p) for p in rnd.byes],
            "cost": rnd.cost,
            "lower_bound": rnd.lower_bound,
            "notes": notes.describe_all(rnd.notes, name, translation),
            "missing": rnd.missing if rnd.status == "published" else [],
        }
        | ({"ends_at": rnd.ends_at} if rnd.ends_at and rnd.status == "published" else {})
        | ({"relay_delay": rnd.delay} if rnd.delay is not None else {})
    )
