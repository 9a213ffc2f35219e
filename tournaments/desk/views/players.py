"""The players panel: registering (a list, a CSV, one by one), check-in, drop, reinstatement.
A player's change answers htmx with that player's row (tournaments.desk.answers.player_answer)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.http import Http404, HttpResponse
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from games.services import Refused
from tournaments import services as t
from tournaments.desk.answers import invalid, player_name, write
from tournaments.desk.forms import AddPlayerForm, RegisterListForm, TeamForm
from tournaments.desk.http import DeskRequest, DeskView, desk_view, tournament_seen
from tournaments.services import TournamentChange


def _registered(change: TournamentChange) -> str:
    count = len(change.appended)
    names = [p["name"] for p in change.state["players"][-count:]]
    late = change.state["players"][-1]["late"] if count else False
    shown = ", ".join(names[:6])
    if count > 6:
        more = count - 6
        shown = ngettext("%(names)s and %(more)d more", "%(names)s and %(more)d more", more) % {
            "names": shown,
            "more": more,
        }
    text = ngettext(
        "Registered %(count)d player: %(names)s.", "Registered %(count)d players: %(names)s.", count
    ) % {"count": count, "names": shown}
    if late:
        late_words = ngettext(
            "As late entries they are seated from the next pairing, with no points so far.",
            "As late entries they are seated from the next pairing, with no points so far.",
            count,
        )
        text = _("%(registered)s %(late)s") % {"registered": text, "late": late_words}
    return text


@desk_view
@require_POST
def register(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    form = RegisterListForm(request.POST, request.FILES, prefix="list")
    if not form.is_valid():
        return invalid(request, tournament_id, "players", list_form=form)
    return write(
        request,
        tournament_id,
        lambda: t.tournament_register(
            tournament_id=tournament_id,
            user=request.user,
            text=form.cleaned_data["players_text"],
            checked_in=form.cleaned_data["here"],
        ),
        panel="players",
        done=_registered,
        error_at="register",
        list_form=form,
    )


@desk_view
@require_POST
def add_player(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    form = AddPlayerForm(request.POST, prefix="add")
    if not form.is_valid():
        return invalid(request, tournament_id, "players", add_form=form)
    return write(
        request,
        tournament_id,
        lambda: t.tournament_register(
            tournament_id=tournament_id,
            user=request.user,
            names=[form.cleaned_data["name"]],
            ratings=[form.cleaned_data["rating"]],
            checked_in=form.cleaned_data["here"],
        ),
        panel="players",
        done=_registered,
        error_at="add",
        add_form=form,
    )


def _team_registered(change: TournamentChange) -> str:
    team = change.state["players"][-1]
    text = _("Registered team %(team)s: %(members)s.") % {
        "team": team["name"],
        "members": _(", ").join(team.get("members", ())),
    }
    if team["late"]:
        late = _("As a late entry it is seated from the next pairing, with no points so far.")
        text = _("%(registered)s %(late)s") % {"registered": text, "late": late}
    return text


@desk_view
@require_POST
def add_team(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """A team game's entrant: a team and its players."""
    form = TeamForm(request.POST, prefix="team")
    if not form.is_valid():
        return invalid(request, tournament_id, "players", team_form=form)
    return write(
        request,
        tournament_id,
        lambda: t.tournament_register(
            tournament_id=tournament_id,
            user=request.user,
            names=[form.cleaned_data["name"]],
            members=[form.cleaned_data["members"]],
            checked_in=form.cleaned_data["here"],
        ),
        panel="players",
        done=_team_registered,
        error_at="team",
        team_form=form,
    )


def active(
    history: Sequence[Mapping[str, Any]], kind: str, match: Callable[[Mapping[str, Any]], bool]
) -> Mapping[str, Any] | None:
    """The latest event of this kind that counts (not undone)."""
    return next(
        (
            e
            for e in reversed(history)
            if e["type"] == kind and e["undone_by"] is None and match(e["data"])
        ),
        None,
    )


