"""The club's public pages (docs/season.md): the club, a league's season table and ratings,
the roster, a member's page and head-to-head, the club's records.

Thin views: they read through club.services.reads (which hides hidden members from the public,
and gives a merged member's id its survivor), shape the records (club.public.presenters) and
render. The season page, the one members refresh, is rendered once per league, language and
club version for anonymous visitors and answered with a 304 while it stands
(club.public.caching)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.messages import get_messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string

from club.public import caching, presenters
from club.ratings import PROVISIONAL_GAMES
from club.services import reads
from games.services import GameNotFound
from tournaments.public import conditional


def _plain_visit(request: HttpRequest) -> bool:
    """A visit whose page is the same for everyone: anonymous, no query string, no message."""
    return (
        not request.user.is_authenticated
        and not request.META.get("QUERY_STRING")
        and not len(get_messages(request))
    )


def club(request: HttpRequest) -> HttpResponse:
    context = {"leagues": reads.league_list()}
    return render(request, "club/public/club.html", context)


def _season_context(view: reads.SeasonView) -> dict[str, Any]:
    league = view.league
    finished = sum(1 for t in view.tournaments if t.status == "finished")
    return {
        "league": league,
        "tournaments": [
            {
                "id": t.id,
                "name": t.name,
                "date": date.fromisoformat(t.date),
                "finished": t.status == "finished",
            }
            for t in view.tournaments
        ],
        "page": presenters.season_page(view),
        "rules": presenters.rule_sentences(league.rules, finished),
        "points": presenters.points_table(league.rules),
        "points_beyond": presenters.points_beyond(league.rules),
        "games": [
            (key, presenters.game_name(key))
            for key in sorted({t.game_type for t in view.tournaments})
        ],
        "csv_url": f"/api/leagues/{league.id}/standings.csv",
    }


def league(request: HttpRequest, league_id: int) -> HttpResponse:
    """The season: the table (per division), members not ranked yet, the rules.

    An anonymous visitor's page is the same for everyone at a club version: answered from the
    version alone (one query) with a 304 while the visitor's copy stands, else from this
    process's rendering of that version (club.public.caching); only a new version reads the
    season (reads.season_view, itself kept per version)."""
    if request.user.is_authenticated:  # their own page (an official sees every name)
        return conditional.personal(_season_page(request, league_id))
    language = caching.current_language()
    now = reads.version()
    tag = caching.etag(league_id, language, now)
    key = (league_id, language, now)
    page = caching.PAGES.get(key)
    if page is not None and (unchanged := caching.not_modified(request, tag)):
        return unchanged
    if not _plain_visit(request):
        return conditional.personal(_season_page(request, league_id))
    if page is None:
        view = _season(league_id)
        context = _season_context(view) | {"shared_page": True, "login_next": request.path}
        page = render_to_string("club/public/league.html", context).encode()
        key = (league_id, language, view.generation)
        caching.PAGES.put(key, page)
        tag = caching.etag(*key)
        if unchanged := caching.not_modified(request, tag):
            return unchanged
    return caching.shared_headers(HttpResponse(page), tag)


def _season(league_id: int, *, official: bool = False) -> reads.SeasonView:
    try:
        return reads.season_view(league_id, official=official)
    except GameNotFound:
        raise Http404("There is no such league.") from None


def _season_page(request: HttpRequest, league_id: int) -> HttpResponse:
    view = _season(league_id, official=reads.is_official(request.user))
    return render(request, "club/public/league.html", _season_context(view))


def ratings(request: HttpRequest, league_id: int) -> HttpResponse:
    """The league's members' ratings of one of its games (?game=KEY; default: the first)."""
    try:
        league = reads.league_get(league_id)
    except GameNotFound:
        raise Http404("There is no such league.") from None
    kinds = reads.league_game_types(league)
    game = request.GET.get("game") or (kinds[0] if kinds else "")
    if kinds and game not in kinds:
        raise Http404("The league has no tournament of that game.")
    official = reads.is_official(request.user)
    rows = reads.league_ratings(league_id, game, official=official) if game else []
    context = {
        "league": league,
        "game": game,
        "game_name": presenters.game_name(game) if game else "",
        "games": [(k, presenters.game_name(k)) for k in kinds],
        "rows": presenters.rating_lines(rows, _visible(official)),
        "provisional_games": PROVISIONAL_GAMES,
    }
    return render(request, "club/public/ratings.html", context)


def members(request: HttpRequest) -> HttpResponse:
    official = reads.is_official(request.user)
    return render(
        request, "club/public/members.html", {"members": reads.member_list(official=official)}
    )


def member(request: HttpRequest, member_id: str) -> HttpResponse:
    """A member's page; a merged member's old address goes to the member they now are."""
    official = reads.is_official(request.user)
    try:
        view = reads.member_view(member_id, official=official)
    except GameNotFound:
        raise Http404("There is no such member.") from None
    if view.member.id != member_id:
        return redirect("club:member", view.member.id)
    others = [m for m in reads.member_list(official=official) if m.id != view.member.id]
    context = {
        "view": view,
        "history": [
            {
                "entry": e,
                "date": date.fromisoformat(e.date),
                "game_name": presenters.game_name(e.game_type),
            }
            for e in view.history
        ],
        "games": presenters.member_games(view),
        "others": others,
        "provisional_games": PROVISIONAL_GAMES,
    }
    return render(request, "club/public/member.html", context)


def versus_choose(request: HttpRequest, member_id: str) -> HttpResponse:
    """The head-to-head form's answer: to the page of the two members."""
    other = request.GET.get("other", "").strip()
    if not other:
        return redirect("club:member", member_id)
    return redirect("club:versus", member_id, other)


def versus(request: HttpRequest, member_id: str, other_id: str) -> HttpResponse:
    """Two members' meetings at a rated table, and who finished ahead."""
    official = reads.is_official(request.user)
    try:
        found = reads.head_to_head(member_id, other_id, official=official)
    except GameNotFound:
        raise Http404("There is no such member.") from None
    if (found.member.id, found.other.id) != (member_id, other_id):
        return redirect("club:versus", found.member.id, found.other.id)
    context = {
        "h2h": found,
        "name": reads.shown_name(found.member, official=official),
        "other_name": reads.shown_name(found.other, official=official),
        "meetings": [
            {"meeting": m, "game_name": presenters.game_name(m.game_type)} for m in found.meetings
        ],
    }
    return render(request, "club/public/versus.html", context)


def records(request: HttpRequest) -> HttpResponse:
    official = reads.is_official(request.user)
    found = reads.club_records(official=official)
    context = {"games": presenters.record_games(found, _visible(official))}
    return render(request, "club/public/records.html", context)


def _visible(official: bool) -> set[str]:
    """The members whose page this reader may open (hidden ones have none publicly)."""
    return {m.id for m in reads.member_list(official=official)}
