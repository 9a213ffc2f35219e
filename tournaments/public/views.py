"""Public tournament pages: what players and spectators see on their phones, no login needed.

Each view parses the request, reads the tournament through the services (which decide what this
user may see: proposed rounds and hidden standings stay with the organizers, downloads until they
are released) and the selectors, shapes them into page records (tournaments.public.presenters)
and renders. An htmx request for a live part of a page (the standings, a round's tables, polled
while the tournament runs) gets only that partial (django-template-partials:
``template.html#partial``). The standings are rendered once per version for the public
(tournaments.public.standings_page) and served with HTTP caching (tournaments.public.conditional).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.messages import get_messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_htmx.middleware import HtmxDetails

from games.gametypes import GAME_TYPES
from games.services import GameNotFound
from tournaments import placement, selectors, services, timezones
from tournaments.desk import qr as desk_qr
from tournaments.desk.http import tournament_address
from tournaments.public import conditional
from tournaments.public import standings_page as page
from tournaments.public.clock import clock_json, state_clock
from tournaments.public.presenters import (
    PlayerPage,
    find_players,
    find_round,
    game_state,
    header,
    player_rounds,
    players_by_id,
    round_links,
    round_now,
    standings_hidden_from_public,
    standings_table,
    table_cards,
    terms,
)
from tournaments.public.words import WORDS, clock_over_text, clock_text
from tournaments.standings import PRESETS, TIEBREAKS, Preset

ROUND_POLL_SECONDS = 30
"""How often a round's tables refresh themselves while the round is in play."""


# ----------------------------------------------------------------------------- reads


def _read(
    tournament_id: uuid.UUID, request: HttpRequest, *, standings: bool = False
) -> services.TournamentRead:
    """The tournament as this visitor may see it; with ``standings``, from the same read (None
    while the organizer hides them from this visitor)."""
    try:
        if standings:
            return services.tournament_get_with_standings(
                tournament_id=tournament_id, user=request.user
            )
        return services.tournament_get(tournament_id=tournament_id, user=request.user)
    except GameNotFound:
        raise Http404("There is no such tournament.") from None


def _game_states(
    request: HttpRequest, tables: Iterable[Mapping[str, Any]]
) -> dict[str, tuple[str, str]]:
    """(status, progress text) of the tables' games this user may see, in one query."""
    found = selectors.game_progress(user=request.user, game_ids=(t.get("game") for t in tables))
    return {g: game_state(p.status, p.round, p.trick, WORDS) for g, p in found.items()}


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
            _("Standings (CSV)"),
            reverse("tournaments-api:standings-csv", kwargs=t),
            _("every column of the standings, one row per player"),
        ),
        (
            _("Results (CSV)"),
            reverse("tournaments-api:results-csv", kwargs=t),
            _("one row per player per table, with the game's round scores"),
        ),
        (
            _("Results (JSON Lines)"),
            reverse("tournaments-api:results-jsonl", kwargs=t),
            _("one line per table result, for programs"),
        ),
        (
            _("All game records (zip)"),
            reverse("tournaments-api:games-zip", kwargs=t),
            _("the record file of every table played card by card"),
        ),
    ]


# ----------------------------------------------------------------------------- views


