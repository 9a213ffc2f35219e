"""The API's views: parse the request, call a service, render (docs/api.md).

Writes need an authenticated user (a token, or a logged-in browser session with its CSRF
token); reads of a published game are public. The services hold every transaction and rule; a
refusal reaches the client through :mod:`games.api.errors`.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.http import HttpResponse, QueryDict
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.authentication import SessionScheme
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers, status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from engine.errors import InvalidRecord, RuleViolation
from engine.jsonline import decode_object, split_lines
from games import services, store
from games.api import serializers as s
from games.api.exceptions import BadRequest
from games.api.parsers import RECORD_PARSERS, FormParser, JSONParser, MultiPartParser
from games.gametypes import DEFAULT_GAME_TYPE, GAME_TYPES
from games.services import relay

# ----------------------------------------------------------------------------- request helpers

F = TypeVar("F", bound=Callable[..., Any])

HEADER_MAX = 200
"""The longest Idempotency-Key (the event table's column) and X-Request-ID accepted."""


HEADER_PATTERN = f"^[ -~]{{1,{HEADER_MAX}}}$"
"""Idempotency-Key and X-Request-ID: 1 to 200 printable ASCII characters (the schema says so
too)."""


def _valid(serializer_class: type[serializers.Serializer[Any]], data: Any) -> dict[str, Any]:
    """The request's fields, checked for shape (400 bad_request naming the field if not).

    A query parameter given empty (``?since=``) is refused, as the schema says (OpenAPI's
    parameters allow no empty value), not taken for an absent one as DRF would."""
    return _valid_serializer(serializer_class(data=data))


def _valid_serializer(serializer: serializers.Serializer[Any]) -> dict[str, Any]:
    """:func:`_valid` for a serializer made already (to ask it more afterwards)."""
    data = serializer.initial_data
    if isinstance(data, QueryDict):
        fields: list[str] = list(serializer.fields)  # its keys
        _given_once(data, fields)
        empty = sorted(name for name in fields if name in data and "" in data.getlist(name))
        if empty:
            raise BadRequest({name: [_("This parameter may not be empty.")] for name in empty})
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _given_once(query: QueryDict, names: list[str]) -> None:
    """A query parameter is one value, as the schema says: ``?since=3&since=5`` is refused
    (400), not read as its last value."""
    repeated = sorted(name for name in names if len(query.getlist(name)) > 1)
    if repeated:
        raise BadRequest({name: [_("This parameter may be given only once.")] for name in repeated})


def _header(request: Request, name: str) -> str | None:
    value = request.headers.get(name)
    if value is None:
        return None
    if re.fullmatch(HEADER_PATTERN, value) is None:
        raise BadRequest(
            {name: [_("must be 1 to %(max)s printable ASCII characters") % {"max": HEADER_MAX}]}
        )
    return value


def header_parameter(name: str, description: str) -> OpenApiParameter:
    """An optional request header of 1 to HEADER_MAX printable ASCII characters."""
    return OpenApiParameter(
        name,
        {"type": "string", "minLength": 1, "maxLength": HEADER_MAX, "pattern": HEADER_PATTERN},
        OpenApiParameter.HEADER,
        description=description,
    )


def _write_context(request: Request) -> dict[str, Any]:
    """Who writes, and the request's Idempotency-Key and X-Request-ID headers."""
    return {
        "user": request.user,
        "request_id": _header(request, "X-Request-ID") or "",
        "idempotency_key": _header(request, "Idempotency-Key"),
    }


def _created(change: services.GameChange, *, location: bool = False) -> Response:
    headers = {"Location": reverse("api:game", args=[change.game_id])} if location else None
    return Response(change.as_dict(), status=status.HTTP_201_CREATED, headers=headers)


# ----------------------------------------------------------------------------- schema helpers


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(s.ErrorSerializer, description=description)


BAD_REQUEST = _error("Malformed request: not JSON (bad_json), or a field missing or mistyped.")
NOT_AUTHENTICATED = _error("No valid credentials (not_authenticated, authentication_failed).")
FORBIDDEN = _error("Not allowed (forbidden), or a browser session without its CSRF token.")
NOT_FOUND = _error("There is no such game, or it is not published (not_found).")
REFUSED = _error(
    "The rules refuse it: `code` is the rule's code (revoke, card_not_in_hand, game_void, "
    "bad_correction, ...), `event` the refused event's index; or idempotency_key_reused."
)
CONFLICT = OpenApiResponse(
    s.ConflictSerializer,
    description="Someone else changed the game first: reload it (current_version, state) and "
    "decide again.",
)
WRITE_HEADERS = [
    header_parameter(
        "Idempotency-Key",
        "Makes a retry safe: the same key with the same request answers the first response "
        "again and records nothing more (1 to 200 printable ASCII characters, e.g. a UUID).",
    ),
    header_parameter(
        "X-Request-ID",
        "Stored with the events, to trace a request through the logs (1 to 200 printable "
        "ASCII characters).",
    ),
]


def _write_schema(request: Any, summary: str) -> Callable[[F], F]:
    """extend_schema for a write to an existing game."""
    return extend_schema(
        summary=summary,
        request=request,
        parameters=WRITE_HEADERS,
        responses={
            201: s.GameChangeSerializer,
            400: BAD_REQUEST,
            401: NOT_AUTHENTICATED,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: CONFLICT,
            422: REFUSED,
        },
        tags=["games"],
    )


# ----------------------------------------------------------------------------- authentication


class SessionAuthenticationScheme(SessionScheme):  # type: ignore[no-untyped-call]
    """The OpenAPI security scheme of games.api.authentication.SessionAuthentication
    (drf-spectacular's own matches the exact DRF class only)."""

    target_class = "games.api.authentication.SessionAuthentication"


@extend_schema_view(
    post=extend_schema(
        summary="Get an API token",
        description="Username and password in, the user's token out (the same token every "
        "time; `manage.py drf_create_token <username>` makes one too). Send it as "
        "`Authorization: Token <token>`.",
        request=s.TokenRequestSerializer,
        responses={
            200: s.TokenSerializer,
            400: BAD_REQUEST,
            429: _error("Too many attempts (throttled): wait `retry_after` seconds."),
        },
        tags=["auth"],
    )
)
class ObtainAuthTokenView(ObtainAuthToken):
    """DRF's obtain_auth_token, with a rate limit on password guessing. It reads no
    credentials but the body's (a stale token header must not stand in the way)."""

    authentication_classes = []
    parser_classes = [FormParser, MultiPartParser, JSONParser]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth_token"


# ----------------------------------------------------------------------------- games


class GamePagination(LimitOffsetPagination):
    """DRF's limit and offset, read strictly: a value that is not a whole number in range is
    refused (400), not quietly replaced by the default, so the schema's bounds are true."""

    default_limit = 50
    max_limit = 200

    def get_limit(self, request: Request) -> int | None:
        return self._number(request, self.limit_query_param, 1, self.max_limit, self.default_limit)

    def get_offset(self, request: Request) -> int:
        return self._number(request, self.offset_query_param, 0, None, 0)

    @staticmethod
    def _number(request: Request, name: str, low: int, high: int | None, default: int) -> int:
        values = request.query_params.getlist(name)
        if not values:
            return default
        _given_once(request.query_params, [name])
        value = values[-1]
        number = int(value) if value.isascii() and value.isdigit() else -1
        if number < low or (high is not None and number > high):
            if high is not None:
                text = _("must be a whole number, %(low)s to %(high)s")
            else:
                text = _("must be a whole number, %(low)s or more")
            raise BadRequest({name: [text % {"low": low, "high": high}]})
        return number

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        bounds = {
            self.limit_query_param: {"minimum": 1, "maximum": self.max_limit},
            self.offset_query_param: {"minimum": 0},
        }
        for parameter in parameters:
            parameter["schema"].update(bounds.get(parameter["name"], {}))
        return parameters


class GameListView(APIView):
    pagination_class = GamePagination

    @extend_schema(
        summary="List games",
        description="Published games for anonymous users, all games for authenticated users; "
        "newest first.",
        responses={200: s.GameListItemSerializer(many=True), 400: BAD_REQUEST},
        tags=["games"],
    )
    def get(self, request: Request) -> Response:
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(
            services.game_list(user=request.user), request, view=self
        )
        seen = relay.seen_games(page or (), request.user)  # a delayed table as it stood
        shown = [seen[g.stream_id] for g in page or ()]
        return paginator.get_paginated_response(s.GameListItemSerializer(shown, many=True).data)

    @extend_schema(
        summary="Create a game",
        description="Records the game's first event (game_started), and game_published if "
        "`published`.",
        request=s.GAME_CREATE_REQUEST,
        parameters=WRITE_HEADERS,
        responses={
            201: s.GameChangeSerializer,
            400: BAD_REQUEST,
            401: NOT_AUTHENTICATED,
            403: FORBIDDEN,
            422: REFUSED,
        },
        tags=["games"],
    )
    def post(self, request: Request) -> Response:
        serializer = s.NewGameSerializer(data=request.data)
        body = _valid_serializer(serializer)
        serializer.check_refusals()
        change = services.game_create(
            players=body["players"],
            options=serializer.options(),
            game_type=body["game_type"],
            published=body["published"],
            **_write_context(request),
        )
        return _created(change, location=True)


class GameDetailView(APIView):
    @extend_schema(
        summary="A game as it stands",
        description="Read from the game's projection (no replay). Unpublished games are "
        "visible to authenticated users only. A spectator of a table its tournament relays "
        "with a delay reads the game as it stood that long ago (`delay`: docs/relay.md).",
        responses={200: s.GameDetailSerializer, 404: NOT_FOUND},
        tags=["games"],
    )
    def get(self, request: Request, game_id: uuid.UUID) -> Response:
        game = services.game_get_seen(game_id=game_id, user=request.user)
        return Response(s.GameDetailSerializer(game).data)


class GameEventsView(APIView):
    @extend_schema(
        summary="A game's events",
        description="The game's whole history, corrections included, in version order. "
        "While a round is being played, the cards still held are hidden from anyone but the "
        "game's officials (docs/api.md, Hidden hands); a spectator of a table relayed with a "
        "delay gets the events recorded that long ago at most (`delay`: docs/relay.md).",
        parameters=[s.EventsQuerySerializer],
        responses={200: s.GameEventsSerializer, 400: BAD_REQUEST, 404: NOT_FOUND},
        tags=["games"],
    )
    def get(self, request: Request, game_id: uuid.UUID) -> Response:
        query = _valid(s.EventsQuerySerializer, request.query_params)
        game, events = services.game_events(
            game_id=game_id, since=query["since"], user=request.user
        )
        return Response(
            {
                "id": str(game.stream_id),
                "version": game.version,
                "delay": late.delay if (late := relay.delay_of(game)) is not None else None,
                "events": s.GameEventSerializer(events, many=True).data,
            }
        )

    @_write_schema(s.GameAppendSerializer, "Record the next events of a game")
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        body = _valid(s.GameAppendSerializer, request.data)
        change = services.game_append(
            game_id=game_id,
            expected_version=body["expected_version"],
            events=body["events"],
            **_write_context(request),
        )
        return _created(change)


class GameCorrectionView(APIView):
    @_write_schema(s.CorrectionSerializer, "Retract the last entries of a game's record")
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        body = _valid(s.CorrectionSerializer, request.data)
        change = services.game_correct(
            game_id=game_id,
            expected_version=body["expected_version"],
            retract=body["retract"],
            reason=body["reason"],
            **_write_context(request),
        )
        return _created(change)


class GameVoidView(APIView):
    @_write_schema(s.VoidSerializer, "Void a game (its organizer or staff)")
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        body = _valid(s.VoidSerializer, request.data)
        change = services.game_void(
            game_id=game_id,
            expected_version=body["expected_version"],
            reason=body["reason"],
            **_write_context(request),
        )
        return _created(change)


class GamePublishView(APIView):
    @_write_schema(s.PublishSerializer, "Publish a game (its organizer or staff)")
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        body = _valid(s.PublishSerializer, request.data)
        change = services.game_publish(
            game_id=game_id, expected_version=body["expected_version"], **_write_context(request)
        )
        return _created(change)


class GameResultsView(APIView):
    @_write_schema(s.RESULTS_REQUEST, "Enter a game's results (no play by play)")
    def post(self, request: Request, game_id: uuid.UUID) -> Response:
        serializer = s.ResultsSerializer(data=request.data)
        body = _valid_serializer(serializer)
        change = services.game_enter_results(
            game_id=game_id,
            expected_version=body["expected_version"],
            entry=serializer.entry(),  # the game's own shape (Trick-n-Chef's: scores, totals)
            **_write_context(request),
        )
        return _created(change)


# ----------------------------------------------------------------------------- record files

RECORD_MEDIA_TYPE = "application/jsonl"


class JSONErrorsNegotiation(DefaultContentNegotiation):
    """The record view answers a record file whatever the Accept header says; its errors are
    always JSON (DRF's documented 'ignore the client' negotiation)."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderer = next(iter(renderers))
        return renderer, str(renderer.media_type)


class GameRecordView(APIView):
    content_negotiation_class = JSONErrorsNegotiation

    @extend_schema(
        summary="Export a game's record file",
        description="The effective record (corrections applied) in the record format v1, as "
        "an attachment `game-<id>.jsonl`. A results-only game has none (422 results_only). "
        "While a round is being played, anyone but the game's officials gets the record up "
        "to the end of the last finished round.",
        responses={
            (200, RECORD_MEDIA_TYPE): OpenApiResponse(
                OpenApiTypes.STR, description="JSON Lines, one event per line."
            ),
            404: NOT_FOUND,
            422: REFUSED,
        },
        tags=["games"],
    )
    def get(self, request: Request, game_id: uuid.UUID) -> HttpResponse:
        record = services.game_export_record(game_id=game_id, user=request.user)
        response = HttpResponse(
            record.encode("utf-8"), content_type=f"{RECORD_MEDIA_TYPE}; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="game-{game_id}.jsonl"'
        return response


class GameImportView(APIView):
    parser_classes = RECORD_PARSERS

    @extend_schema(
        summary="Import a game from its record file",
        description="The body is the record file itself (application/jsonl, text/plain or "
        "application/octet-stream). The engine checks every line; an invalid record is a 422 "
        "whose `event` is the 0-based line of the first bad line.",
        request={media: OpenApiTypes.BINARY for media in (p.media_type for p in RECORD_PARSERS)},
        parameters=[s.ImportQuerySerializer, *WRITE_HEADERS],
        responses={
            201: s.GameChangeSerializer,
            400: BAD_REQUEST,
            401: NOT_AUTHENTICATED,
            403: FORBIDDEN,
            413: _error("The record file is too large (record_too_large)."),
            415: _error("Not a record file (unsupported_media_type)."),
            422: REFUSED,
        },
        tags=["games"],
    )
    def post(self, request: Request) -> Response:
        query = _valid(s.ImportQuerySerializer, request.query_params)
        record = request.data if isinstance(request.data, bytes) else b""  # no body: empty
        change = services.game_import_record(
            record=record,
            game_type=query.get("game_type") or record_game(record),
            published=query["published"],
            **_write_context(request),
        )
        return _created(change, location=True)


def record_game(record: bytes) -> str:
    """The game a record file's first line names (``"game"``); Trick-n-Chef when it names
    none or cannot be read (that game's reader then says what is wrong with it)."""
    first = record.split(b"\n", 1)[0]
    try:
        obj = decode_object(split_lines(first)[0]) if first.strip() else None
    except (InvalidRecord, RuleViolation):  # not UTF-8, not JSON, nested too deeply
        return DEFAULT_GAME_TYPE
    game = obj.get("game") if isinstance(obj, dict) else None
    return game if isinstance(game, str) and game in GAME_TYPES else DEFAULT_GAME_TYPE


# ----------------------------------------------------------------------------- the global log


class LogView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary="The global event log",
        description="Every stream's events in commit order, for projections and exports "
        "elsewhere. Read on from `next`: no event is ever skipped, even one committed late. "
        "Hands of a round being played are hidden as in a game's events.",
        parameters=[s.LogQuerySerializer],
        responses={
            200: s.LogSerializer,
            400: BAD_REQUEST,
            401: NOT_AUTHENTICATED,
        },
        tags=["events"],
    )
    def get(self, request: Request) -> Response:
        query = _valid(s.LogQuerySerializer, request.query_params)
        after: store.Cursor = query["after"]
        events = services.log_read(after=after, limit=query["limit"], user=request.user)
        following = store.Cursor(events[-1].tx_id, events[-1].id) if events else after
        return Response(
            {
                "events": s.LogEventSerializer(events, many=True).data,
                "next": str(following),
            }
        )
