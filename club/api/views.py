"""The club's API: leagues and their season tables, ratings, members' pages, the club's records
and the results the ratings come from (docs/api.md, "The club: leagues, ratings and members").

Reads are public: a hidden member is "Hidden member" with no id (their id is a hash of their
name, so it would name them) and their page is a 404, except to the club's officials (staff
users), who see everyone. Writes are the officials' only (an anonymous request 401, anyone else
403, before the body is read); they call club.services.writes, whose refusals reach the client
as the rest of the API's (games.api.errors: 404, 403, 422 with a stable code). The club's
consumer runs once a write commits, and the reads here show its work.
"""

from __future__ import annotations

import csv
import io
import json
import re
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.http import HttpResponse
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from club import domain
from club.api import serializers as s
from club.services import reads, writes
from games.api.views import (
    BAD_REQUEST,
    NOT_AUTHENTICATED,
    RECORD_MEDIA_TYPE,
    JSONErrorsNegotiation,
    _error,
    _valid,
)
from games.gametypes import GAME_TYPES
from games.words import word_list
from tournaments.api import exports

TAGS = ["club"]
MEMBER_ID = re.compile(r"^[0-9a-f]{12}$")
"""A member's id (club.domain.member_id): anything else names no member."""


# ----------------------------------------------------------------------------- permissions


class OfficialsWrite(permissions.BasePermission):
    """Anyone reads; the club's officials (staff users) write. Checked before the body is read,
    so that a stranger learns nothing from the validation of what they sent."""

    message = gettext_lazy("only the club's officials (staff users) may change the club")

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return reads.is_official(request.user)


class BadGame(exceptions.APIException):
    """A game type the read cannot take: missing, unknown, or none of the league's."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = gettext_lazy("say which game: game=KEY")
    default_code = "bad_game"


class ClubView(APIView):
    permission_classes = [OfficialsWrite]


def _official(request: Request) -> bool:
    return reads.is_official(request.user)


def _member_id(value: str) -> str:
    if MEMBER_ID.fullmatch(value) is None:
        raise reads.MemberNotFound(_("there is no member %(member)s") % {"member": value[:40]})
    return value


# ----------------------------------------------------------------------------- schema helpers

NOT_FOUND = _error("There is no such league or member, or the member is hidden (not_found).")
REFUSED = _error(
    "The club's rules refuse it: `code` says why (bad_name, unknown_rule, bad_points, "
    "bad_divisions, no_tournament, not_linked, no_member, no_division, same_member, no_entry, "
    "nothing_to_split, bad_display_name, nothing_to_change, ...)."
)
BAD_GAME = _error(
    "No `game`, or one that is not a game of the league (bad_game: the message lists them); "
    "or a malformed query (bad_request)."
)
WRITE_ERRORS: dict[int, Any] = {
    400: BAD_REQUEST,
    401: NOT_AUTHENTICATED,
    403: _error(
        "Not one of the club's officials (forbidden), or a session without its CSRF token."
    ),
    404: NOT_FOUND,
    422: REFUSED,
}
LEAGUE_ID = OpenApiParameter(
    "league_id",
    {"type": "integer", "minimum": 0},
    OpenApiParameter.PATH,
    description="A league's id.",
)
MEMBER_PATH = {"type": "string", "pattern": MEMBER_ID.pattern}


def _member_parameter(name: str, description: str) -> OpenApiParameter:
    return OpenApiParameter(name, MEMBER_PATH, OpenApiParameter.PATH, description=description)


def _game_parameter(*, required: bool, description: str) -> OpenApiParameter:
    return OpenApiParameter(
        "game",
        {"type": "string", "enum": list(GAME_TYPES)},
        OpenApiParameter.QUERY,
        required=required,
        description=description,
    )


def _write_schema(
    summary: str,
    description: str,
    request: Any,
    response: Any,
    *,
    created: bool = True,
    parameters: Sequence[OpenApiParameter] = (),
) -> Callable[[Any], Any]:
    return extend_schema(
        summary=summary,
        description=description + " The club's officials (staff users) only.",
        request=request,
        parameters=list(parameters),
        responses={201 if created else 200: response, **WRITE_ERRORS},
        tags=TAGS,
    )


# ----------------------------------------------------------------------------- shapes


def _league_item(league: domain.League) -> dict[str, Any]:
    return {
        "id": league.id,
        "name": league.name,
        "rules": league.rules.to_json(),
        "tournaments": list(league.tournaments),
    }


def _tournaments(season: reads.SeasonView) -> list[dict[str, Any]]:
    return [
        {"id": t.id, "name": t.name, "date": t.date, "game_type": t.game_type, "status": t.status}
        for t in season.tournaments
    ]


def _league(league_id: int, *, official: bool) -> dict[str, Any]:
    season = reads.season_view(league_id, official=official)
    league = season.league
    return {
        "id": league.id,
        "name": league.name,
        "rules": league.rules.to_json(),
        "tournaments": _tournaments(season),
        "games": sorted({t.game_type for t in season.tournaments}),
    }


def _shown_id(member: str, hidden: frozenset[str], official: bool) -> str | None:
    """A member's id as a read gives it: none for a hidden member, to the public."""
    return None if member in hidden and not official else member


