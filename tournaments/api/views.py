"""The tournaments API's views: parse the request, call a service, render (docs/api.md,
"Tournaments").

The tournament page is public: its players, published rounds, results and standings, and the
exports. A proposed round (paired, not yet published) is shown to the tournament's organizers
(and staff) only, wherever a summary is answered (reads, writes, conflicts). Writes need an
authenticated user; the services decide who may do what (organizers run the tournament,
scorekeepers enter tables and confirm results) and refuse with the games API's error shape.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from typing import Any

from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import services as games
from games.api.parsers import JSONParser
from games.api.views import (
    BAD_REQUEST,
    FORBIDDEN,
    NOT_AUTHENTICATED,
    RECORD_MEDIA_TYPE,
    GamePagination,
    JSONErrorsNegotiation,
    _error,
    _header,
    _valid,
    header_parameter,
)
from games.services import NotAllowed, Refused, User
from games.services.relay import seen_games
from tournaments import services
from tournaments.api import exports
from tournaments.api import serializers as s
from tournaments.api.parsers import PLAYER_LIST_PARSERS

# ----------------------------------------------------------------------------- writes


def _request_id(request: Request) -> str:
    return _header(request, "X-Request-ID") or ""


def _change(
    request: Request,
    tournament_id: uuid.UUID,
    service: Callable[..., services.TournamentChange],
    body: Mapping[str, Any],
    **arguments: Any,
) -> Response:
    """Call a tournament service for this request and answer its change (201). The services
    show the tournament (here and in a conflict) as this user may see it."""
    change = service(
        tournament_id=tournament_id,
        user=request.user,
        request_id=_request_id(request),
        expected_version=body.get("expected_version"),
        **arguments,
    )
    return Response(change.as_dict(), status=status.HTTP_201_CREATED)


# ----------------------------------------------------------------------------- schema helpers

TAGS = ["tournaments"]
NOT_FOUND = _error("There is no such tournament (not_found).")
REFUSED = _error(
    "The tournament's rules refuse it: `code` says why (bad_settings, bad_players, "
    "duplicate_player, unknown_player, unknown_round, unknown_table, wrong_round, "
    "results_missing, round_published, already_done, no_result, bad_undo, ...)."
)
CONFLICT = OpenApiResponse(
    s.TournamentConflictSerializer,
    description="`expected_version` is not the tournament's version: someone else changed it "
    "meanwhile. Reload it (current_version, state) and decide again.",
)
REQUEST_ID = header_parameter(
    "X-Request-ID",
    "Stored with the events, to trace a request through the logs (1 to 200 printable ASCII "
    "characters).",
)
NOT_RELEASED = _error(
    "The organizer has not released the downloads yet (forbidden; the tournament's organizers "
    "and staff may always download)."
)
WRITE_RESPONSES: dict[int, Any] = {
    201: s.TournamentChangeSerializer,
    400: BAD_REQUEST,
    401: NOT_AUTHENTICATED,
    403: FORBIDDEN,
    404: NOT_FOUND,
    409: CONFLICT,
    422: REFUSED,
}


def _write_schema(request: Any, summary: str, description: str) -> Callable[[Any], Any]:
    """extend_schema for a write to an existing tournament."""
    return extend_schema(
        summary=summary,
        description=description,
        request=request,
        parameters=[REQUEST_ID],
        responses=WRITE_RESPONSES,
        tags=TAGS,
    )


def _file_schema(
    operation_id: str,
    summary: str,
    description: str,
    media_type: str,
    kind: Any,
    forbidden: OpenApiResponse | None = None,
) -> Callable[[Any], Any]:
    """extend_schema for a public export (an attachment); refused (403, in JSON) until the
    organizer releases the downloads."""
    return extend_schema(
        operation_id=operation_id,
        summary=summary,
        description=description,
        responses={
            (200, media_type): OpenApiResponse(kind),
            403: forbidden or NOT_RELEASED,
            404: NOT_FOUND,
        },
        tags=TAGS,
    )


# ----------------------------------------------------------------------------- tournaments


class TournamentListView(APIView):
    pagination_class = GamePagination

    @extend_schema(
        summary="List tournaments",
        description="Every tournament, the latest date first (public).",
        responses={200: s.TournamentListItemSerializer(many=True), 400: BAD_REQUEST},
        tags=TAGS,
    )
    def get(self, request: Request) -> Response:
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(services.tournament_list(), request, view=self)
        return paginator.get_paginated_response(
            s.TournamentListItemSerializer(page, many=True).data
        )

    @extend_schema(
        summary="Create a tournament",
        description="Its creator is its first organizer. Settings not given take their "
        "defaults (scaled scoring, the default tie-breaks, manual pairing and publishing, a "
        "random round 1, results confirmed by an organizer, check-in on).",
        request=s.TournamentCreateSerializer,
        parameters=[REQUEST_ID],
        responses={
            201: s.TournamentChangeSerializer,
            400: BAD_REQUEST,
            401: NOT_AUTHENTICATED,
            422: REFUSED,
        },
        tags=TAGS,
    )
    def post(self, request: Request) -> Response:
        body = _valid(s.TournamentCreateSerializer, request.data)
        body["date"] = body["date"].isoformat()
        change = services.tournament_create(
            user=request.user, request_id=_request_id(request), **body
        )
        location = reverse("tournaments-api:tournament", args=[change.tournament_id])
        return Response(
            change.as_dict(), status=status.HTTP_201_CREATED, headers={"Location": location}
        )


class TournamentDetailView(APIView):
    @extend_schema(
        summary="A tournament as it stands",
        description="Settings, players, rounds (tables, results, byes) and roles. Proposed "
        "rounds are shown to the tournament's organizers only.",
        responses={200: s.TournamentSummarySerializer, 404: NOT_FOUND},
        tags=TAGS,
    )
    def get(self, request: Request, tournament_id: uuid.UUID) -> Response:
        summary = services.tournament_get(tournament_id=tournament_id, user=request.user).summary
        return Response(summary)


class TournamentSettingsView(APIView):
    @_write_schema(
        s.TournamentSettingsChangeSerializer,
        "Change a tournament's settings",
        "Only the settings given change. Scoring, tie-breaks, round 1's seating, check-in and "
        "bye points are fixed once round 1 is paired (422 bad_settings); `relay_delay`, the "
        "spectators' delay in seconds, changes at any time. Organizers.",
    )
    def patch(self, request: Request, tournament_id: uuid.UUID) -> Response:
        body = _valid(s.TournamentSettingsChangeSerializer, request.data)
        changes = {k: v for k, v in body.items() if k != "expected_version"}
        if "date" in changes:
            changes["date"] = changes["date"].isoformat()
        return _change(
            request, tournament_id, services.tournament_change_settings, body, changes=changes
        )


# ----------------------------------------------------------------------------- players


TEXT_LIST_MEDIA_TYPES = frozenset(
    str(parser.media_type) for parser in PLAYER_LIST_PARSERS if parser is not JSONParser
)


class PlayersView(APIView):
    parser_classes = PLAYER_LIST_PARSERS

    @extend_schema(
        summary="Register players",
        description="JSON `names` (and optionally `ratings`), or `text`: a pasted list, one "
        "name a line, or CSV with a `name` column and optionally a `rating` column; in a team "
        "game (Crazy Kitchen), `teams`: each team's `name` and `members`. The body "
        "may also be the list itself (`text/csv` or `text/plain`), with `checked_in` and "
        "`expected_version` in the query string. At most 500 entrants a registration, "
        "however they are sent (a longer list is refused whole: 400 for a JSON list, 422 "
        "bad_players for a pasted list or CSV). After round 1 they are late entries, seated "
        "from the next pairing. Organizers.",
        request={
            "application/json": s.TournamentRegisterSerializer,
            "text/csv": OpenApiTypes.STR,
            "text/plain": OpenApiTypes.STR,
        },
        parameters=[s.TournamentRegisterQuerySerializer, REQUEST_ID],
        responses={
            **WRITE_RESPONSES,
            413: _error(
                "A player list over 256 KiB: a text/csv or text/plain body, or JSON `text` "
                "(player_list_too_large)."
            ),
            415: _error("Not JSON, CSV or plain text (unsupported_media_type)."),
        },
        tags=TAGS,
    )
    def post(self, request: Request, tournament_id: uuid.UUID) -> Response:
        media_type = request.content_type.partition(";")[0].strip().lower()
        if isinstance(request.data, str) or media_type in TEXT_LIST_MEDIA_TYPES:
            # The list itself, as text/csv or text/plain (an empty body is an empty list).
            body = _valid(s.TournamentRegisterQuerySerializer, request.query_params)
            body["text"] = request.data if isinstance(request.data, str) else ""
        else:
            body = _valid(s.TournamentRegisterSerializer, request.data)
        teams = body.get("teams")
        return _change(
            request,
            tournament_id,
            services.tournament_register,
            body,
            names=[team["name"] for team in teams] if teams is not None else body.get("names", ()),
            members=[team["members"] for team in teams] if teams is not None else None,
            ratings=body.get("ratings"),
            text=body.get("text", ""),
            checked_in=body["checked_in"],
        )


class CheckInView(APIView):
    @_write_schema(
        s.TournamentWriteSerializer,
        "Check a player in",
        "`player` is the player's id (P1, P2, ...). Organizers.",
    )
    def post(self, request: Request, tournament_id: uuid.UUID, player: str) -> Response:
        body = _valid(s.TournamentWriteSerializer, request.data)
        return _change(request, tournament_id, services.tournament_check_in, body, player=player)


class CheckOutView(APIView):
    @_write_schema(
        s.TournamentWriteSerializer,
        "Check a player out",
        "A checked-in player who is not here after all: not seated at the next pairing, and "
        "not marked in the standings (unlike a drop). Organizers.",
    )
    def post(self, request: Request, tournament_id: uuid.UUID, player: str) -> Response:
        body = _valid(s.TournamentWriteSerializer, request.data)
        return _change(request, tournament_id, services.tournament_check_out, body, player=player)


class DropView(APIView):
    @_write_schema(
        s.TournamentWriteSerializer,
        "Drop a player",
        "The player is not seated in later rounds; their results stay. Organizers.",
    )
    def post(self, request: Request, tournament_id: uuid.UUID, player: str) -> Response:
        body = _valid(s.TournamentWriteSerializer, request.data)
        return _change(request, tournament_id, services.tournament_drop, body, player=player)


class ReinstateView(APIView):
    @_write_schema(
        s.TournamentWriteSerializer,
        "Reinstate a dropped player",
        "Seated again from the next pairing. Organizers.",
    )
    def post(self, request: Request, tournament_id: uuid.UUID, player: str) -> Response:
        body = _valid(s.TournamentWriteSerializer, request.data)
        return _change(request, tournament_id, services.tournament_reinstate, body, player=player)


class RolesView(APIView):
    @_write_schema(
        s.TournamentRoleSerializer,
        "Grant or revoke a role",
        "Organizers make other users scorekeepers (who enter the tournament's tables and "
        "confirm results) or co-organizers. A tournament keeps at least one organizer.",
    )
    def post(self, request: Request, tournament_id: uuid.UUID) -> Response:
        body = _valid(s.TournamentRoleSerializer, request.data)
        return _change(
            request,
            tournament_id,
            services.tournament_set_role,
            body,
            username=body["username"],
            role=body["role"],
            grant=body["grant"],
        )


# ----------------------------------------------------------------------------- rounds


class RoundsView(APIView):
    @_write_schema(
        s.TournamentPairSerializer,
        "Pair the next round",
        "Proposes the round's tables (shown to organizers only): review them, swap players, "
        "then publish. Refused while the round before has tables without a confirmed result "
        "(results_missing names them), is not published, or is not closed. Organizers.",
    )
    def post(self, request: Request, tournament_id: uuid.UUID) -> Response:
        body = _valid(s.TournamentPairSerializer, request.data)
        return _change(
            request, tournament_id, services.tournament_pair, body, round=body.get("round")
        )


class SwapView(APIView):
    @_write_schema(
        s.TournamentSwapSerializer,
        "Swap two players in a proposed round",
        "Between two tables, or two seats of one table (seat 1 starts round 1). Organizers.",
    )
    def post(self, request: Request, tournament_id: uuid.UUID, round: int) -> Response:
        body = _valid(s.TournamentSwapSerializer, request.data)
        return _change(
            request,
            tournament_id,
            services.tournament_swap,
            body,
            round=round,
            a=body["a"],
            b=body["b"],
        )


class PublishView(APIView):
    @_write_schema(
        s.TournamentWriteSerializer,
        "Publish a proposed round",
        "Each table becomes a published game (`game` in the table); the pairings become "
        "public. Organizers.",
    )
    def post(self, request: Request, tournament_id: uuid.UUID, round: int) -> Response:
        body = _valid(s.TournamentWriteSerializer, request.data)
        return _change(request, tournament_id, services.tournament_publish, body, round=round)


class ScheduleView(APIView):
    @_write_schema(
        s.TournamentScheduleSerializer,
        "Schedule the pairing of the next round",
        "At `at`, once the round before is complete, the round is paired (and published if the "
        "tournament publishes automatically). Organizers.",
    )
    def post(self, request: Request, tournament_id: uuid.UUID, round: int) -> Response:
        body = _valid(s.TournamentScheduleSerializer, request.data)
        return _change(
            request, tournament_id, services.tournament_schedule, body, round=round, at=body["at"]
        )


class ClockView(APIView):
    @_write_schema(
        s.TournamentClockSerializer,
        "Set or stop a round's clock",
        "When a published round's play ends (`ends_at`, or `minutes` from now), or `stop`: the "
        "public pages count down to it. Organizers.",
    )
    def post(self, request: Request, tournament_id: uuid.UUID, round: int) -> Response:
        body = _valid(s.TournamentClockSerializer, request.data)
        return _change(
            request,
            tournament_id,
            services.tournament_set_clock,
            body,
            round=round,
            ends_at=body.get("ends_at"),
            minutes=body.get("minutes"),
            stop=bool(body.get("stop")),
        )


class DelayView(APIView):
    @_write_schema(
        s.TournamentDelaySerializer,
        "Set a round's spectators' delay",
        "How many seconds spectators wait to see a proposed or published round's tables "
        "(`seconds`, 0 to 3600), or `null`: the tournament's `relay_delay` again. The round's "
        "`relay_delay` in the tournament's read. The tournament's organizers and scorekeepers "
        "and each table's own seats are never delayed. Organizers.",
    )
    def post(self, request: Request, tournament_id: uuid.UUID, round: int) -> Response:
        body = _valid(s.TournamentDelaySerializer, request.data)
        return _change(
            request,
            tournament_id,
            services.tournament_set_delay,
            body,
            round=round,
            seconds=body["seconds"],
        )


class CloseView(APIView):
    @_write_schema(
        s.TournamentWriteSerializer,
        "Close a round",
        "Every table needs a confirmed result (results_missing names the others). Organizers.",
    )
    def post(self, request: Request, tournament_id: uuid.UUID, round: int) -> Response:
        body = _valid(s.TournamentWriteSerializer, request.data)
        return _change(request, tournament_id, services.tournament_close_round, body, round=round)


class ConfirmView(APIView):
    @_write_schema(
        s.TournamentWriteSerializer,
        "Confirm a table's result",
        "By an organizer, or by a scorekeeper who did not enter the table's game (with the "
        "`second_person` confirmation, only by someone who did not enter it).",
    )
    def post(self, request: Request, tournament_id: uuid.UUID, round: int, table: int) -> Response:
        body = _valid(s.TournamentWriteSerializer, request.data)
        return _change(
            request, tournament_id, services.tournament_confirm, body, round=round, table=table
        )


class FinishView(APIView):
    @_write_schema(
        s.TournamentWriteSerializer,
        "Finish the tournament",
        "Once the last round is closed. Organizers.",
    )
    def post(self, request: Request, tournament_id: uuid.UUID) -> Response:
        body = _valid(s.TournamentWriteSerializer, request.data)
        return _change(request, tournament_id, services.tournament_finish, body)


class UndoView(APIView):
    @_write_schema(
        s.TournamentUndoSerializer,
        "Undo an organizer's action",
        "Records that the action at `version` (from the history) no longer counts; the "
        "history keeps both. A published round's pairing, a result, or a closed round with a "
        "round after it cannot be undone (bad_undo). Organizers.",
    )
    def post(self, request: Request, tournament_id: uuid.UUID) -> Response:
        body = _valid(s.TournamentUndoSerializer, request.data)
        return _change(
            request,
            tournament_id,
            services.tournament_undo,
            body,
            version=body["version"],
            reason=body["reason"],
        )


# ----------------------------------------------------------------------------- reads


class HistoryView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="A tournament's history",
        description="Every action in order: what, who and when, including the ones later "
        "undone (`undone_by`). The tournament's organizers (and staff) only.",
        responses={
            200: s.HistoryEntrySerializer(many=True),
            401: NOT_AUTHENTICATED,
            403: FORBIDDEN,
            404: NOT_FOUND,
        },
        tags=TAGS,
    )
    def get(self, request: Request, tournament_id: uuid.UUID) -> Response:
        history = services.tournament_history(tournament_id=tournament_id, user=request.user)
        return Response(history)


class StandingsView(APIView):
    @extend_schema(
        summary="A tournament's standings",
        description="From the confirmed results: the columns to show (rank, player or team, "
        "points, the tie-breaks in order, then the other figures) and one row per entrant, best "
        "first; for a game other than Trick-n-Chef, `rule` says how it is ranked "
        "(docs/standings.md). Public.",
        responses={200: s.StandingsSerializer, 404: NOT_FOUND},
        tags=TAGS,
    )
    def get(self, request: Request, tournament_id: uuid.UUID) -> Response:
        standings = services.tournament_standings(tournament_id=tournament_id, user=request.user)
        return Response(translated_titles(standings))


def translated_titles(standings: Mapping[str, Any]) -> dict[str, Any]:
    """The standings with their column titles in the request's language (stored in English,
    each a msgid of tournaments.standings); keys and rows stay as they are."""
    columns = [{**c, "title": gettext(c["title"])} for c in standings["columns"]]
    translated = {**standings, "columns": columns}
    if standings.get("rule") is not None:
        rule = standings["rule"]
        criteria = [
            {**c, "title": gettext(c["title"]), "description": gettext(c["description"])}
            for c in rule["tiebreaks"]
        ]
        translated["rule"] = {**rule, "tiebreaks": criteria}
    return translated


# ----------------------------------------------------------------------------- exports


def _attachment(content: str | bytes, media_type: str, name: str) -> HttpResponse:
    data = content.encode("utf-8") if isinstance(content, str) else content
    response = HttpResponse(data, content_type=media_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


class ExportView(APIView):
    """A file whatever the Accept header says; errors in JSON."""

    content_negotiation_class = JSONErrorsNegotiation


class StandingsCsvView(ExportView):
    @_file_schema(
        "tournaments_standings_csv",
        "Export the standings as CSV",
        "A header row of the column titles (Rank, Player, Points, each tie-break, Victory "
        "points, First places, Games, Byes, Dropped), then one row per player, best first.",
        "text/csv",
        OpenApiTypes.STR,
        forbidden=_error(
            "The organizer has not released the downloads yet, or hides the standings until "
            "the end (forbidden; the tournament's organizers and staff may always download)."
        ),
    )
    def get(self, request: Request, tournament_id: uuid.UUID) -> HttpResponse:
        services.tournament_check_downloads(tournament_id=tournament_id, user=request.user)
        read = services.tournament_get_with_standings(
            tournament_id=tournament_id, user=request.user
        )
        if read.standings is None:  # released downloads do not reveal hidden standings
            raise NotAllowed(
                gettext("the organizer has hidden the standings until the end of the tournament")
            )
        return _attachment(
            exports.standings_csv(read.standings),
            "text/csv; charset=utf-8",
            exports.filename(read.summary, "standings.csv"),
        )


def _game_summaries(
    summary: Mapping[str, Any], user: User | None
) -> dict[str, Mapping[str, Any] | None]:
    """Each table's game summary as ``user`` sees it (the relay's delay: as it stood then)."""
    found = [
        games.game_get(game_id=uuid.UUID(table["game"]), user=user)
        for _, table in exports.published_tables(summary)
    ]
    return {str(g): p.summary for g, p in seen_games(found, user).items()}


class ResultsCsvView(ExportView):
    @_file_schema(
        "tournaments_results_csv",
        "Export the results as CSV",
        "One row per player per published table: Round, Table, Seat, Player, Place, Victory "
        "points, the game's round scores (Game round 1, 2, 3) once the table has a result, "
        "and Confirmed (yes/no).",
        "text/csv",
        OpenApiTypes.STR,
    )
    def get(self, request: Request, tournament_id: uuid.UUID) -> HttpResponse:
        services.tournament_check_downloads(tournament_id=tournament_id, user=request.user)
        summary = services.tournament_get(  # the public's, as late as for the requester
            tournament_id=tournament_id, user=None, reader=request.user
        ).summary
        return _attachment(
            exports.results_csv(summary, _game_summaries(summary, request.user)),
            "text/csv; charset=utf-8",
            exports.filename(summary, "results.csv"),
        )


class ResultsJsonlView(ExportView):
    @_file_schema(
        "tournaments_results_jsonl",
        "Export the results as JSON Lines",
        "One object per table result: {round, table, game, confirmed, results: [{player, "
        "name, seat, place, victory_points, last_round}]}.",
        RECORD_MEDIA_TYPE,
        OpenApiTypes.STR,
    )
    def get(self, request: Request, tournament_id: uuid.UUID) -> HttpResponse:
        services.tournament_check_downloads(tournament_id=tournament_id, user=request.user)
        summary = services.tournament_get(  # the public's, as late as for the requester
            tournament_id=tournament_id, user=None, reader=request.user
        ).summary
        return _attachment(
            exports.results_jsonl(summary),
            f"{RECORD_MEDIA_TYPE}; charset=utf-8",
            exports.filename(summary, "results.jsonl"),
        )


class GamesZipView(ExportView):
    @_file_schema(
        "tournaments_games_zip",
        "Export every game's record file in a zip",
        "round-R-table-T.jsonl for each published table (the game's record file, corrections "
        "applied), and a README.txt that lists them and the tables entered as results only "
        "(which have no record file).",
        "application/zip",
        OpenApiTypes.BINARY,
    )
    def get(self, request: Request, tournament_id: uuid.UUID) -> HttpResponse:
        services.tournament_check_downloads(tournament_id=tournament_id, user=request.user)
        summary = services.tournament_get(  # the public's, as late as for the requester
            tournament_id=tournament_id, user=None, reader=request.user
        ).summary
        records: dict[str, str | None] = {}
        for _, table in exports.published_tables(summary):
            try:
                records[table["game"]] = games.game_export_record(
                    game_id=uuid.UUID(table["game"]), user=request.user
                )
            except Refused as refused:
                if refused.code != "results_only":
                    raise
                records[table["game"]] = None
        return _attachment(
            exports.games_zip(summary, records),
            "application/zip",
            exports.filename(summary, "games.zip"),
        )
