"""The club desk (/desk/club/): the club's officials (staff users) run its leagues and keep its
members straight (merge two spellings of one person, split off an entry of a namesake, a
display name, hiding from the public pages).

Thin views: they read through club.services.reads, write through club.services.writes, and
answer a write with a redirect to the page it changed (POST/redirect/GET; the pages' forms are
boosted by htmx, which follows the redirect and swaps the page in). A refused write comes back
with the form as it was typed and the reason next to it (422). Merging, splitting off and
unlinking ask first (tournaments.desk.confirm's way: the same POST without ``confirmed=1``
shows what will happen, with Yes and Cancel).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from functools import update_wrapper
from typing import Concatenate, ParamSpec

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from club import domain
from club.desk import names
from club.desk.forms import DisplayNameForm, LeagueForm, LinkForm, MergeForm
from club.models import Member
from club.services import reads, writes
from games.services import GameNotFound, NotAllowed, Refused
from tournaments import services as t
from tournaments.desk.confirm import Ask, confirmed
from tournaments.desk.http import REFUSED, DeskRequest, forbidden, sentence

P = ParamSpec("P")
ClubView = Callable[Concatenate[DeskRequest, P], HttpResponse]

NOT_OFFICIAL = gettext_lazy(
    "the club desk is for the club's officials (staff users); ask the site's administrator"
)


def official_view(view: ClubView[P]) -> ClubView[P]:
    """Staff users only: anyone else logged in gets the desk's 403 page, a visitor the login
    page (an htmx request whose session ran out: as a whole page); an unknown league or member
    is a 404."""

    def wrapper(request: DeskRequest, /, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            if request.htmx:
                back = request.htmx.current_url_abs_path or reverse("club_desk:home")
                return HttpResponseClientRedirect(f"{reverse('login')}?next={back}")
            return redirect_to_login(request.get_full_path())
        try:
            if not reads.is_official(request.user):
                raise NotAllowed(str(NOT_OFFICIAL))
            return view(request, *args, **kwargs)
        except NotAllowed as refusal:
            return forbidden(request, refusal.message)
        except GameNotFound as missing:
            raise Http404(missing.message) from None

    update_wrapper(wrapper, view)
    return wrapper


def _done(request: DeskRequest, message: str, to: str) -> HttpResponse:
    messages.success(request, message)
    return HttpResponseRedirect(to)


def _member_choices(members: list[Member], *, leaving_out: str = "") -> list[tuple[str, str]]:
    return [(m.id, _choice_label(m)) for m in members if m.id != leaving_out]


def _choice_label(member: Member) -> str:
    if member.display_name and member.display_name != member.name:
        return _("%(shown)s (registered as %(name)s)") % {
            "shown": member.display_name,
            "name": member.name,
        }
    return member.name


# ----------------------------------------------------------------------------- the home page


@official_view
@require_GET
def home(request: DeskRequest) -> HttpResponse:
    return _home(request, LeagueForm(initial=LeagueForm.initial_for(), prefix="league"))


def _home(request: DeskRequest, form: LeagueForm, status: int = 200) -> HttpResponse:
    query = request.GET.get("q", "").strip()
    members = reads.member_list(official=True)
    found = [
        m
        for m in members
        if not query or names.matches(m.name, query) or names.matches(m.display_name, query)
    ]
    by_id = {m.id: m for m in members}
    duplicates = [
        (by_id[s.first.id], by_id[s.second.id])
        for s in names.suggested_duplicates(names.Named(m.id, m.name) for m in members)
    ]
    context = {
        "leagues": reads.league_list(),
        "form": form,
        "query": query,
        "members": found,
        "member_count": len(members),
        "duplicates": duplicates,
    }
    return render(request, "club/desk/home.html", context, status=status)


@official_view
@require_POST
def league_create(request: DeskRequest) -> HttpResponse:
    form = LeagueForm(request.POST, prefix="league")
    if not form.is_valid():
        return _home(request, form, status=REFUSED)
    try:
        change = writes.league_create(
            name=form.cleaned_data["name"], rules=form.rules(), user=request.user
        )
    except Refused as refused:
        form.refused(refused.code, sentence(refused.message))
        return _home(request, form, status=REFUSED)
    return _done(
        request,
        _("The league %(name)s is created. Link its tournaments next.")
        % {"name": form.cleaned_data["name"].strip()},
        reverse("club_desk:league", args=[change.league]),
    )


# ----------------------------------------------------------------------------- a league


def _league_page(
    request: DeskRequest,
    league_id: int,
    *,
    form: LeagueForm | None = None,
    link_form: LinkForm | None = None,
    asking: Ask | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    league = reads.league_get(league_id)
    season = reads.season_view(league_id, official=True)
    members = {m.id: m for m in reads.member_list(official=True)}
    in_league = [members[m] for m in reads.league_members(league) if m in members]
    context = {
        "league": league,
        "tournaments": season.tournaments,
        "form": form or LeagueForm(initial=LeagueForm.initial_for(league), prefix="league"),
        "link_form": link_form or LinkForm(choices=_linkable(league), prefix="link"),
        "divisions": league.rules.divisions,
        "members": [
            (m, league.divisions.get(m.id, ""))
            for m in sorted(in_league, key=lambda m: (m.shown.casefold(), m.id))
        ],
        "asking": asking,
        "error": error,
    }
    return render(request, "club/desk/league.html", context, status=status)


def _linkable(league: domain.League) -> list[tuple[str, str]]:
    """The tournaments the league may take: every tournament not linked yet, latest first."""
    return [
        (
            str(p.stream_id),
            _("%(name)s (%(date)s)") % {"name": p.name, "date": p.date.isoformat()},
        )
        for p in t.tournament_list()
        if str(p.stream_id) not in league.tournaments
    ]


def _league_url(league_id: int, anchor: str = "") -> str:
    url = reverse("club_desk:league", args=[league_id])
    return f"{url}#{anchor}" if anchor else url


@official_view
@require_GET
def league(request: DeskRequest, league_id: int) -> HttpResponse:
    return _league_page(request, league_id)


@official_view
@require_POST
def league_change(request: DeskRequest, league_id: int) -> HttpResponse:
    found = reads.league_get(league_id)
    form = LeagueForm(request.POST, prefix="league")
    if not form.is_valid():
        return _league_page(request, league_id, form=form, status=REFUSED)
    name, rules = form.changes(found)
    if name is None and not rules:
        return _done(request, _("Nothing to change."), _league_url(league_id))
    try:
        writes.league_change(league=league_id, name=name, rules=rules, user=request.user)
    except Refused as refused:
        form.refused(refused.code, sentence(refused.message))
        return _league_page(request, league_id, form=form, status=REFUSED)
    return _done(
        request,
        _("Saved: the league's season table counts by these rules now."),
        _league_url(league_id),
    )


@official_view
@require_POST
def league_link(request: DeskRequest, league_id: int) -> HttpResponse:
    found = reads.league_get(league_id)
    form = LinkForm(request.POST, choices=_linkable(found), prefix="link")
    if not form.is_valid():
        return _league_page(request, league_id, link_form=form, status=REFUSED)
    tournament = uuid.UUID(form.cleaned_data["tournament"])
    try:
        writes.league_link(league=league_id, tournament=tournament, user=request.user)
    except Refused as refused:
        form.add_error("tournament", sentence(refused.message))
        return _league_page(request, league_id, link_form=form, status=REFUSED)
    name = reads.tournament_names([tournament]).get(str(tournament), "")
    return _done(
        request,
        _("%(tournament)s counts for %(league)s now.") % {"tournament": name, "league": found.name},
        _league_url(league_id, "tournaments"),
    )


def _posted_uuid(request: DeskRequest, key: str) -> uuid.UUID | None:
    try:
        return uuid.UUID(request.POST.get(key, ""))
    except ValueError:
        return None


@official_view
@require_POST
def league_unlink(request: DeskRequest, league_id: int) -> HttpResponse:
    found = reads.league_get(league_id)
    tournament = _posted_uuid(request, "tournament")
    if tournament is None or str(tournament) not in found.tournaments:
        return _league_page(
            request,
            league_id,
            error=_("That tournament is not part of this league."),
            status=REFUSED,
        )
    name = reads.tournament_names([tournament]).get(str(tournament), "")
    words = {"tournament": name, "league": found.name}
    if not confirmed(request):
        asking = Ask(
            question=_("Take %(tournament)s out of %(league)s?") % words,
            consequence=_(
                "Its results stop counting in the league's season table; the tournament itself "
                "and its results stay as they are, and the members' ratings do not change. You "
                "may link it again."
            ),
            yes=_("Yes, take it out"),
            url=reverse("club_desk:league_unlink", args=[league_id]),
            fields=(("tournament", str(tournament)),),
        )
        return _league_page(request, league_id, asking=asking)
    try:
        writes.league_unlink(league=league_id, tournament=tournament, user=request.user)
    except Refused as refused:
        return _league_page(request, league_id, error=sentence(refused.message), status=REFUSED)
    return _done(
        request,
        _("%(tournament)s no longer counts for %(league)s.") % words,
        _league_url(league_id, "tournaments"),
    )


@official_view
@require_POST
def league_division(request: DeskRequest, league_id: int) -> HttpResponse:
    found = reads.league_get(league_id)
    member_id = request.POST.get("member", "")
    division = request.POST.get("division", "")
    try:
        writes.league_division(
            league=league_id, member=member_id, division=division, user=request.user
        )
    except Refused as refused:
        return _league_page(request, league_id, error=sentence(refused.message), status=REFUSED)
    member = reads.member_get(member_id, official=True)
    words = {"member": member.shown, "division": division, "league": found.name}
    done = (
        _("%(member)s plays in the %(division)s division.") % words
        if division
        else _("%(member)s is in no division of %(league)s now.") % words
    )
    return _done(request, done, _league_url(league_id, "divisions"))


# ----------------------------------------------------------------------------- a member


def _member_page(
    request: DeskRequest,
    member_id: str,
    *,
    name_form: DisplayNameForm | None = None,
    merge_form: MergeForm | None = None,
    asking: Ask | None = None,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    view = reads.member_view(member_id, official=True)
    member = view.member
    query = request.GET.get("find", "").strip()
    others = [
        m
        for m in reads.member_list(official=True)
        if m.id != member.id
        and (not query or names.matches(m.name, query) or names.matches(m.display_name, query))
    ]
    context = {
        "view": view,
        "member": member,
        "entries": view.history,
        "name_form": name_form
        or DisplayNameForm(initial={"display_name": member.display_name}, prefix="name"),
        "merge_form": merge_form or MergeForm(choices=_member_choices(others), prefix="merge"),
        "find": query,
        "asking": asking,
        "error": error,
    }
    return render(request, "club/desk/member.html", context, status=status)


def _member_url(member_id: str, anchor: str = "") -> str:
    url = reverse("club_desk:member", args=[member_id])
    return f"{url}#{anchor}" if anchor else url


@official_view
@require_GET
def member(request: DeskRequest, member_id: str) -> HttpResponse:
    found = reads.member_get(member_id, official=True)
    if found.id != member_id:  # merged into another: their page now
        return HttpResponseRedirect(_member_url(found.id))
    return _member_page(request, member_id)


@official_view
@require_POST
def member_name(request: DeskRequest, member_id: str) -> HttpResponse:
    form = DisplayNameForm(request.POST, prefix="name")
    if not form.is_valid():
        return _member_page(request, member_id, name_form=form, status=REFUSED)
    shown = form.cleaned_data["display_name"].strip()
    try:
        writes.member_change(member=member_id, display_name=shown, user=request.user)
    except Refused as refused:
        form.add_error("display_name", sentence(refused.message))
        return _member_page(request, member_id, name_form=form, status=REFUSED)
    done = (
        _("Every page shows this member as %(name)s now.") % {"name": shown}
        if shown
        else _("Every page shows this member under the name they registered with again.")
    )
    return _done(request, done, _member_url(member_id))


@official_view
@require_POST
def member_hide(request: DeskRequest, member_id: str) -> HttpResponse:
    hidden = request.POST.get("hidden") == "1"
    try:
        writes.member_change(member=member_id, hidden=hidden, user=request.user)
    except Refused as refused:
        return _member_page(request, member_id, error=sentence(refused.message), status=REFUSED)
    done = (
        _(
            "Hidden from the public pages: they say “Hidden member” for them, and their page "
            "is not shown."
        )
        if hidden
        else _("Shown on the public pages again, under their name.")
    )
    return _done(request, done, _member_url(member_id))


@official_view
@require_POST
def member_merge(request: DeskRequest, member_id: str) -> HttpResponse:
    member = reads.member_get(member_id, official=True)
    others = [m for m in reads.member_list(official=True) if m.id != member.id]
    form = MergeForm(request.POST, choices=_member_choices(others), prefix="merge")
    if not form.is_valid():
        return _member_page(request, member_id, merge_form=form, status=REFUSED)
    into = reads.member_get(form.cleaned_data["into"], official=True)
    words = {"member": member.shown, "into": into.shown}
    if not confirmed(request):
        asking = Ask(
            question=_("Merge %(member)s into %(into)s?") % words,
            consequence=_(
                "Every entry of %(member)s will count for %(into)s: their tournaments, places, "
                "season points and ratings (re-rated from the start). %(member)s's page will lead "
                "to %(into)s's. An entry merged by mistake can be split off again."
            )
            % words,
            yes=_("Yes, merge into %(into)s") % words,
            url=reverse("club_desk:member_merge", args=[member.id]),
            fields=(("merge-into", into.id),),
        )
        return _member_page(request, member_id, merge_form=form, asking=asking)
    try:
        writes.member_merge(member=member.id, into=into.id, user=request.user)
    except Refused as refused:
        form.add_error("into", sentence(refused.message))
        return _member_page(request, member_id, merge_form=form, status=REFUSED)
    return _done(
        request,
        _("%(member)s is merged into %(into)s: every entry of theirs counts for %(into)s now.")
        % words,
        _member_url(into.id),
    )


@official_view
@require_POST
def member_split(request: DeskRequest, member_id: str) -> HttpResponse:
    view = reads.member_view(member_id, official=True)
    tournament = _posted_uuid(request, "tournament")
    player = request.POST.get("player", "")
    index = request.POST.get("index", "0")
    entry = next(
        (
            e
            for e in view.history
            if e.tournament == str(tournament) and e.player == player and str(e.index) == index
        ),
        None,
    )
    if tournament is None or entry is None:
        return _member_page(
            request, member_id, error=_("That entry is not this member's."), status=REFUSED
        )
    words = {"name": entry.name, "tournament": entry.tournament_name, "member": view.name}
    if not confirmed(request):
        asking = Ask(
            question=_("Split off %(name)s's entry in %(tournament)s?") % words,
            consequence=_(
                "That entry will count for a new member of its own, no longer for %(member)s: "
                "its place, season points and rated games move with it (the ratings are "
                "worked out again from the start). Every other entry stays %(member)s's."
            )
            % words,
            yes=_("Yes, split it off"),
            url=reverse("club_desk:member_split", args=[view.member.id]),
            fields=(
                ("tournament", entry.tournament),
                ("player", entry.player),
                ("index", str(entry.index)),
            ),
        )
        return _member_page(request, member_id, asking=asking)
    try:
        writes.member_split(
            tournament=tournament, player=entry.player, index=entry.index, user=request.user
        )
    except Refused as refused:
        return _member_page(request, member_id, error=sentence(refused.message), status=REFUSED)
    return _done(
        request,
        _("%(name)s's entry in %(tournament)s counts for a new member now.") % words,
        _member_url(view.member.id),
    )