def _standings(season: reads.SeasonView, *, official: bool) -> dict[str, Any]:
    return {
        "league": season.league.id,
        "name": season.league.name,
        "rules": season.league.rules.to_json(),
        "tournaments": _tournaments(season),
        "rows": [
            {
                "rank": row.rank,
                "member": _shown_id(row.member, season.hidden, official),
                "name": season.names.get(row.member, ""),
                "division": row.division,
                "total": row.total,
                "played": row.played,
                "results": [
                    {
                        "tournament": r.tournament,
                        "place": r.place,
                        "points": r.points,
                        "counted": r.counted,
                    }
                    for r in row.results
                ],
            }
            for row in season.rows
        ],
    }


def _csv(rows: Sequence[Sequence[Any]]) -> bytes:
    """A CSV file as the tournaments' exports write them: the byte-order mark, RFC 4180 rows,
    every cell safe for a spreadsheet (tournaments.api.exports.safe_cell)."""
    out = io.StringIO()
    out.write(exports.BOM)
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows([exports.safe_cell(cell) for cell in row] for row in rows)
    return out.getvalue().encode("utf-8")


def standings_csv(standings: Mapping[str, Any]) -> bytes:
    """Rank, Name, Division, Total, Played, then each tournament's points (empty: not taken
    part; in parentheses: not counted)."""
    tournaments = standings["tournaments"]
    header = [
        _("Rank"),
        _("Name"),
        _("Division"),
        _("Total"),
        pgettext("the season's tournaments a member took part in", "Played"),
        *(t["name"] for t in tournaments),
    ]
    rows: list[list[Any]] = [header]
    for row in standings["rows"]:
        results = {r["tournament"]: r for r in row["results"]}
        cells: list[Any] = []
        for t in tournaments:
            result = results.get(t["id"])
            if result is None:
                cells.append("")
            else:
                cells.append(result["points"] if result["counted"] else f"({result['points']})")
        rank = row["rank"]
        rows.append(
            [
                "" if rank is None else rank,
                row["name"],
                row["division"],
                row["total"],
                row["played"],
            ]
            + cells
        )
    return _csv(rows)


