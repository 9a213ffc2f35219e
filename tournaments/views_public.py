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

import html
import logging
import uuid
from collections import Counter, OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date as Date
from datetime import datetime
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
from django.utils.cache import patch_vary_headers
from django.utils.safestring import SafeString, mark_safe
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


def _public_standings(
    request: HttpRequest, tournament_id: uuid.UUID, now: str | None
) -> tuple[StandingsParts, dict[str, str]]:
    """The public's standings page parts: from the cache while the tournament's version is
    still ``now``, rendered and cached again once it has moved. Each process has its own cache
    unless CACHE_URL names a shared one (settings). Also the cache entry itself (to add the
    whole page to).

    One request renders a new version; a visitor who comes while it does gets the version
    before (a fraction of a second old) rather than rendering it too: at the end of a round,
    a thousand players' standings change every few seconds while dozens of phones poll them."""
    key = _cache_key(tournament_id)
    cached = cache.get(key) if now is not None else None
    if not isinstance(cached, dict):
        cached = None  # nothing to show meanwhile: render
    locked = False
    claim = uuid.uuid4().hex
    if cached is not None and cached.get("version") != now:
        locked = cache.add(f"{key}:rendering", claim, STANDINGS_RENDER_SECONDS)
    if cached is not None and not locked:  # up to date, or being rendered by another request
        return _parts(cached), cached
    try:
        parts = standings_parts(request, tournament_id)  # 404 if there is no such tournament
        entry = _entry(parts)
        cache.set(key, entry, STANDINGS_CACHE_SECONDS)
    finally:
        if locked:
            _release(f"{key}:rendering", claim)
    return parts, entry


def _entry(parts: StandingsParts) -> dict[str, str]:
    """The cache entry of the page's parts: plain strings (not Django's SafeString), so that a
    shared cache never holds objects of a deployment's classes."""
    return {k: str(v) for k, v in parts.items()}


def _parts(entry: Mapping[str, str]) -> StandingsParts:
    """The page's parts from a cache entry (which may also hold the whole page)."""
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


_PAGES: OrderedDict[uuid.UUID, tuple[str, bytes]] = OrderedDict()
"""This process's copy of the latest shared standings pages, as (version key, bytes), the most
recently used last: a visit at an unchanged version is answered without a cache round trip.
Only a copy of what the cache holds (another process renders or fetches its own)."""
PAGES_KEPT = 32


def _remember_page(tournament_id: uuid.UUID, version: str, content: bytes) -> None:
    _PAGES[tournament_id] = (version, content)
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

    The public (anyone not logged in) shares one rendering per tournament version: a plain
    visit (:func:`_plain_visit`) gets the whole page as cached, without a CSRF token (the public
    page posts nothing); other visits have the frame (base.html: CSRF token, login link,
    messages) rendered around the cached parts. A logged-in user's page is rendered for them
    (an organizer sees hidden standings and proposed rounds).
    """
    entry = None
    plain = False  # a plain visit (the shared page), once known
    if request.user.is_authenticated:
        parts = standings_parts(request, tournament_id)
    else:
        now = services.tournament_version(tournament_id)
        plain = _plain_visit(request)
        kept = _PAGES.get(tournament_id)
        if plain and not _wants_partial(request) and kept is not None and now == kept[0]:
            return _shared_response(kept[1])
        parts, entry = _public_standings(request, tournament_id, now)
    if _wants_partial(request):
        # Markup rendered through the autoescaping templates (or cached from there).
        response = HttpResponse(mark_safe(parts["standings"]))
    elif entry is not None and plain and "page" in entry:
        content = entry["page"].encode()
        _remember_page(tournament_id, entry["version"], content)
        return _shared_response(content)
    else:
        response = _standings_page(request, parts, shared=plain)
        if entry is not None and plain:
            entry["page"] = response.content.decode()
            cache.set(_cache_key(tournament_id), entry, STANDINGS_CACHE_SECONDS)
            _remember_page(tournament_id, entry["version"], response.content)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _standings_page(request: HttpRequest, parts: StandingsParts, *, shared: bool) -> HttpResponse:
    """The whole page around its parts; ``shared``: the one every plain visit gets."""
    page = {
        "name": parts["name"],
        "head": mark_safe(parts["head"]),
        "standings": mark_safe(parts["standings"]),
        "tiebreaks": mark_safe(parts["tiebreaks"]),
    }
    return render(request, "public/standings.html", {"page": page, "shared_page": shared})


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
        cached = cache.get(key)
        if now is not None and not (isinstance(cached, dict) and cached.get("version") == now):
            try:
                _render_public_standings(tournament_id)
            except Exception:  # the next visitor renders it instead; the change stands
                logger.exception("could not render the standings of tournament %s", tournament_id)
    finally:
        _release(f"{key}:rendering", claim)


def _render_public_standings(tournament_id: uuid.UUID) -> None:
    """Render the public's standings page (parts and whole) as a visitor would, into the cache."""
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = reverse("public:standings", args=[tournament_id])
    request.user = AnonymousUser()
    parts = standings_parts(request, tournament_id)
    entry = _entry(parts)
    entry["page"] = _standings_page(request, parts, shared=True).content.decode()
    cache.set(_cache_key(tournament_id), entry, STANDINGS_CACHE_SECONDS)


def cache_is_private() -> bool:
    """Whether the cache is each process's own memory (no CACHE_URL)."""
    return str(settings.CACHES["default"]["BACKEND"]).endswith("LocMemCache")


def _shared_response(content: bytes) -> HttpResponse:
    response = HttpResponse(content)
    patch_vary_headers(response, ["HX-Request"])
    return response


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
