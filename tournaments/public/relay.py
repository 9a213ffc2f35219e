"""The relay's pages (docs/relay.md, issue 27): a round's tables live, each game its own panel,
as a spectator is shown them: the relay's delay behind the tables (games.services.relay), the
round's officials at once.

``/t/<tournament>/round/<n>/live/`` is every table of the round; ``?table=N`` one table's panel
alone, bigger (the live table view, and what the big screen features). htmx polls the page's
``relay`` partial about every second while the round is played.

A poll is cheap, whatever the number of spectators: the round's tables are read once per
tournament version (kept in this process), the tables' games in one query, what each reader is
shown of them (the version the delay lets through) in two (games.services.relay.behind), and
the answer is keyed by those versions: the same key is a 304 (an ETag), a known key is the
rendering kept for it, and a new one is drawn from the games' panels, each drawn once per game,
version and language (games.pages.spectator_panel).
"""

from __future__ import annotations

import gzip
import hashlib
import re
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django_htmx.middleware import HtmxDetails

from games import services as games
from games.pages import spectator_panel
from games.projection import IN_PROGRESS
from games.recent import Recent
from games.services import GameNotFound, relay
from tournaments import services
from tournaments.public import conditional
from tournaments.public.presenters import find_round, header
from tournaments.public.words import WORDS

POLL_SECONDS = 1
"""How often the relay page asks for its tables while the round is played: a play shows at
most about a second after the delay lets it through."""


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


@dataclass(frozen=True, slots=True)
class RelayTable:
    number: int
    game: uuid.UUID | None
    names: tuple[str, ...]
    """The entrants in seat order (a team's name for a team game)."""


@dataclass(frozen=True, slots=True)
class RelayRound:
    """What the relay page needs of the tournament (the same for every spectator at a version)."""

    tournament: uuid.UUID
    round: int
    status: str
    """The round's status (published, closed)."""
    live: bool
    """The round is being played: the page polls."""
    delay: int
    """The round's relay delay in seconds (its own, else the tournament's)."""
    game_type: str
    tables: tuple[RelayTable, ...]


_rounds: Recent[tuple[uuid.UUID, str, int], RelayRound] = Recent(256)
_pages: Recent[str, tuple[SafeString, bytes]] = Recent(32)
"""The relay's partials as drawn and gzipped, by key: every spectator of a round shares the
key of the moment (a 50-table round's partial is some 300 kB, 30 kB gzipped)."""
_tables: Recent[tuple[Any, ...], SafeString] = Recent(2048)
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")


def relay_round(summary: Mapping[str, Any], number: int) -> RelayRound | None:
    """The round as the relay shows it, from the tournament's summary (None: not published)."""
    rnd = find_round(summary, number)
    if rnd is None or rnd["status"] == "proposed":
        return None
    settings = summary["settings"]
    delay = rnd.get("relay_delay")
    return RelayRound(
        tournament=uuid.UUID(str(summary["id"])),
        round=number,
        status=rnd["status"],
        live=summary["status"] == "running" and rnd["status"] == "published",
        delay=int(delay if delay is not None else settings.get("relay_delay") or 0),
        game_type=summary["game_type"],
        tables=tuple(
            RelayTable(
                number=int(t["table"]),
                game=uuid.UUID(t["game"]) if t.get("game") else None,
                names=tuple(s["name"] for s in t["seats"]),
            )
            for t in rnd["tables"]
        ),
    )


def round_for(request: HttpRequest, tournament_id: uuid.UUID, number: int) -> RelayRound:
    """The round for this reader: the public's is kept by tournament version (a poll reads one
    indexed row); a logged-in reader's is read for them."""
    try:
        if request.user.is_authenticated:
            summary = services.tournament_get(tournament_id=tournament_id, user=request.user)
            found = relay_round(summary.summary, number)
        else:
            version = services.tournament_version(tournament_id)
            if version is None:
                raise GameNotFound("no such tournament")
            key = (tournament_id, version, number)
            found = _rounds.get(key)
            if found is None:
                read = services.tournament_get(tournament_id=tournament_id, user=None)
                found = relay_round(read.summary, number)
                if found is not None:
                    _rounds.put(key, found)
    except GameNotFound:
        raise Http404("There is no such tournament.") from None
    if found is None:
        raise Http404(f"Round {number} has not been published.")
    return found


@dataclass(frozen=True, slots=True)
class Shown:
    """One table as this reader is shown it now."""

    table: RelayTable
    game_type: str
    version: int
    """The version of the table's game the reader is shown (0: no game)."""
    late: int
    """How many seconds behind the table the reader is shown it (0: as it is)."""