def _attachment(data: bytes, media_type: str, name: str) -> HttpResponse:
    response = HttpResponse(data, content_type=media_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _rating(row: reads.RatingRow, hidden: frozenset[str], official: bool) -> dict[str, Any]:
    return {
        "member": _shown_id(row.member, hidden, official),
        "name": row.name,
        "mu": row.mu,
        "sigma": row.sigma,
        "ordinal": row.ordinal,
        "games": row.games,
        "provisional": row.provisional,
    }


def _member(view: reads.MemberView) -> dict[str, Any]:
    member = view.member
    return {
        "id": member.id,
        "name": view.name,
        "names": list(view.names),
        "display_name": member.display_name,
        "hidden": member.hidden,
        "leagues": [{"id": i, "name": n} for i, n in view.leagues],
        "history": [
            {
                "tournament": e.tournament,
                "tournament_name": e.tournament_name,
                "date": e.date,
                "game_type": e.game_type,
                "name": e.name,
                "team": e.team,
                "place": e.place,
                "games": e.games,
                "finished": e.finished,
                "player": e.player,
                "index": e.index,
            }
            for e in view.history
        ],
        "games": [
            {
                "game_type": g.game_type,
                "rating": None
                if g.rating is None
                else {
                    "mu": g.rating.mu,
                    "sigma": g.rating.sigma,
                    "ordinal": g.rating.ordinal,
                    "games": g.rating.games,
                    "provisional": g.rating.provisional,
                    "rank": g.rating.rank,
                },
                "changes": [
                    {
                        "seq": c.seq,
                        "game": c.game,
                        "tournament": c.tournament,
                        "tournament_name": c.tournament_name,
                        "round": c.round,
                        "table": c.table,
                        "place": c.place,
                        "size": c.size,
                        "ordinal_before": c.ordinal_before,
                        "ordinal": c.ordinal,
                        "change": c.change,
                        "mu": c.mu,
                        "sigma": c.sigma,
                        "games": c.games,
                    }
                    for c in g.steps
                ],
                "statistics": [
                    {"code": st.code, "value": st.value, "sample": st.sample, "games": st.games}
                    for st in g.statistics
                ],
                "feats": [
                    {"code": code, "value": value, "round": rnd, "tournament_name": where}
                    for code, value, rnd, where in g.feats
                ],
            }
            for g in view.games
        ],
    }


def _change(change: writes.ClubChange, member: str) -> dict[str, Any]:
    return {"version": change.version, "events": list(change.events), "member": member}


def _export(game: str | None, *, official: bool) -> list[dict[str, Any]]:
    """The results export; to the public, each hidden member is an alias of their own
    (``hidden-1``, ``hidden-2``, ... in order of first appearance), so the games can still be
    rated again and nobody is named."""
    exported = reads.results_export(game)
    hidden = reads.hidden_members()
    if official or not hidden:
        return exported
    aliases: dict[str, str] = {}

    def alias(member: str) -> str:
        if member not in hidden:
            return member
        return aliases.setdefault(member, f"hidden-{len(aliases) + 1}")

    return [
        {
            **entry,
            "teams": [
                {**team, "members": [alias(m) for m in team["members"]]} for team in entry["teams"]
            ],
        }
        for entry in exported
    ]


def _export_game(request: Request) -> str | None:
    query = _valid(s.GameQuerySerializer, request.query_params)
    game = query.get("game")
    if game is not None and game not in GAME_TYPES:
        raise BadGame(
            _("there is no game %(game)s: the games are %(games)s")
            % {"game": game, "games": word_list(GAME_TYPES)}
        )
    return game


# ----------------------------------------------------------------------------- leagues


class LeagueListView(ClubView):
    @extend_schema(
        summary="List the club's leagues",
        description="Every league (a season), its rules and its tournaments' ids. Public.",
        responses={200: s.LeagueListItemSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        return Response([_league_item(league) for league in reads.league_list()])

    @_write_schema(
        "Create a league",
        "A league (a season): its name, and its rules (any left out take their defaults). Its "
        "tournaments are linked afterwards.",
        s.LeagueCreateSerializer,
        s.LeagueSerializer,
    )
    def post(self, request: Request) -> Response:
        body = _valid(s.LeagueCreateSerializer, request.data)
        change = writes.league_create(
            name=body["name"], rules=dict(body.get("rules") or {}), user=request.user
        )
        assert change.league is not None
        location = reverse("club-api:league", args=[change.league])
        return Response(
            _league(change.league, official=True),
            status=status.HTTP_201_CREATED,
            headers={"Location": location},
        )


class LeagueDetailView(ClubView):
    @extend_schema(
        summary="A league",
        description="Its rules and its tournaments (by date, then name). Public.",
        parameters=[LEAGUE_ID],
        responses={200: s.LeagueSerializer, 404: NOT_FOUND},
        tags=TAGS,
    )
    def get(self, request: Request, league_id: int) -> Response:
        return Response(_league(league_id, official=_official(request)))

    @_write_schema(
        "Change a league",
        "Its name, its rules, or both: only the rules given change.",
        s.LeagueChangeSerializer,
        s.LeagueSerializer,
        created=False,
        parameters=[LEAGUE_ID],
    )
    def patch(self, request: Request, league_id: int) -> Response:
        reads.league_get(league_id)
        body = _valid(s.LeagueChangeSerializer, request.data)
        writes.league_change(
            league=league_id,
            user=request.user,
            name=body.get("name"),
            rules=dict(body["rules"]) if "rules" in body else None,
        )
        return Response(_league(league_id, official=True))


class LeagueTournamentsView(ClubView):
    @_write_schema(
        "Link a tournament to a league",
        "The tournament counts for the league's season (linking it again changes nothing).",
        s.LeagueLinkSerializer,
        s.LeagueSerializer,
        parameters=[LEAGUE_ID],
    )
    def post(self, request: Request, league_id: int) -> Response:
        reads.league_get(league_id)
        body = _valid(s.LeagueLinkSerializer, request.data)
        writes.league_link(league=league_id, tournament=body["tournament"], user=request.user)
        return Response(_league(league_id, official=True), status=status.HTTP_201_CREATED)


class LeagueTournamentView(ClubView):
    @_write_schema(
        "Unlink a tournament from a league",
        "The tournament no longer counts for the league's season (422 not_linked if it did not).",
        None,
        s.LeagueSerializer,
        created=False,
        parameters=[LEAGUE_ID],
    )
    def delete(self, request: Request, league_id: int, tournament: uuid.UUID) -> Response:
        reads.league_get(league_id)
        writes.league_unlink(league=league_id, tournament=tournament, user=request.user)
        return Response(_league(league_id, official=True))


class LeagueDivisionsView(ClubView):
    @_write_schema(
        "Put a member in a division",
        'One of the league\'s divisions (422 no_division otherwise), or "" for none.',
        s.LeagueDivisionSerializer,
        s.LeagueSerializer,
        parameters=[LEAGUE_ID],
    )
    def post(self, request: Request, league_id: int) -> Response:
        reads.league_get(league_id)
        body = _valid(s.LeagueDivisionSerializer, request.data)
        writes.league_division(
            league=league_id, member=body["member"], division=body["division"], user=request.user
        )
        return Response(_league(league_id, official=True), status=status.HTTP_201_CREATED)


class StandingsView(ClubView):
    content_negotiation_class = JSONErrorsNegotiation  # ?format=csv is this view's to read

    @extend_schema(
        summary="A league's season table",
        description="One row per member who took part in a finished tournament of the league: "
        "rank (null: not ranked yet), total, tournaments played and each result (place, "
        "points, counted or dropped). `?format=csv` (or standings.csv): the same as CSV. "
        "Public.",
        parameters=[
            LEAGUE_ID,
            OpenApiParameter(
                "format",
                {"type": "string", "enum": ["json", "csv"]},
                OpenApiParameter.QUERY,
                description="csv: the table as a CSV file.",
            ),
        ],
        responses={
            (200, "application/json"): s.SeasonTableSerializer,
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR),
            400: BAD_REQUEST,
            404: NOT_FOUND,
        },
        tags=TAGS,
    )
    def get(self, request: Request, league_id: int) -> HttpResponse:
        query = _valid(s.StandingsQuerySerializer, request.query_params)
        wanted = query.get("format", "json")
        if wanted not in ("json", "csv"):
            raise exceptions.ValidationError(
                {"format": [_("must be json or csv")]}, code="bad_request"
            )
        if wanted == "csv":
            return _standings_file(request, league_id)
        official = _official(request)
        season = reads.season_view(league_id, official=official)
        return Response(_standings(season, official=official))


def _standings_file(request: Request, league_id: int) -> HttpResponse:
    official = _official(request)
    season = reads.season_view(league_id, official=official)
    stem = slugify(season.league.name) or "league"
    return _attachment(
        standings_csv(_standings(season, official=official)),
        "text/csv; charset=utf-8",
        f"{stem}-standings.csv",
    )


class StandingsCsvView(ClubView):
    content_negotiation_class = JSONErrorsNegotiation

    @extend_schema(
        operation_id="club_league_standings_csv",
        summary="A league's season table as CSV",
        description="Rank, Name, Division, Total, Played, then each tournament's points (empty: "
        "not taken part; in parentheses: dropped). Cells a spreadsheet would read as a "
        "formula are written as text. Public.",
        parameters=[LEAGUE_ID],
        responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR), 404: NOT_FOUND},
        tags=TAGS,
    )
    def get(self, request: Request, league_id: int) -> HttpResponse:
        return _standings_file(request, league_id)


