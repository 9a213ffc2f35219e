"""The relay's stream (docs/relay.md): a round's tables as JSON Lines, each game's record
events as the reader is shown them (the relay's delay, hidden hands), for a program to follow.

``GET /api/tournaments/<id>/rounds/<n>/relay.jsonl`` gives every table's events from the
start; ``?since=<cursor>`` only what came since the answer that gave the cursor. Each line is
``{"table", "game", "version", "event"}``: ``event`` is one object of the game's record format
(docs/record-format.md), or the store's own ``events_retracted`` (drop the last ``count``
entries: a correction), ``results_entered``, ``game_voided``. A line for a version the follower
already holds replaces it: the deal of a round being played comes with its hands hidden
(``hands_hidden``), and again in full once the round is over. A table the follower must read
again from its start (the delay made longer: it is shown an earlier version than the cursor's)
gets a line ``{"table", "game", "version": 0, "reset": true}`` first. The last line is
``{"cursor": ..., "delay": ...}``.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Iterable, Mapping
from typing import Any, Final

from django.http import HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.views import APIView

from games import services as games
from games.api.exceptions import BadRequest
from games.api.views import BAD_REQUEST, RECORD_MEDIA_TYPE, JSONErrorsNegotiation, _error
from games.projection import PUBLISHED, UNDO_TYPES
from tournaments.public import conditional
from tournaments.public.relay import Shown, round_for, shown_tables

SKIPPED: Final = frozenset({PUBLISHED, *UNDO_TYPES})
"""The store's events that change nothing a follower folds (the publication; an undo asked
and declined): left out of the stream."""
CURSOR_MAX: Final = 4000
_CURSOR: Final = re.compile(r"\d{1,4}\.\d{1,6}(\.\d{1,6})?(,\d{1,4}\.\d{1,6}(\.\d{1,6})?)*")

Cursor = dict[int, tuple[int, int]]
"""By table number: the last version sent, and the first version sent with something hidden
(0: nothing hidden), which is sent again once the table moves on."""


def parse_cursor(raw: str | None) -> Cursor:
    if not raw:
        return {}
    if len(raw) > CURSOR_MAX or _CURSOR.fullmatch(raw) is None:
        raise BadRequest(
            {"since": [_("not a cursor of this stream: give the last line's cursor as it is")]}
        )
    out: Cursor = {}
    for part in raw.split(","):
        numbers = [int(n) for n in part.split(".")]
        out[numbers[0]] = (numbers[1], numbers[2] if len(numbers) > 2 else 0)
    return out


def cursor_text(cursor: Mapping[int, tuple[int, int]]) -> str:
    return ",".join(
        f"{table}.{version}" + (f".{hidden}" if hidden else "")
        for table, (version, hidden) in sorted(cursor.items())
    )


def _line(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"


def _hidden(data: Any) -> bool:
    return isinstance(data, Mapping) and bool(data.get("hands_hidden") or data.get("card_hidden"))


def table_lines(
    request: Request, shown: Shown, sent: tuple[int, int]
) -> tuple[list[str], tuple[int, int]]:
    """The lines of one table since ``sent`` (its cursor), and its cursor after them."""
    game = shown.table.game
    assert game is not None
    version, hidden = sent
    lines: list[str] = []
    if shown.version == version:
        return lines, sent
    head = {"table": shown.table.number, "game": str(game)}
    start = version
    if shown.version < version:  # shown an earlier version than the follower holds
        lines.append(_line({**head, "version": 0, "reset": True}))
        start = hidden = 0
    elif hidden:
        start = hidden - 1  # sent with something hidden: sent again, as it is shown now
    seen, events = games.game_events(game_id=game, since=start, user=request.user)
    first_hidden = 0
    for e in events:
        if e.type in SKIPPED:
            continue
        if not first_hidden and _hidden(e.data):
            first_hidden = e.version
        lines.append(_line({**head, "version": e.version, "event": {"type": e.type, **e.data}}))
    return lines, (seen.version, first_hidden)


def _etag(request: Request, tournament: uuid.UUID, number: int, shown: Iterable[Shown]) -> str:
    """The stream's state for this reader: the version shown of each table (a follower who
    holds the answer of this ETag has everything until one of them moves)."""
    parts = (
        tournament,
        number,
        request.user.is_authenticated,
        tuple((s.table.number, s.version) for s in shown),
    )
    return f'W/"stream-{hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()}"'


class RelayStreamView(APIView):
    content_negotiation_class = JSONErrorsNegotiation

    @extend_schema(
        operation_id="tournaments_relay_stream",
        summary="Follow a round's tables (JSON Lines)",
        description=(
            "Every table of the round as the reader is shown it (a spectator: the relay's "
            "delay behind the tables, the cards still held hidden; docs/relay.md). One line "
            "per event: `{table, game, version, event}`, `event` an object of the game's "
            "record format or the store's `events_retracted`, `results_entered`, "
            "`game_voided`; a line for a version already received replaces it; "
            "`{table, game, version: 0, reset: true}`: forget that table, it follows from its "
            "start. The last line is `{cursor, delay}`: ask again with `?since=<cursor>` (and "
            "`If-None-Match` with this answer's ETag: 304 while no table has moved)."
        ),
        parameters=[
            OpenApiParameter(
                "since",
                {"type": "string", "maxLength": CURSOR_MAX, "pattern": f"^{_CURSOR.pattern}$"},
                OpenApiParameter.QUERY,
                description="The cursor of the last line of the answer before (empty or "
                "absent: every table from its start).",
            )
        ],
        responses={
            (200, RECORD_MEDIA_TYPE): OpenApiResponse(OpenApiTypes.STR),
            304: OpenApiResponse(description="Nothing has moved since the answer of this ETag."),
            400: BAD_REQUEST,
            404: _error("There is no such tournament, or no such round published (not_found)."),
        },
        tags=["tournaments"],
    )
    def get(self, request: Request, tournament_id: uuid.UUID, round: int) -> HttpResponse:
        sent = parse_cursor(request.query_params.get("since"))
        rnd = round_for(request, tournament_id, round)
        shown = [s for s in shown_tables(request, rnd, rnd.tables) if s.table.game is not None]
        etag = _etag(request, tournament_id, round, shown)
        if request.headers.get("If-None-Match"):
            unchanged = get_conditional_response(request, etag=etag)
            if unchanged is not None and unchanged.status_code == 304:
                return _headers(request, unchanged, etag)
        lines: list[str] = []
        after: Cursor = {}
        for table in shown:
            more, after[table.table.number] = table_lines(
                request, table, sent.get(table.table.number, (0, 0))
            )
            lines.extend(more)
        late = max((s.late for s in shown), default=0)
        lines.append(_line({"cursor": cursor_text(after), "delay": late}))
        response = HttpResponse("".join(lines), content_type=f"{RECORD_MEDIA_TYPE}; charset=utf-8")
        response["X-Relay-Cursor"] = cursor_text(after)
        return _headers(request, response, etag)


def _headers(request: Request, response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    if request.user.is_authenticated:
        response["Cache-Control"] = "private, max-age=0"
    else:
        response["Cache-Control"] = conditional.PUBLIC_CACHE_CONTROL
    patch_vary_headers(response, ("Cookie", "Authorization"))
    return response