PUBLIC_STEP = relay.PUBLIC_STEP
"""Every anonymous reader is shown the tables as of the same moment, the clock rounded down to
this step (games.services.relay): the page works out what they are shown once a step in each
process too, the games' query included, not once a poll."""

_public_shown: Recent[tuple[RelayRound, tuple[RelayTable, ...], datetime], list[Shown]] = Recent(
    256
)


def shown_tables(
    request: HttpRequest, rnd: RelayRound, tables: Sequence[RelayTable]
) -> list[Shown]:
    """What this reader is shown of each table: one query for the games, two for the delay;
    for the public, once every :data:`PUBLIC_STEP` in this process whatever the number of
    spectators (they are all shown the same)."""
    if request.user.is_authenticated:
        return _shown_tables(request.user, rnd, tables, timezone.now())
    now = timezone.now()
    moment = relay.public_moment(now)
    key = (rnd, tuple(tables), moment)
    found = _public_shown.get(key)
    if found is None:
        found = _shown_tables(request.user, rnd, tables, moment)
        _public_shown.put(key, found)
    return found


def _shown_tables(
    user: Any, rnd: RelayRound, tables: Sequence[RelayTable], now: datetime
) -> list[Shown]:
    ids = [t.game for t in tables if t.game is not None]
    found = {
        g.stream_id: g
        for g in games.game_list(user=user)
        .filter(stream_id__in=ids)
        .only("stream_id", "version", "updated_at", "status", "game_type", "created_by")
    }
    late = relay.behind(found.values(), user, now)
    out = []
    for table in tables:
        game = found.get(table.game) if table.game is not None else None
        if game is None:
            out.append(Shown(table, rnd.game_type, 0, 0))
            continue
        cut = late.get(game.stream_id)
        # Said while the reader is kept behind a game being played (not only while a play is
        # held back: the note would come and go between plays).
        behind = cut is not None or (
            rnd.delay > 0
            and game.status == IN_PROGRESS
            and not (user.is_authenticated and games.game_sees_hands(game=game, user=user))
        )
        out.append(
            Shown(
                table,
                game.game_type,
                cut.version if cut is not None else game.version,
                (cut.delay if cut is not None else rnd.delay) if behind else 0,
            )
        )
    return out


def late_words(seconds: int) -> str:
    """ "shown 5 minutes late" (whole minutes from a minute on, else seconds)."""
    if seconds >= 60:
        minutes = round(seconds / 60)
        return ngettext(
            "shown %(minutes)s minute late", "shown %(minutes)s minutes late", minutes
        ) % {"minutes": minutes}
    return ngettext("shown %(seconds)s second late", "shown %(seconds)s seconds late", seconds) % {
        "seconds": seconds
    }


def delay_words(seconds: int) -> str:
    """The round's delay, for the page's note."""
    if seconds >= 60:
        minutes = round(seconds / 60)
        return ngettext(
            "Spectators see this round's tables %(minutes)s minute late: the organizers' delay.",
            "Spectators see this round's tables %(minutes)s minutes late: the organizers' delay.",
            minutes,
        ) % {"minutes": minutes}
    return ngettext(
        "Spectators see this round's tables %(seconds)s second late: the organizers' delay.",
        "Spectators see this round's tables %(seconds)s seconds late: the organizers' delay.",
        seconds,
    ) % {"seconds": seconds}


def _table_html(rnd: RelayRound, shown: Shown, big: bool) -> SafeString:
    """One table's section (its heading, status, lateness and its game's panel), kept by what
    it shows: a poll after one table moved draws that table alone again."""
    key = (rnd.tournament, rnd.round, shown, big, get_language() or "")
    html = _tables.get(key)
    if html is None:
        html = _draw_table(rnd, shown, big)
        _tables.put(key, html)
    return html


def _draw_table(rnd: RelayRound, shown: Shown, big: bool) -> SafeString:
    panel = (
        spectator_panel(shown.table.game, shown.game_type, shown.version, big=big)
        if shown.table.game is not None and shown.version
        else None
    )
    status = ""
    if shown.table.game is not None and shown.version:
        status = relay.folded(shown.table.game, shown.game_type, shown.version).status
    context = {
        "tournament": rnd.tournament,
        "round": rnd.round,
        "table": shown.table,
        "panel": panel,
        "status": status,
        "status_label": _status_label(status),
        "late": late_words(shown.late) if shown.late else "",
        "big": big,
    }
    return mark_safe(render_to_string("public/relay_table.html", context))  # noqa: S308