class LeagueRatingsView(ClubView):
    @extend_schema(
        summary="A league's ratings of one game",
        description="The club's ratings (openskill Plackett-Luce: mu, sigma, ordinal = mu - 3 "
        "sigma, rated games) of the members who played `game` in the league's tournaments, "
        "best ordinal first. A rating is the club's: every rated game of that game counts. "
        "Public.",
        parameters=[
            LEAGUE_ID,
            _game_parameter(required=True, description="The game (one of the league's)."),
        ],
        responses={200: s.RatingSerializer(many=True), 400: BAD_GAME, 404: NOT_FOUND},
        tags=TAGS,
    )
    def get(self, request: Request, league_id: int) -> Response:
        league = reads.league_get(league_id)
        query = _valid(s.GameQuerySerializer, request.query_params)
        games = reads.league_game_types(league)
        game = query.get("game")
        if game is None or game not in games:
            listed = word_list(games)
            if not games:
                text = _("this league has no tournaments yet, so no ratings")
            elif game is None:
                text = _("say which game: game=KEY, one of the league's games: %(games)s") % {
                    "games": listed
                }
            else:
                text = _("%(game)s is not a game of this league; its games are: %(games)s") % {
                    "game": game,
                    "games": listed,
                }
            raise BadGame(text)
        official = _official(request)
        hidden = reads.hidden_members()
        rows = reads.league_ratings(league_id, game, official=official)
        return Response([_rating(row, hidden, official) for row in rows])