def tournament(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    read = _read(tournament_id, request, standings=True)
    summary, data = read.summary, read.standings
    published = any(r["status"] != "proposed" for r in summary["rounds"])
    leaders = (  # nobody leads before round 1 is out (everyone "1=, 0 points")
        standings_table(data, words=WORDS).rows[:3]
        if data is not None and data["rows"] and published
        else ()
    )
    settings = summary["settings"]
    preset = PRESETS.get(settings["scoring"])
    players = sorted(summary["players"], key=lambda p: (p["name"].casefold(), p["id"]))
    context = {
        "t": header(summary, WORDS),
        "heading": summary["name"],
        "nav": "overview",
        "rounds": round_links(summary, WORDS),
        "players": players,
        "leaders": leaders,
        "standings_visible": summary["standings_visible"],
        "organizer_sees_hidden": data is not None and standings_hidden_from_public(summary),
        "downloads": _downloads(tournament_id) if summary["downloads"] else [],
        "downloads_unreleased": summary["downloads"] and not settings["downloads_released"],
        # Names and descriptions are stored English msgids (tournaments.standings).
        "preset": {"name": _(preset.name), "description": _(preset.description)}
        if preset
        else None,
        "tiebreaks": [
            {"title": _(TIEBREAKS[k].title), "description": _(TIEBREAKS[k].description)}
            for k in settings["tiebreaks"]
            if k in TIEBREAKS
        ],
    }
    rule = placement.rule_of(summary["game_type"])
    if rule is not None:  # ranked by tournaments.placement: the game's own way
        context |= _placement_scoring(rule, preset)
    return render(request, "public/tournament.html", context)


def _placement_scoring(
    rule: placement.GameRule, preset: Preset | None
) -> dict[str, dict[str, str] | list[dict[str, str]] | None]:
    """How a game ranked by tournaments.placement scores and breaks ties (the overview's
    "How the standings work"): a match game's match points and byes, or a place game's
    scoring preset; then the game's criteria, in order (the game's own tie-break values only
    where the game has any: none of today's games does)."""
    if rule.kind == placement.MATCH:
        points = placement.MatchPoints()
        bye = placement.PlacementSettings().bye
        scoring: dict[str, str] | None = {
            "name": _(rule.points),
            "description": " ".join(
                (
                    _("A win is worth %(win)s match points, a draw %(draw)s and a loss %(loss)s.")
                    % {"win": points.win, "draw": points.draw, "loss": points.loss},
                    str(BYE_COUNTS_AS[bye]),
                )
            ),
        }
    else:
        scoring = {"name": _(preset.name), "description": _(preset.description)} if preset else None
    return {
        "preset": scoring,
        "tiebreaks": [
            {"title": _(c.title), "description": _(c.description)}
            for c in placement.criteria(rule.game)
            if c.key != "game_tiebreaks"
        ],
    }


BYE_COUNTS_AS = {
    "win": gettext_lazy("A bye counts as a win (it adds nothing to the points scored)."),
    "draw": gettext_lazy("A bye counts as a draw (it adds nothing to the points scored)."),
    "loss": gettext_lazy("A bye counts as a loss (it adds nothing to the points scored)."),
}
"""What a bye is worth in a match game (tournaments.placement.PlacementSettings.bye)."""


FIND_MAX = 100
"""Longest name query read (longer input is cut, not refused)."""


def find(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """ "Find your table": the players whose name holds what was typed; one match goes
    straight to that player's page (their table now first)."""
    summary = _read(tournament_id, request).summary
    query = request.GET.get("name", "")[:FIND_MAX].strip()
    found = find_players(summary, query)
    if len(found) == 1:
        return redirect("public:player", tournament_id, found[0]["id"])
    published = [r for r in summary["rounds"] if r["status"] != "proposed"]
    now = published[-1] if published and published[-1]["status"] == "published" else None
    rows = []
    for entry in found:
        seat = None
        if now is not None:
            seat = next(
                (
                    (table["table"], number)
                    for table in now["tables"]
                    for number, s in enumerate(table["seats"], start=1)
                    if s["player"] == entry["id"]
                ),
                None,
            )
        rows.append({"player": entry, "table": seat})
    context = {
        "t": header(summary, WORDS),
        "heading": _("Find your table"),
        "nav": "find",
        "query": query,
        "rows": rows,
        "round_now": now["round"] if now else None,
    }
    return render(request, "public/find.html", context, status=200)


def _tiebreak_names(summary: Mapping[str, Any]) -> tuple[str, ...]:
    """What the tournament's game calls its tie-break values (its game type says)."""
    kind = GAME_TYPES.get(summary["game_type"])
    return kind.tiebreak_names if kind is not None else ()


def round_pairings(request: HtmxHttpRequest, tournament_id: uuid.UUID, number: int) -> HttpResponse:
    """A round's tables (players in seat order), each game's progress and result, the byes."""
    summary = _read(tournament_id, request).summary
    rnd = find_round(summary, number)
    if rnd is None:  # not paired yet, or proposed and this user is not an organizer
        raise Http404(f"Round {number} has not been published.")
    players = players_by_id(summary)
    states = _game_states(request, rnd["tables"])
    tables = table_cards(rnd, players, states, WORDS, _tiebreak_names(summary))
    context = {
        "t": header(summary, WORDS),
        "heading": _("Round %(round)s") % {"round": number},
        "nav": "round",
        "nav_round": number,
        "round": rnd,
        "round_status": WORDS.status("round", rnd["status"]),
        "tables": tables,
        **_seat_one(summary),
        "byes": [(b["player"], b["name"]) for b in rnd["byes"]],
        "finished": sum(1 for t in tables if t.has_result),
        "live": summary["status"] == "running" and rnd["status"] == "published",
        "poll_seconds": ROUND_POLL_SECONDS,
    }
    return _render(request, "public/round.html", "tables", context)


def _seat_one(summary: Mapping[str, Any]) -> dict[str, bool]:
    """What seat 1 means in the tournament's game: Trick-n-Chef's first player (its rule), or
    the team that cooks first (a team game); in the other games, nothing."""
    kind = GAME_TYPES[summary["game_type"]]
    return {"seat_one_first": kind.first_player_rule, "seat_one_cooks": kind.teams}


def _plain_visit(request: HttpRequest) -> bool:
    """A visitor's request whose page is the same for everyone: not logged in, no query string
    (the login link carries the path), no message waiting to be shown."""
    return (
        not request.user.is_authenticated
        and not request.META.get("QUERY_STRING")
        and not len(get_messages(request))  # len() does not mark them as shown
    )


@timezones.zone_when_rendering
def standings(request: HtmxHttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """Live standings with every tie-break column; a note instead while they are hidden.

    The public (anyone not logged in) shares one rendering per tournament version
    (standings_page.shared). A plain visit (:func:`_plain_visit`) and any anonymous htmx poll
    get it as it is, the same bytes for everyone, which is what makes it safe to send gzipped
    (it holds no secret and reflects nothing from the request: no BREACH) and to let a proxy
    keep for a second (conditional.PUBLIC_CACHE_CONTROL), with an ETag and Last-Modified for a
    304 at an unchanged version. Other anonymous visits have the frame (base.html: CSRF token,
    login link with the query string, messages) rendered around the cached parts; a logged-in
    user's page is rendered for them (an organizer sees hidden standings and proposed rounds).
    Both of those are personal: never compressed, never stored by anyone (Cache-Control:
    private, no-store).
    """
    partial = _wants_partial(request)

    def zone() -> None:  # before anything is rendered (a 304 or a cached page needs none)
        timezones.activate_tournament_zone(tournament_id)

    if request.user.is_authenticated:
        zone()
        parts = page.standings_parts(request.user, tournament_id)
        if partial:
            # Markup rendered through the autoescaping templates.
            return conditional.personal(HttpResponse(mark_safe(parts["standings"])))
        return conditional.personal(HttpResponse(page.page_html(parts, request)))
    now = services.tournament_public_version(tournament_id)  # results held back: a key of its own
    language = page.current_language()  # the request's (LocaleMiddleware): one page for each
    if not partial and not _plain_visit(request):
        zone()
        shared = page.shared(tournament_id, now, language)
        return conditional.personal(HttpResponse(page.page_html(shared.parts, request)))
    if now is not None and (unchanged := conditional.not_modified(request, now, partial, language)):
        return unchanged  # without a cache round trip, whichever process rendered it
    shared = page.shared(tournament_id, now, language, before_render=zone)
    if shared.version != now and (
        unchanged := conditional.not_modified(request, shared.version, partial, language)
    ):
        return unchanged  # the version before, still being rendered: the visitor has it
    return conditional.shared_response(request, shared, partial=partial)


def player(request: HttpRequest, tournament_id: uuid.UUID, player_id: str) -> HttpResponse:
    """One player's tournament: every round's table, seat, opponents and result."""
    read = _read(tournament_id, request, standings=True)
    summary, data = read.summary, read.standings
    players = players_by_id(summary)
    if player_id not in players:
        raise Http404("There is no such player in this tournament.")
    entry = players[player_id]
    tables = [t for r in summary["rounds"] if r["status"] != "proposed" for t in r["tables"]]
    mine = [t for t in tables if any(s["player"] == player_id for s in t["seats"])]
    rounds = player_rounds(
        summary, player_id, _game_states(request, mine), WORDS, _tiebreak_names(summary)
    )
    table = standings_table(data, words=WORDS) if data is not None else None
    standing = None
    if table is not None:
        standing = next((row for row in table.rows if row.player == player_id), None)
    record = PlayerPage(
        id=player_id,
        name=entry["name"],
        dropped=bool(entry["dropped"]),
        late=bool(entry["late"]),
        rounds=tuple(rounds),
        standing=standing,
        now=round_now(summary, rounds),
        terms=terms(summary["game_type"], WORDS),
    )
    context = {
        "t": header(summary, WORDS),
        "heading": entry["name"],
        "nav": "player",
        "player": record,
        "standings_visible": data is not None,
        "players_count": len(players),
    }
    return render(request, "public/player.html", context)


SCREEN_ROTATE_SECONDS = 20
"""How long the big screen shows each page of the tables, then of the standings
(static/js/screen.js pages them when they do not fit the screen)."""
SCREEN_STANDINGS = 24
"""Standings rows on the big screen (the top of the table: what a room reads from afar)."""


def screen(request: HtmxHttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """The big screen, for a projector: the current round's tables and the top of the standings
    in turn, with the round's clock. Always what the public sees (an organizer's projector
    never shows a proposal or hidden standings)."""
    try:
        read = services.tournament_get_with_standings(tournament_id=tournament_id, user=None)
    except GameNotFound:
        raise Http404("There is no such tournament.") from None
    summary, data = read.summary, read.standings
    rounds = [r for r in summary["rounds"] if r["status"] != "proposed"]
    rnd = rounds[-1] if rounds else None
    tables = table_cards(rnd, players_by_id(summary), {}, WORDS) if rnd is not None else []
    # Nobody is ranked before round 1 is out (everyone "1=, 0 points" says nothing)
    table = standings_table(data, summary["settings"], WORDS) if data is not None else None
    shown = table.rows[:SCREEN_STANDINGS] if table is not None and rnd is not None else ()
    follow_url = tournament_address(request, tournament_id)  # its short address, to type
    context = {
        "featured": _featured(request, tournament_id, rnd),
        "t": header(summary, WORDS),
        "round": rnd,
        "tables": tables,
        **_seat_one(summary),
        "byes": [b["name"] for b in rnd["byes"]] if rnd is not None else [],
        "standings": shown if table is not None else None,
        # rank, entrant, points and the tie-breaks: the values that decided each place
        "standings_rows": page.standings_rows_html(
            tournament_id, shown, keys=table.deciding if table else (), link=False
        ),
        "standings_titles": table,
        "deciding_titles": [t for k, t in table.columns if k in table.deciding] if table else [],
        "more_players": max(0, len(table.rows) - SCREEN_STANDINGS) if shown and table else 0,
        "follow_url": follow_url,
        "follow_qr": desk_qr.inline(
            desk_qr.svg(follow_url), _("QR code of the tournament's public page")
        ),
        "rotate_seconds": SCREEN_ROTATE_SECONDS,
        "poll_seconds": ROUND_POLL_SECONDS,
    }
    return _render(request, "public/screen.html", "screen", context)


def _featured(
    request: HttpRequest, tournament_id: uuid.UUID, rnd: Mapping[str, Any] | None
) -> list[tuple[int, str]]:
    """The round's tables the screen features live (``?tables=1,5``, or ``?tables=all``), in
    turn with its other panels: (table, its live view's address: docs/relay.md)."""
    wanted = request.GET.get("tables", "")
    if rnd is None or not wanted:
        return []
    numbers = [t["table"] for t in rnd["tables"] if t.get("game")]
    if wanted != "all":
        asked = {int(n) for n in wanted.split(",") if n.strip().isdigit()}
        numbers = [n for n in numbers if n in asked]
    live = reverse("public:relay", args=[tournament_id, rnd["round"]])
    return [(n, f"{live}?table={n}") for n in numbers]


def short_address(request: HttpRequest, code: str) -> HttpResponse:
    """A tournament's short address (/t/bcdfg/, typed on a phone, in any case): to its page."""
    tournament_id = services.tournament_by_short_code(code)
    if tournament_id is None:
        raise Http404("There is no such tournament.")
    return redirect("public:tournament", tournament_id=tournament_id)


def clock(request: HttpRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """The server's time and the current round's clock, as JSON (static/js/clock.js asks every
    minute): the pages count down from the server's time, not the phone's."""
    try:
        state = services.tournament_state(tournament_id)
    except GameNotFound:
        raise Http404("There is no such tournament.") from None
    now, tz, round_clock = timezone.now(), timezone.get_current_timezone(), state_clock(state)
    data = clock_json(round_clock, now, tz)
    if round_clock is not None:  # its words in the reader's language
        data["clock"]["text"] = clock_text(round_clock, tz)
        data["clock"]["over"] = clock_over_text(round_clock)
    response = JsonResponse(data)
    add_never_cache_headers(response)
    return response