def _status_label(status: str) -> str:
    if not status:
        return ""
    return WORDS.status("game", status)


def _key(rnd: RelayRound, shown: Sequence[Shown], *, big: bool, language: str) -> str:
    """What the relay's partial depends on, as a short digest (its ETag and its cache key)."""
    parts = (
        rnd,
        big,
        language,
        tuple((s.table.number, s.version, s.late) for s in shown),
    )
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


def _partial(
    request: HttpRequest, rnd: RelayRound, shown: Sequence[Shown], *, big: bool, key: str
) -> tuple[SafeString, bytes]:
    """The relay's partial at ``key``, and gzipped (kept: drawn once for every spectator)."""
    found = _pages.get(key)
    if found is None:
        context = {
            "relay": rnd,
            "tables": [_table_html(rnd, s, big) for s in shown],
            "delay_note": delay_words(rnd.delay) if rnd.delay else "",
            "big": big,
            "poll_seconds": POLL_SECONDS,
            "url": request.path + (f"?table={shown[0].table.number}" if big and shown else ""),
            "relay_id": f"relay-{shown[0].table.number}" if big and shown else "relay",
        }
        html = mark_safe(render_to_string("public/relay.html#relay", context))  # noqa: S308
        found = (html, gzip.compress(html.encode(), compresslevel=6, mtime=0))
        _pages.put(key, found)
    return found


def _etag(key: str, partial: bool) -> str:
    return f'W/"relay-{key}{"-p" if partial else ""}"'


def _chosen(request: HttpRequest, rnd: RelayRound) -> RelayTable | None:
    raw = request.GET.get("table")
    if raw is None:
        return None
    try:
        number = int(raw)
    except ValueError:
        raise Http404("There is no such table.") from None
    table = next((t for t in rnd.tables if t.number == number), None)
    if table is None:
        raise Http404("There is no such table.")
    return table


def relay_page(request: HtmxHttpRequest, tournament_id: uuid.UUID, number: int) -> HttpResponse:
    """A round's tables live (``?table=N``: one table's panel alone, bigger); an htmx poll gets
    the ``relay`` partial, with an ETag (304 while nothing the reader is shown has changed)."""
    rnd = round_for(request, tournament_id, number)
    chosen = _chosen(request, rnd)
    tables = (chosen,) if chosen is not None else rnd.tables
    big = chosen is not None
    shown = shown_tables(request, rnd, tables)
    partial = bool(request.htmx) and not request.htmx.history_restore_request
    key = _key(rnd, shown, big=big, language=get_language() or "")
    if partial:
        etag = _etag(key, partial)
        if request.META.get("HTTP_IF_NONE_MATCH"):
            unchanged = get_conditional_response(request, etag=etag)
            if unchanged is not None and unchanged.status_code == 304:
                return _headers(request, unchanged, etag)
        html, packed = _partial(request, rnd, shown, big=big, key=key)
        # The partial holds no secret and reflects nothing from the request: safe to compress
        # (no GZipMiddleware here: docs/operations.md).
        if _ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
            response = HttpResponse(packed, headers={"Content-Encoding": "gzip"})
        else:
            response = HttpResponse(html)
        response["Content-Length"] = str(len(response.content))
        return _headers(request, response, etag)
    try:
        summary = services.tournament_get(tournament_id=tournament_id, user=request.user).summary
    except GameNotFound:
        raise Http404("There is no such tournament.") from None
    names = ", ".join(chosen.names) if chosen is not None else ""
    context = {
        "t": header(summary, WORDS),
        "heading": _("Table %(table)s live, round %(round)s")
        % {"table": chosen.number, "round": number}
        if chosen is not None
        else _("Round %(round)s live") % {"round": number},
        "names": names,
        "nav": "round",
        "nav_round": number,
        "relay_html": _partial(request, rnd, shown, big=big, key=key)[0],
        "chosen": chosen,
        "round_number": number,
    }
    response = render(request, "public/relay.html", context)
    return conditional.personal(response)


def _headers(request: HttpRequest, response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    if request.user.is_authenticated:  # an official's page is theirs: never shared
        response["Cache-Control"] = "private, max-age=0"
    else:
        response["Cache-Control"] = conditional.PUBLIC_CACHE_CONTROL
    patch_vary_headers(response, conditional.SHARED_VARY)
    return response