# ----------------------------------------------------------------------------- members


class MemberDetailView(ClubView):
    @extend_schema(
        summary="A member",
        description="Their names, leagues and history across tournaments; per game, their "
        "rating with every rated game's change, their statistics (code, value, sample, games) "
        "and feats. A merged member's old id answers with the member they were merged into; a "
        "hidden member is a 404 (but to the club's officials). Public.",
        parameters=[_member_parameter("member_id", "A member's id.")],
        responses={200: s.MemberSerializer, 404: NOT_FOUND},
        tags=TAGS,
    )
    def get(self, request: Request, member_id: str) -> Response:
        view = reads.member_view(_member_id(member_id), official=_official(request))
        return Response(_member(view))

    @_write_schema(
        "Rename or hide a member",
        'A display name ("": their registered name again) and/or hidden (from public pages). '
        "A merged member's old id changes the member they were merged into.",
        s.MemberChangeSerializer,
        s.ClubChangeSerializer,
        created=False,
        parameters=[_member_parameter("member_id", "A member's id.")],
    )
    def patch(self, request: Request, member_id: str) -> Response:
        member = reads.member_get(_member_id(member_id), official=True)
        body = _valid(s.MemberChangeSerializer, request.data)
        change = writes.member_change(
            member=member.id,
            user=request.user,
            display_name=body.get("display_name"),
            hidden=body.get("hidden"),
        )
        return Response(_change(change, member.id))


def _ref(member: Any, official: bool) -> dict[str, str]:
    return {"id": member.id, "name": reads.shown_name(member, official=official)}


class HeadToHeadView(ClubView):
    @extend_schema(
        summary="Two members' meetings",
        description="Every rated game they played at one table, and how often the first "
        "finished ahead, behind or level. Public (a hidden member: 404).",
        parameters=[
            _member_parameter("member_id", "A member's id."),
            _member_parameter("other", "The other member's id."),
        ],
        responses={200: s.HeadToHeadSerializer, 404: NOT_FOUND},
        tags=TAGS,
    )
    def get(self, request: Request, member_id: str, other: str) -> Response:
        official = _official(request)
        found = reads.head_to_head(_member_id(member_id), _member_id(other), official=official)
        return Response(
            {
                "member": {
                    "id": found.member.id,
                    "name": reads.shown_name(found.member, official=official),
                },
                "other": {
                    "id": found.other.id,
                    "name": reads.shown_name(found.other, official=official),
                },
                "ahead": found.ahead,
                "behind": found.behind,
                "level": found.level,
                "meetings": [
                    {
                        "game": m.game,
                        "game_type": m.game_type,
                        "tournament": m.tournament,
                        "tournament_name": m.tournament_name,
                        "round": m.round,
                        "table": m.table,
                        "place": m.place,
                        "other_place": m.other_place,
                    }
                    for m in found.meetings
                ],
            }
        )