def _set_checked_in(
    request: DeskRequest, tournament_id: uuid.UUID, player: str, want: bool
) -> TournamentChange | None:
    """Check a player in (or out); None: they already are (a stale double tap)."""
    service = t.tournament_check_in if want else t.tournament_check_out
    try:
        return service(tournament_id=tournament_id, player=player, user=request.user)
    except Refused as refused:
        if refused.code == "already_done":
            return None
        if refused.code == "unknown_player":
            raise Http404(_("There is no such player.")) from None
        raise


@desk_view
@require_POST
def check_in(request: DeskRequest, tournament_id: uuid.UUID, player: str) -> HttpResponse:
    """One tap: the form says which state the organizer wants (so a double tap or a stale page
    does no harm). Straight to the service: the tournament is not read first (its whole state,
    at 1,000 players, cost more than the rest of the answer)."""
    posted = request.POST.get("checked_in")
    if posted is None:  # a form that does not say: the other state than the one shown now
        summary = tournament_seen(request, tournament_id).summary
        found = next((p for p in summary["players"] if p["id"] == player), None)
        if found is None:
            raise Http404(_("There is no such player."))
        want = not found["checked_in"]
    else:
        want = posted == "1"

    def action() -> TournamentChange | None:
        return _set_checked_in(request, tournament_id, player, want)

    def message(change: TournamentChange) -> str:
        name = player_name(change, player)
        if want:
            return _("%(name)s is checked in.") % {"name": name}
        return _("%(name)s is checked out: not seated at the next pairing.") % {"name": name}

    return write(
        request,
        tournament_id,
        action,
        panel="player_row",
        done=message,
        error_at=f"player-{player}",
        anchor=f"player-{player}",
        row=player,
    )


def _player_change(
    service: Callable[..., TournamentChange], done: str | Promise
) -> DeskView[[uuid.UUID, str]]:
    @desk_view
    @require_POST
    def view(request: DeskRequest, tournament_id: uuid.UUID, player: str) -> HttpResponse:
        def action() -> TournamentChange:
            return service(tournament_id=tournament_id, player=player, user=request.user)

        def message(change: TournamentChange) -> str:
            return str(done) % {"name": player_name(change, player)}

        return write(
            request,
            tournament_id,
            action,
            panel="player_row",
            done=message,
            error_at=f"player-{player}",
            anchor=f"player-{player}",
            row=player,
        )

    return view


@desk_view
@require_POST
def drop(request: DeskRequest, tournament_id: uuid.UUID, player: str) -> HttpResponse:
    """Drop a player. One whose table is still being played is dropped only once the organizer
    confirms (``confirm=1``, the button the warning comes with): the drop does not end that
    game, and the table still needs its result."""
    confirmed = request.POST.get("confirm") == "1"

    def action() -> TournamentChange:
        return t.tournament_drop(
            tournament_id=tournament_id, player=player, user=request.user, at_open_table=confirmed
        )

    def error_at(refused: Refused) -> str:
        """A drop to confirm comes back as a question, with the button that confirms it."""
        return f"drop-{player}" if refused.code == "at_open_table" else f"player-{player}"

    def message(change: TournamentChange) -> str:
        name = player_name(change, player)
        where = open_table_of(change, player)
        if where is None:
            return _("%(name)s has dropped: not seated any more.") % {"name": name}
        return _(
            "%(name)s has dropped: not seated any more. Table %(table)s of round %(round)s "
            "still needs its result."
        ) % {"name": name, "table": where[1], "round": where[0]}

    return write(
        request,
        tournament_id,
        action,
        panel="player_row",
        done=message,
        error_at=error_at,
        anchor=f"player-{player}",
        row=player,
    )


def open_table_of(change: TournamentChange, player: str) -> tuple[int, int] | None:
    """(round, table) where the player sits at a published table without a result, after the
    change."""
    rounds = change.state["rounds"]
    if not rounds or rounds[-1]["status"] != "published":
        return None
    for table in rounds[-1]["tables"]:
        seated = any(s["player"] == player for s in table["seats"])
        if seated and table["result"] is None:
            return rounds[-1]["round"], table["table"]
    return None


reinstate = _player_change(
    t.tournament_reinstate, gettext_lazy("%(name)s is back: seated from the next round.")
)
