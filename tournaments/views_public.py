"""Public tournament pages: what players and spectators see on their phones, no login needed.

Each view parses the request, reads the tournament through the services (which decide what this
user may see: proposed rounds and hidden standings stay with the organizers, downloads until they
are released), shapes the summary into small page records and renders. An htmx request for a
live part of a page (the standings, a round's tables, polled while the tournament runs) gets only
that partial (django-template-partials: ``template.html#partial``).

The shaping below is pure: plain dicts (the services' summary and standings) in, frozen records
out, so the templates only print.
"""

from __future__ import annotations

import hashlib
import html
import logging
import re
import time
import uuid
from collections import Counter, OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from datetime import date as Date
from fractions import Fraction
from typing import Any, TypedDict
from urllib.parse import quote

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import (
    add_never_cache_headers,
    get_conditional_response,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.http import http_date
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import compress_string
from django_htmx.middleware import HtmxDetails

from games import services as games
from games.services import GameNotFound, NotAllowed
from tournaments import services
from tournaments.standings import PRESETS, TIEBREAKS, table_points

logger = logging.getLogger(__name__)

STANDINGS_POLL_SECONDS = 20
"""How often the standings refresh themselves while the tournament is running."""
ROUND_POLL_SECONDS = 30
"""How often a round's tables refresh themselves while the round is in play."""
STANDINGS_CACHE_SECONDS = 600
"""How long the public's standings stay cached. Their key is the tournament's version, so a new
result shows at once; this only bounds how long markup rendered by an older deployment can
outlive it in a shared cache (CACHE_URL)."""
STANDINGS_RENDER_SECONDS = 10
"""How long one request may have the standings of a new version to itself to render (others
are shown the version before meanwhile): far longer than a render takes."""
STANDINGS_RENDER_PATIENCE = 2.0
"""How long after a change visitors wait for the process that claimed its rendering (usually
the worker that recorded it) before one of them renders it itself: a safety net for a worker
that is stuck or far behind, not a race. Measured on the busy benchmark machine, a takeover
at 0.3 s or 0.5 s fired for most versions: a second render beside the worker's, each slowing
the other and blocking a web worker, so results came later and fewer pages were served."""

TOURNAMENT_STATUS = {
    "registration": "Registration open",
    "running": "In progress",
    "finished": "Finished",
}
ROUND_STATUS = {
    "proposed": "Proposed: not public yet",
    "published": "In play",
    "closed": "Complete",
}
GAME_STATUS = {
    "not_started": "Not started",
    "in_progress": "In progress",
    "finished": "Finished",
    "void": "Voided",
    "unknown": "Not public",
}


# ----------------------------------------------------------------------------- formatting


def ordinal(number: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 23 -> "23rd"."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def figure(value: float | int | Fraction) -> str:
    """Points as the standings show them: 2 decimals at most, no trailing zeros (4.0 -> "4")."""
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def place_label(place: int, shared: bool) -> str:
    return f"{ordinal(place)} (shared)" if shared else ordinal(place)


# ----------------------------------------------------------------------------- page records


@dataclass(frozen=True, slots=True)
class Header:
    """What every tournament page shows at the top, and its navigation."""

    id: str
    name: str
    date: Date
    status: str
    status_label: str
    round_now: int
    """Rounds published so far (the current round while the tournament runs)."""
    rounds_planned: int
    rounds: tuple[int, ...]
    """Numbers of the rounds this user may see (published ones; proposed ones for organizers)."""

    @property
    def running(self) -> bool:
        return self.status == "running"

    @property
    def round_text(self) -> str:
        if self.status == "registration" or self.round_now == 0:
            return f"{self.rounds_planned} rounds planned"
        return f"Round {self.round_now} of {self.rounds_planned}"


@dataclass(frozen=True, slots=True)
class Seat:
    number: int
    player: str
    name: str
    dropped: bool
    place: str = ""
    """The place at the table ("1st", "2nd (shared)"), once the table has a result."""
    victory_points: int | None = None


@dataclass(frozen=True, slots=True)
class TableCard:
    """One table of a round, in seat order, with its game's progress and result."""

    number: int
    seats: tuple[Seat, ...]
    game: str | None
    game_status: str
    progress: str
    """"Round 2, trick 5" while the game is played; "" otherwise."""
    has_result: bool
    confirmed: bool

    @property
    def status_label(self) -> str:
        return GAME_STATUS[self.game_status]


@dataclass(frozen=True, slots=True)
class RoundLink:
    number: int
    status: str
    status_label: str
    tables: int
    results: int
    """Tables with a result so far."""
    scheduled: datetime | None = None


@dataclass(frozen=True, slots=True)
class Cell:
    key: str
    title: str
    text: str


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    shared: bool
    player: str
    name: str
    dropped: bool
    points: str
    cells: tuple[Cell, ...]
    """Every column after rank and player, in the standings' order."""


@dataclass(frozen=True, slots=True)
class Standings:
    columns: tuple[tuple[str, str], ...]
    """(key, title) of the columns after rank and player."""
    rows: tuple[StandingRow, ...]
    tiebreaks: tuple[tuple[str, str], ...]
    """(title, description) of the tie-breaks, in the order they apply."""


@dataclass(frozen=True, slots=True)
class PlayerRound:
    """One round of a player's tournament: a table, a bye, or not seated."""

    round: int
    kind: str  # table | bye | absent
    table: int | None = None
    seat: int | None = None
    opponents: tuple[tuple[str, str], ...] = ()
    """(player id, name) of the others at the table, in seat order."""
    place: str = ""
    victory_points: int | None = None
    points: str = ""
    """Tournament points for this round ("" until the table has a result)."""
    confirmed: bool = False
    game: str | None = None
    game_status: str = ""


@dataclass(frozen=True, slots=True)
class PlayerPage:
    id: str
    name: str
    dropped: bool
    late: bool
    rounds: tuple[PlayerRound, ...]
    standing: StandingRow | None


# ----------------------------------------------------------------------------- shaping (pure)


def header(summary: Mapping[str, Any]) -> Header:
    published = [r for r in summary["rounds"] if r["status"] != "proposed"]
    return Header(
        id=summary["id"],
        name=summary["name"],
        date=Date.fromisoformat(summary["date"]),
        status=summary["status"],
        status_label=TOURNAMENT_STATUS.get(summary["status"], summary["status"]),
        round_now=len(published),
        rounds_planned=summary["settings"]["rounds"],
        rounds=tuple(r["round"] for r in summary["rounds"]),
    )


def round_links(summary: Mapping[str, Any]) -> list[RoundLink]:
    links = [
        RoundLink(
            number=r["round"],
            status=r["status"],
            status_label=ROUND_STATUS.get(r["status"], r["status"]),
            tables=len(r["tables"]),
            results=sum(1 for t in r["tables"] if t["result"] is not None),
        )
        for r in summary["rounds"]
    ]
    for number, at in sorted(summary.get("scheduled", {}).items(), key=lambda kv: int(kv[0])):
        if int(number) > len(summary["rounds"]):
            links.append(
                RoundLink(int(number), "scheduled", "Scheduled", 0, 0, datetime.fromisoformat(at))
            )
    return links


def _names(summary: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {p["id"]: p for p in summary["players"]}


def _places(result: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    shared = Counter(r["place"] for r in result)
    return {r["player"]: place_label(r["place"], shared[r["place"]] > 1) for r in result}


def find_round(summary: Mapping[str, Any], number: int) -> Mapping[str, Any] | None:
    return next((r for r in summary["rounds"] if r["round"] == number), None)


def table_cards(
    rnd: Mapping[str, Any],
    players: Mapping[str, Mapping[str, Any]],
    game_states: Mapping[str, tuple[str, str]],
) -> list[TableCard]:
    """The round's tables; ``game_states`` gives (status, progress) of each public game."""
    cards = []
    for table in rnd["tables"]:
        result = table["result"] or []
        places = _places(result)
        points = {r["player"]: r["victory_points"] for r in result}
        seats = tuple(
            Seat(
                number=number,
                player=s["player"],
                name=s["name"],
                dropped=bool(players.get(s["player"], {}).get("dropped")),
                place=places.get(s["player"], ""),
                victory_points=points.get(s["player"]),
            )
            for number, s in enumerate(table["seats"], start=1)
        )
        game = table["game"]
        status, progress = (
            ("unknown", "") if game is None else game_states.get(game, ("unknown", ""))
        )
        if rnd["status"] == "proposed":
            status = "unknown"
        cards.append(
            TableCard(
                number=table["table"],
                seats=seats,
                game=game,
                game_status=status,
                progress=progress,
                has_result=table["result"] is not None,
                confirmed=bool(table["confirmed"]),
            )
        )
    return cards


def game_state(status: str, summary: Mapping[str, Any] | None) -> tuple[str, str]:
    """A game's status for a tables list: (status key, progress text)."""
    if status != "in_progress":
        return status, ""
    state = (summary or {}).get("state") or {}
    if not state.get("round"):
        return "not_started", ""
    return "in_progress", f"Round {state['round']}, trick {state.get('trick') or 1}"


def standings_table(
    data: Mapping[str, Any], settings: Mapping[str, Any] | None = None
) -> Standings:
    """The standings' columns (their keys and titles, in order) and rows, ready to print;
    ranks shared by several rows are marked."""
    columns = [(c["key"], c["title"]) for c in data["columns"]]
    rest = tuple((k, t) for k, t in columns if k not in ("rank", "name"))
    ranks = Counter(r["rank"] for r in data["rows"])
    rows = []
    for row in data["rows"]:
        cells = []
        for key, title in rest:
            value = row["tiebreaks"][key] if key in row["tiebreaks"] else row[key]
            cells.append(Cell(key, title, value if isinstance(value, str) else figure(value)))
        rows.append(
            StandingRow(
                rank=row["rank"],
                shared=ranks[row["rank"]] > 1,
                player=row["player"],
                name=row["name"],
                dropped=bool(row["dropped"]),
                points=figure(row["points"]),
                cells=tuple(cells),
            )
        )
    order = [k for k, _ in rest if k in TIEBREAKS]
    if settings is not None:
        order = [k for k in settings.get("tiebreaks", order) if k in TIEBREAKS]
    return Standings(
        columns=rest,
        rows=tuple(rows),
        tiebreaks=tuple((TIEBREAKS[k].title, TIEBREAKS[k].description) for k in order),
    )


def bye_points(summary: Mapping[str, Any]) -> Fraction:
    """What a bye is worth, as the standings count it: the tournament's setting, or the
    scoring preset's average at the largest table with a confirmed result (2 players if
    none) (tournaments.standings.compute)."""
    settings = summary["settings"]
    if settings.get("bye_points") is not None:
        return Fraction(str(float(settings["bye_points"])))
    sizes = [
        len(t["result"])
        for r in summary["rounds"]
        for t in r["tables"]
        if t["confirmed"] and t["result"] is not None
    ]
    return PRESETS[settings["scoring"]].average(max([2, *sizes]))


def player_rounds(
    summary: Mapping[str, Any], player_id: str, game_states: Mapping[str, tuple[str, str]]
) -> list[PlayerRound]:
    """Each published round of one player: table, seat, opponents, place, victory points and
    tournament points (the preset's points for the places at the table, shared places split)."""
    players = _names(summary)
    scoring = summary["settings"]["scoring"]
    rounds = []
    for rnd in summary["rounds"]:
        if rnd["status"] == "proposed":
            continue
        if any(b["player"] == player_id for b in rnd["byes"]):
            rounds.append(
                PlayerRound(
                    round=rnd["round"], kind="bye", points=figure(bye_points(summary)),
                    confirmed=True,
                )
            )  # fmt: skip
            continue
        table = next(
            (t for t in rnd["tables"] if any(s["player"] == player_id for s in t["seats"])), None
        )
        if table is None:
            rounds.append(PlayerRound(round=rnd["round"], kind="absent"))
            continue
        seats = [s["player"] for s in table["seats"]]
        result = table["result"] or []
        mine = next((r for r in result if r["player"] == player_id), None)
        points = ""
        if mine is not None:
            shares = table_points(scoring, [r["place"] for r in result])
            points = figure(shares[result.index(mine)])
        game = table["game"]
        status = game_states.get(game, ("unknown", ""))[0] if game else "unknown"
        rounds.append(
            PlayerRound(
                round=rnd["round"],
                kind="table",
                table=table["table"],
                seat=seats.index(player_id) + 1,
                opponents=tuple(
                    (p, players[p]["name"] if p in players else p) for p in seats if p != player_id
                ),
                place=_places(result).get(player_id, ""),
                victory_points=None if mine is None else mine["victory_points"],
                points=points,
                confirmed=bool(table["confirmed"]),
                game=game,
                game_status=status,
            )
        )
    return rounds


def standings_hidden_from_public(summary: Mapping[str, Any]) -> bool:
    """True when the public does not see the standings now (whoever is asking)."""
    settings = summary["settings"]
    hidden_from = settings.get("standings_hidden_from")
    rounds_out = len([r for r in summary["rounds"] if r["status"] != "proposed"])
    return (
        hidden_from is not None
        and rounds_out >= hidden_from
        and not settings.get("standings_revealed")
    )


# ----------------------------------------------------------------------------- reads


def _tournament(tournament_id: uuid.UUID, request: HttpRequest) -> dict[str, Any]:
    try:
        _, summary = services.tournament_get(tournament_id=tournament_id, user=request.user)
    except GameNotFound:
        raise Http404("There is no such tournament.") from None
    return summary


def _standings(tournament_id: uuid.UUID, request: HttpRequest) -> dict[str, Any] | None:
    """The standings, or None while the organizer hides them from this user."""
    try:
        return services.tournament_standings(tournament_id=tournament_id, user=request.user)
    except NotAllowed:
        return None


def _game_states(
    request: HttpRequest, tables: Iterable[Mapping[str, Any]]
) -> dict[str, tuple[str, str]]:
    """(status, progress) of the tables' games this user may see, in one query."""
    ids = [uuid.UUID(t["game"]) for t in tables if t.get("game")]
    if not ids:
        return {}
    found = (
        games.game_list(user=request.user)
        .filter(stream_id__in=ids)
        .defer(None)  # the list defers the summary: here it is what we need
        .only("stream_id", "status", "summary")
    )
    return {str(g.stream_id): game_state(g.status, g.summary) for g in found}


class HtmxHttpRequest(HttpRequest):
    """A request through django-htmx's middleware (django-htmx's typing recipe)."""

    htmx: HtmxDetails


def _wants_partial(request: HtmxHttpRequest) -> bool:
    """An htmx request for a part of the page; a history restore wants the whole page."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def _render(
    request: HtmxHttpRequest, template: str, partial: str, context: Mapping[str, Any]
) -> HttpResponse:
    """The page, or only its ``partial`` for an htmx request (a poll)."""
    name = f"{template}#{partial}" if _wants_partial(request) else template
    response = render(request, name, dict(context))
    patch_vary_headers(response, ["HX-Request"])
    return response


def _downloads(tournament_id: uuid.UUID) -> list[tuple[str, str, str]]:
    """(link text, URL, what it holds) of the API's exports."""
    t = {"tournament_id": tournament_id}
    return [
        (
            "Standings (CSV)",
            reverse("tournaments-api:standings-csv", kwargs=t),
            "every column of the standings, one row per player",
        ),
        (
            "Results (CSV)",
            reverse("tournaments-api:results-csv", kwargs=t),
            "one row per player per table, with the game's round scores",
        ),
        (
            "Results (JSON Lines)",
            reverse("tournaments-api:results-jsonl", kwargs=t),
            "one line per table result, for programs",
        ),
        (
            "All game records (zip)",
            reverse("tournaments-api:games-zip", kwargs=t),
            "the record file of every table played card by card",
        ),
    ]


# ----------------------------------------------------------------------------- views


def tournament(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    summary = _tournament(tournament_id, request)
    data = _standings(tournament_id, request)
    leaders = standings_table(data).rows[:3] if data is not None and data["rows"] else ()
    settings = summary["settings"]
    preset = PRESETS.get(settings["scoring"])
    players = sorted(summary["players"], key=lambda p: (p["name"].casefold(), p["id"]))
    context = {
        "t": header(summary),
        "heading": summary["name"],
        "nav": "overview",
        "rounds": round_links(summary),
        "players": players,
        "leaders": leaders,
        "standings_visible": summary["standings_visible"],
        "organizer_sees_hidden": data is not None and standings_hidden_from_public(summary),
        "downloads": _downloads(tournament_id) if summary["downloads"] else [],
        "downloads_unreleased": summary["downloads"] and not settings["downloads_released"],
        "preset": preset,
        "tiebreaks": [TIEBREAKS[k] for k in settings["tiebreaks"] if k in TIEBREAKS],
    }
    return render(request, "public/tournament.html", context)


def round_pairings(request: HtmxHttpRequest, tournament_id: uuid.UUID, number: int) -> HttpResponse:
    """A round's tables (players in seat order), each game's progress and result, the byes."""
    summary = _tournament(tournament_id, request)
    rnd = find_round(summary, number)
    if rnd is None:  # not paired yet, or proposed and this user is not an organizer
        raise Http404(f"Round {number} has not been published.")
    players = _names(summary)
    states = _game_states(request, rnd["tables"])
    tables = table_cards(rnd, players, states)
    context = {
        "t": header(summary),
        "heading": f"Round {number}",
        "nav": "round",
        "nav_round": number,
        "round": rnd,
        "round_status": ROUND_STATUS.get(rnd["status"], rnd["status"]),
        "tables": tables,
        "byes": [(b["player"], b["name"]) for b in rnd["byes"]],
        "finished": sum(1 for t in tables if t.has_result),
        "live": summary["status"] == "running" and rnd["status"] == "published",
        "poll_seconds": ROUND_POLL_SECONDS,
    }
    return _render(request, "public/round.html", "tables", context)


class StandingsParts(TypedDict):
    """The standings page, rendered but for its frame (base.html): what the cache keeps. Plain
    strings, so that a shared cache never holds objects of an older deployment's classes."""

    version: str
    """The tournament's version (and when its projection was saved) these were rendered at."""
    name: str
    head: str
    standings: str
    """The standings partial: the table (or the note that it is hidden), polled by htmx."""
    tiebreaks: str


def standings_parts(request: HttpRequest, tournament_id: uuid.UUID) -> StandingsParts:
    """Read the tournament and its standings as this user may see them and render the page's
    parts (every row: the slow part of the page)."""
    # Read before the projection: the key may then be older than what is rendered (the next
    # visit renders again), never newer (which would keep a page that misses a change).
    version = services.tournament_version(tournament_id)
    try:
        projection, summary, data = services.tournament_get_with_standings(
            tournament_id=tournament_id, user=request.user
        )
    except GameNotFound:
        raise Http404("There is no such tournament.") from None
    t = header(summary)
    table = None if data is None else standings_table(data, summary["settings"])
    tables = [tb for r in summary["rounds"] if r["status"] != "proposed" for tb in r["tables"]]
    context = {
        "t": t,
        "heading": "Standings",
        "nav": "standings",
        "standings": table,
        "rows": None if table is None else standings_rows_html(t.id, table.rows),
        "organizer_sees_hidden": data is not None and standings_hidden_from_public(summary),
        "live": t.running,
        "poll_seconds": STANDINGS_POLL_SECONDS,
        "confirmed": sum(1 for tb in tables if tb["confirmed"]),
        "pending": sum(1 for tb in tables if tb["result"] is not None and not tb["confirmed"]),
        "playing": sum(1 for tb in tables if tb["result"] is None),
    }
    page = "public/standings.html"
    return StandingsParts(
        version=version or "",
        name=t.name,
        head=render_to_string("public/_tournament_head.html", context, request),
        standings=render_to_string(f"{page}#standings", context, request),
        tiebreaks=render_to_string(f"{page}#tiebreaks", context, request),
    )


def standings_rows_html(tournament_id: object, rows: Iterable[StandingRow]) -> SafeString:
    """The standings table's rows (``<tr>``), in Python rather than a template loop: a thousand
    players' rows take tens of milliseconds instead of half a second. Every value is escaped
    (the standard library's html.escape: what Django's escape does, without its lazy wrapper)."""
    placeholder = "--player--"
    link = reverse("public:player", args=[tournament_id, placeholder]).split(placeholder)
    shared = '<span aria-hidden="true">=</span><span class="visually-hidden"> (shared)</span>'
    dropped = '<span class="badge badge-dropped">dropped</span>'
    out = []
    for row in rows:
        cells = "".join(f'<td class="num">{html.escape(c.text)}</td>' for c in row.cells)
        href = html.escape(link[0] + quote(row.player, safe="") + link[1])
        out.append(
            ('<tr class="dropped">' if row.dropped else "<tr>")
            + f'<td class="num">{row.rank}{shared if row.shared else ""}</td>'
            + f'<th scope="row"><a href="{href}">{html.escape(row.name)}</a>'
            + f"{dropped if row.dropped else ''}</th>{cells}</tr>"
        )
    return mark_safe("\n".join(out))  # noqa: S308 (built from escaped values above)


@dataclass(frozen=True, slots=True)
class SharedPage:
    """The public's standings at one tournament version, as every anonymous visitor gets them:
    the whole page and the htmx partial, each as sent and gzipped (compressed once per version,
    where it is rendered, never per visit)."""

    version: str
    parts: StandingsParts
    page: bytes
    page_gz: bytes
    partial: bytes
    partial_gz: bytes

    @classmethod
    def of(cls, entry: Mapping[str, Any]) -> SharedPage:
        return cls(
            version=entry["version"],
            parts=_parts(entry),
            page=entry["page"].encode(),
            page_gz=entry["page_gz"],
            partial=entry["standings"].encode(),
            partial_gz=entry["standings_gz"],
        )


def _shared(tournament_id: uuid.UUID, now: str | None) -> SharedPage:
    """The public's standings: this process's copy while the tournament's version is still
    ``now``, else the cache's, rendered and cached again once the version has moved. Each
    process has its own cache unless CACHE_URL names a shared one (settings).

    One request renders a new version; a visitor who comes while another request (or the
    worker that recorded the change) renders it gets the version before, a fraction of a second
    old, rather than rendering it too: at the end of a round, a thousand players' standings
    change every few seconds while dozens of phones poll them. But not for long: once the
    change is STANDINGS_RENDER_PATIENCE old and still not rendered (a busy worker, one task
    queued behind another), one visitor renders it after all."""
    kept = _PAGES.get(tournament_id)
    if kept is not None and kept.version == now:
        return kept
    key = _cache_key(tournament_id)
    cached = None  # nothing to show meanwhile: render
    # The version the cache holds first (a few bytes): while a new one is being rendered,
    # this process's copy of the one before is it, and a visit need not fetch the whole entry.
    stored = cache.get(f"{key}:version") if now is not None else None
    if kept is not None and stored == kept.version:
        cached = kept
    elif stored is not None:
        entry = cache.get(key)
        if isinstance(entry, dict) and "page_gz" in entry:  # not an older deployment's
            cached = SharedPage.of(entry)
            _remember_page(tournament_id, cached)
    lock = None
    claim = uuid.uuid4().hex
    if cached is not None and cached.version != now:
        lock = f"{key}:rendering"
        if not cache.add(lock, claim, STANDINGS_RENDER_SECONDS):
            lock = f"{key}:overdue:{_digest(now)}"  # one visitor per version, in any process
            if not (_overdue(now) and cache.add(lock, claim, STANDINGS_RENDER_SECONDS)):
                lock = None
        if lock is None:  # being rendered by another request or the worker: the one before
            return cached
    elif cached is not None:  # up to date
        return cached
    try:
        entry = _render_public_standings(tournament_id)  # 404 if there is no such tournament
    finally:
        if lock is not None:
            _release(lock, claim)
    shared = SharedPage.of(entry)
    _remember_page(tournament_id, shared)
    return shared


def _overdue(version: str | None) -> bool:
    """Whether the change that made ``version`` was saved STANDINGS_RENDER_PATIENCE ago."""
    saved = _version_time(version)
    return saved is not None and time.time() - saved.timestamp() > STANDINGS_RENDER_PATIENCE


def _version_time(version: str | None) -> datetime | None:
    """When the tournament's projection was saved, from its version key ("<version>:<saved
    at>", tournaments.services.tournament_version); None if it does not say."""
    if version is None:
        return None
    try:
        saved = datetime.fromisoformat(version.partition(":")[2])
    except ValueError:
        return None
    return saved if saved.tzinfo is not None else saved.replace(tzinfo=UTC)


def _entry(parts: StandingsParts) -> dict[str, Any]:
    """The cache entry of the page's parts: plain strings (not Django's SafeString), so that a
    shared cache never holds objects of a deployment's classes."""
    return {k: str(v) for k, v in parts.items()}


def _parts(entry: Mapping[str, Any]) -> StandingsParts:
    """The page's parts from a cache entry (which also holds the whole page)."""
    return StandingsParts(
        version=entry["version"],
        name=entry["name"],
        head=entry["head"],
        standings=entry["standings"],
        tiebreaks=entry["tiebreaks"],
    )


def _release(lock: str, claim: str) -> None:
    """Let go of a rendering claim if it is still ours (the worker may have taken it over)."""
    if cache.get(lock) == claim:
        cache.delete(lock)


_PAGES: OrderedDict[uuid.UUID, SharedPage] = OrderedDict()
"""This process's copy of the latest shared standings pages, the most recently used last: a
visit at an unchanged version is answered without a cache round trip. Only a copy of what the
cache holds (another process renders or fetches its own)."""
PAGES_KEPT = 32


def _remember_page(tournament_id: uuid.UUID, shared: SharedPage) -> None:
    _PAGES[tournament_id] = shared
    _PAGES.move_to_end(tournament_id)
    while len(_PAGES) > PAGES_KEPT:
        _PAGES.popitem(last=False)


def _cache_key(tournament_id: uuid.UUID) -> str:
    return f"public-standings:{tournament_id}"


def _plain_visit(request: HttpRequest) -> bool:
    """A visitor's request whose page is the same for everyone: not logged in, no query string
    (the login link carries the path), no message waiting to be shown."""
    return (
        not request.user.is_authenticated
        and not request.META.get("QUERY_STRING")
        and not len(get_messages(request))  # len() does not mark them as shown
    )


def standings(request: HtmxHttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """Live standings with every tie-break column; a note instead while they are hidden.

    The public (anyone not logged in) shares one rendering per tournament version
    (:func:`_shared`). A plain visit (:func:`_plain_visit`) and any anonymous htmx poll get it
    as it is, the same bytes for everyone, which is what makes it safe to send gzipped (it holds
    no secret and reflects nothing from the request: no BREACH) and to let a proxy keep for a
    second (PUBLIC_CACHE_CONTROL), with an ETag and Last-Modified for a 304 at an unchanged
    version. Other anonymous visits have the frame (base.html: CSRF token, login link with
    the query string, messages) rendered around the cached parts; a logged-in user's page is
    rendered for them (an organizer sees hidden standings and proposed rounds). Both of those
    are personal: never compressed, never stored by anyone (Cache-Control: private, no-store).
    """
    partial = _wants_partial(request)
    if request.user.is_authenticated:
        parts = standings_parts(request, tournament_id)
        if partial:
            # Markup rendered through the autoescaping templates.
            return _personal(HttpResponse(mark_safe(parts["standings"])))
        return _personal(_standings_page(request, parts, shared=False))
    now = services.tournament_version(tournament_id)
    if not partial and not _plain_visit(request):
        shared = _shared(tournament_id, now)
        return _personal(_standings_page(request, shared.parts, shared=False))
    if now is not None and (unchanged := _not_modified(request, now, partial)) is not None:
        return unchanged  # without a cache round trip, whichever process rendered it
    shared = _shared(tournament_id, now)
    if shared.version != now and (unchanged := _not_modified(request, shared.version, partial)):
        return unchanged  # the version before, still being rendered: the visitor has it
    return _shared_response(request, shared, partial=partial)


def _standings_page(request: HttpRequest, parts: StandingsParts, *, shared: bool) -> HttpResponse:
    """The whole page around its parts; ``shared``: the one every plain visit gets."""
    page = {
        "name": parts["name"],
        "head": mark_safe(parts["head"]),
        "standings": mark_safe(parts["standings"]),
        "tiebreaks": mark_safe(parts["tiebreaks"]),
    }
    return render(request, "public/standings.html", {"page": page, "shared_page": shared})


# ----------------------------------------------------------------------------- HTTP caching

PUBLIC_CACHE_CONTROL = "public, max-age=0, s-maxage=1, stale-while-revalidate=2"
"""The shared standings' caching: a browser revalidates every time (a 304 while the version
stands, so a new result shows at its next poll), a proxy in front (docs/operations.md) may
answer for a second, and for 2 more while it asks again: a thousand phones cost the site
about one request a second. A result then reaches a phone behind the proxy up to ~3 s late."""
PAGE_FORMAT = "1"
"""Part of every ETag: change it when the page's markup changes, so that a browser does not
keep a page of the same tournament version in an older deployment's markup."""
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")  # what Django's GZipMiddleware looks for


def _digest(version: str | None) -> str:
    return hashlib.blake2b(f"{PAGE_FORMAT}|{version}".encode(), digest_size=12).hexdigest()


def _etag(version: str, partial: bool) -> str:
    """A weak ETag (the gzipped and the plain bytes are the same page) of the shared standings
    at ``version``; the htmx partial has its own."""
    return f'W/"{_digest(version)}{"-p" if partial else ""}"'


def _last_modified(version: str) -> int | None:
    """Last-Modified of the shared standings at ``version``, once it is 2 s old. HTTP dates
    count whole seconds: sent at once, a change later in the same second would keep its
    Last-Modified and a client asking If-Modified-Since alone would wrongly get a 304. Sent
    only once the second is over, any later change has a later date."""
    saved = _version_time(version)
    if saved is None or time.time() - saved.timestamp() < 2:
        return None
    return int(saved.timestamp())


def _validators(version: str, partial: bool) -> dict[str, str]:
    headers = {"ETag": _etag(version, partial), "Cache-Control": PUBLIC_CACHE_CONTROL}
    modified = _last_modified(version)
    if modified is not None:
        headers["Last-Modified"] = http_date(modified)
    return headers


def _not_modified(request: HttpRequest, version: str, partial: bool) -> HttpResponse | None:
    """304 Not Modified if the visitor's copy (If-None-Match, or If-Modified-Since alone) is the
    shared standings at ``version``; None otherwise."""
    meta = request.META
    if not (meta.get("HTTP_IF_NONE_MATCH") or meta.get("HTTP_IF_MODIFIED_SINCE")):
        return None
    response = get_conditional_response(
        request, etag=_etag(version, partial), last_modified=_last_modified(version)
    )
    if response is None or response.status_code != 304:
        return None
    for name, value in _validators(version, partial).items():
        response[name] = value
    patch_vary_headers(response, SHARED_VARY)
    return response


SHARED_VARY = ("HX-Request", "Accept-Encoding", "Cookie")
"""What the shared standings' response depends on: the partial or the page, gzipped or not,
and (through the session) whether the visitor is logged in, who gets a page of their own."""


def _shared_response(request: HttpRequest, shared: SharedPage, *, partial: bool) -> HttpResponse:
    """The shared standings as sent: gzipped if the visitor accepts it, with validators and a
    Cache-Control a proxy may act on."""
    plain, packed = (
        (shared.partial, shared.partial_gz) if partial else (shared.page, shared.page_gz)
    )
    if _ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")):
        response = HttpResponse(packed, headers={"Content-Encoding": "gzip"})
    else:
        response = HttpResponse(plain)
    response["Content-Length"] = str(len(response.content))
    for name, value in _validators(shared.version, partial).items():
        response[name] = value
    patch_vary_headers(response, SHARED_VARY)
    return response


def _personal(response: HttpResponse) -> HttpResponse:
    """A page for this visitor alone (a logged-in user's, or one carrying a CSRF token or a
    message): no browser or proxy may store it or give it to anyone else."""
    add_never_cache_headers(response)
    patch_cache_control(response, private=True)
    patch_vary_headers(response, SHARED_VARY)
    return response


@contextmanager
def public_standings_rendered_after(tournament_id: uuid.UUID | None) -> Iterator[None]:
    """Around a change of the tournament (the Celery worker recording a result): claim the
    rendering of its public standings first, so that visitors keep getting the version before
    while the change commits, then render the new version into the cache once the block is
    done, so that no visitor has to. Nothing is rendered if the block fails, or if the cache
    is this process's own memory and this is not a web process (nobody would see it); the
    claim lapses by itself (STANDINGS_RENDER_SECONDS) if this process dies in between."""
    eager = bool(getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False))
    if tournament_id is None or (cache_is_private() and not eager):
        yield
        return
    key = _cache_key(tournament_id)
    claim = uuid.uuid4().hex
    # Taken even from a visitor's request that is rendering the version before: the change
    # about to commit makes that one out of date anyway.
    cache.set(f"{key}:rendering", claim, STANDINGS_RENDER_SECONDS)
    try:
        yield
        now = services.tournament_version(tournament_id)
        if now is not None and cache.get(f"{key}:version") != now:
            try:
                _render_public_standings(tournament_id)
            except Exception:  # the next visitor renders it instead; the change stands
                logger.exception("could not render the standings of tournament %s", tournament_id)
    finally:
        _release(f"{key}:rendering", claim)


def _render_public_standings(tournament_id: uuid.UUID) -> dict[str, Any]:
    """Render the public's standings (parts, whole page, each gzipped) as any anonymous visitor
    gets them, into the cache; returns the cache entry. Rendered for a request of its own, so
    that nothing of the visitor who happens to ask first (a query string, a message) gets in."""
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = reverse("public:standings", args=[tournament_id])
    request.user = AnonymousUser()
    parts = standings_parts(request, tournament_id)
    entry = _entry(parts)
    page = _standings_page(request, parts, shared=True).content
    entry["page"] = page.decode()
    entry["page_gz"] = compress_string(page)
    entry["standings_gz"] = compress_string(parts["standings"].encode())
    key = _cache_key(tournament_id)
    cache.set(key, entry, STANDINGS_CACHE_SECONDS)
    # Then the version it holds (visitors look at this first): never ahead of the entry.
    cache.set(f"{key}:version", entry["version"], STANDINGS_CACHE_SECONDS)
    return entry


def cache_is_private() -> bool:
    """Whether the cache is each process's own memory (no CACHE_URL)."""
    return str(settings.CACHES["default"]["BACKEND"]).endswith("LocMemCache")


def player(request: HttpRequest, tournament_id: uuid.UUID, player_id: str) -> HttpResponse:
    """One player's tournament: every round's table, seat, opponents and result."""
    summary = _tournament(tournament_id, request)
    players = _names(summary)
    if player_id not in players:
        raise Http404("There is no such player in this tournament.")
    entry = players[player_id]
    tables = [t for r in summary["rounds"] if r["status"] != "proposed" for t in r["tables"]]
    mine = [t for t in tables if any(s["player"] == player_id for s in t["seats"])]
    rounds = player_rounds(summary, player_id, _game_states(request, mine))
    data = _standings(tournament_id, request)
    table = standings_table(data) if data is not None else None
    standing = None
    if table is not None:
        standing = next((row for row in table.rows if row.player == player_id), None)
    page = PlayerPage(
        id=player_id,
        name=entry["name"],
        dropped=bool(entry["dropped"]),
        late=bool(entry["late"]),
        rounds=tuple(rounds),
        standing=standing,
    )
    context = {
        "t": header(summary),
        "heading": entry["name"],
        "nav": "player",
        "player": page,
        "standings_visible": data is not None,
        "players_count": len(players),
    }
    return render(request, "public/player.html", context)