class MemberMergeView(ClubView):
    @_write_schema(
        "Merge two members",
        "Every entry of `member` counts for `into` from now on (one person registered under "
        "two names); the ratings are computed again.",
        s.MemberMergeSerializer,
        s.ClubChangeSerializer,
    )
    def post(self, request: Request) -> Response:
        body = _valid(s.MemberMergeSerializer, request.data)
        change = writes.member_merge(member=body["member"], into=body["into"], user=request.user)
        return Response(_change(change, body["into"]), status=status.HTTP_201_CREATED)


class MemberSplitView(ClubView):
    @_write_schema(
        "Split an entry off its member",
        "One entry (a tournament's entrant, `index` a team's member from 1) gets a member of "
        "its own (two people who share a name); `member` in the answer is the new member.",
        s.MemberSplitSerializer,
        s.ClubChangeSerializer,
    )
    def post(self, request: Request) -> Response:
        body = _valid(s.MemberSplitSerializer, request.data)
        change = writes.member_split(
            tournament=body["tournament"],
            player=body["player"],
            index=body["index"],
            user=request.user,
        )
        made = domain.split_member((str(body["tournament"]), body["player"], body["index"]))
        return Response(_change(change, made), status=status.HTTP_201_CREATED)


# ----------------------------------------------------------------------------- the club


class RecordsView(ClubView):
    @extend_schema(
        summary="The club's records",
        description="Each feat's best value in the club, by game and code (the earliest of "
        "equal bests). Public.",
        responses={200: s.RecordSerializer(many=True)},
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        official = _official(request)
        hidden = reads.hidden_members()
        return Response(
            [
                {
                    "game_type": r.game_type,
                    "code": r.code,
                    "value": r.value,
                    "member": _shown_id(r.member, hidden, official),
                    "name": r.name,
                    "tournament": r.tournament,
                    "tournament_name": r.tournament_name,
                    "round": r.round,
                    "game": r.game,
                }
                for r in reads.club_records(official=official)
            ]
        )


RESULTS_DESCRIPTION = (
    "The results the ratings are computed from, in the ratings' order per game: each game's "
    "teams (members' ids; a player is a team of one) and places (shared places are ties), "
    "and whether it was rated. Rated one after the other with openskill's Plackett-Luce at "
    "its defaults, they give the ratings. To the public a hidden member is `hidden-N`."
)


class ResultsView(ClubView):
    @extend_schema(
        summary="The club's rated results",
        description=RESULTS_DESCRIPTION + " Public.",
        parameters=[_game_parameter(required=False, description="One game only.")],
        responses={200: s.ExportGameSerializer(many=True), 400: BAD_GAME},
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        return Response(_export(_export_game(request), official=_official(request)))


class ResultsJsonlView(ClubView):
    content_negotiation_class = JSONErrorsNegotiation

    @extend_schema(
        operation_id="club_results_jsonl",
        summary="The club's rated results as JSON Lines",
        description=RESULTS_DESCRIPTION + " One game a line. Public.",
        parameters=[_game_parameter(required=False, description="One game only.")],
        responses={(200, RECORD_MEDIA_TYPE): OpenApiResponse(OpenApiTypes.STR), 400: BAD_GAME},
        tags=TAGS,
    )
    def get(self, request: Request) -> HttpResponse:
        game = _export_game(request)
        lines = "".join(
            json.dumps(entry, ensure_ascii=False) + "\n"
            for entry in _export(game, official=_official(request))
        )
        return _attachment(
            lines.encode("utf-8"),
            f"{RECORD_MEDIA_TYPE}; charset=utf-8",
            f"club-results{'-' + game if game else ''}.jsonl",
        )
