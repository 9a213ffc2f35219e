"""The round panel's actions: pair, swap (and undo), publish, confirm a table, close, finish."""

from __future__ import annotations

import uuid

from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from games.services import NotAllowed, Refused
from tournaments import domain
from tournaments import services as t
from tournaments.desk import confirm as ask
from tournaments.desk.answers import respond, write
from tournaments.desk.forms import SwapForm
from tournaments.desk.http import (
    REFUSED,
    DeskRequest,
    desk_view,
    posted_version,
    to_int,
    tournament_seen,
)
from tournaments.desk.views.players import active
from tournaments.services import TournamentChange


@desk_view
@require_POST
def pair(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    """Pair the next round (closing the one before first, if asked)."""
    number = to_int(request.POST.get("round"))
    close_first = request.POST.get("close_first") == "1"
    expected = posted_version(request)
    if close_first and number is not None and number > 1:

        def question() -> ask.Ask:
            publish = tournament_seen(request, tournament_id).summary["settings"]["publish"]
            return ask.close_and_pair(tournament_id, number, publish == "auto")

        if answer := ask.ask_first(request, tournament_id, question):
            return answer

    def action() -> TournamentChange:
        version = expected
        if close_first and number is not None and number > 1:
            version = t.tournament_close_round(
                tournament_id=tournament_id,
                round=number - 1,
                user=request.user,
                expected_version=version,
            ).version
        return t.tournament_pair(
            tournament_id=tournament_id, round=number, user=request.user, expected_version=version
        )

    def message(change: TournamentChange) -> str:
        rnd = change.state["rounds"][-1]
        if rnd["status"] == "proposed":
            return _("Round %(round)s is paired: check the tables, swap if needed, publish.") % {
                "round": rnd["round"]
            }
        return _("Round %(round)s is paired and published.") % {"round": rnd["round"]}

    return write(request, tournament_id, action, panel="round", done=message)


@desk_view
@require_POST
def swap(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    form = SwapForm(request.POST, auto_id="swap_%s")
    where = "swap_form" if request.POST.get("via") == "form" else "swap"  # the error goes there
    if not form.is_valid():
        return respond(
            request, tournament_id, "round", status=REFUSED, errors={where: form.first_error()}
        )
    a, b = form.cleaned_data["a"], form.cleaned_data["b"]

    def message(change: TournamentChange) -> str:
        names = {p["id"]: p["name"] for p in change.state["players"]}
        return _("%(a)s and %(b)s swapped places.") % {"a": names.get(a, a), "b": names.get(b, b)}

    return write(
        request,
        tournament_id,
        lambda: t.tournament_swap(
            tournament_id=tournament_id,
            round=round,
            a=a,
            b=b,
            user=request.user,
            expected_version=posted_version(request),
        ),
        panel="round",
        done=message,
        error_at=where,
    )


def _undo_latest(
    request: DeskRequest,
    tournament_id: uuid.UUID,
    kind: str,
    round: int,
    missing: str,
    reason: str,
) -> TournamentChange:
    history = t.tournament_history(tournament_id=tournament_id, user=request.user)
    paired = active(history, domain.PAIRED, lambda d: d["round"] == round)
    event = (
        paired if kind == domain.PAIRED else active(history, kind, lambda d: d["round"] == round)
    )
    if event is None or paired is None or event["version"] < paired["version"]:
        raise Refused(missing, "bad_undo")
    return t.tournament_undo(
        tournament_id=tournament_id,
        version=event["version"],
        reason=reason,
        user=request.user,
        expected_version=posted_version(request),
    )


@desk_view
@require_POST
def undo_pairing(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    if answer := ask.ask_first(
        request, tournament_id, lambda: ask.discard_pairing(tournament_id, round)
    ):
        return answer
    return write(
        request,
        tournament_id,
        lambda: _undo_latest(
            request,
            tournament_id,
            domain.PAIRED,
            round,
            _("round %(round)s has no proposed pairing to undo") % {"round": round},
            "pairing discarded at the desk",
        ),
        panel="round",
        done=_("Round %(round)s's proposal is discarded. Pairing again gives the same tables.")
        % {"round": round},
    )


@desk_view
@require_POST
def undo_swap(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    return write(
        request,
        tournament_id,
        lambda: _undo_latest(
            request,
            tournament_id,
            domain.PAIRING_CHANGED,
            round,
            _("round %(round)s's proposal has no swap to undo") % {"round": round},
            "swap undone at the desk",
        ),
        panel="round",
        done=_("The last swap is undone."),
    )


@desk_view
@require_POST
def publish(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    if answer := ask.ask_first(request, tournament_id, lambda: ask.publish(tournament_id, round)):
        return answer

    def message(change: TournamentChange) -> str:
        tables = len(change.state["rounds"][round - 1]["tables"])
        return ngettext(
            "Round %(round)s is published: %(tables)d table is open to the scorekeepers.",
            "Round %(round)s is published: %(tables)d tables are open to the scorekeepers.",
            tables,
        ) % {"round": round, "tables": tables}

    return write(
        request,
        tournament_id,
        lambda: t.tournament_publish(
            tournament_id=tournament_id,
            round=round,
            user=request.user,
            expected_version=posted_version(request),
        ),
        panel="round",
        done=message,
    )


@desk_view
@require_POST
def confirm(request: DeskRequest, tournament_id: uuid.UUID, round: int, table: int) -> HttpResponse:
    def action() -> TournamentChange:
        try:
            return t.tournament_confirm(
                tournament_id=tournament_id,
                round=round,
                table=table,
                user=request.user,
                expected_version=posted_version(request),
            )
        except NotAllowed as refusal:  # a scorekeeper confirming a table they entered: say so
            raise Refused(refusal.message, refusal.code) from None  # by the table, not a 403

    return write(
        request,
        tournament_id,
        action,
        panel="round",
        done=_("Table %(table)s's result is confirmed.") % {"table": table},
        error_at=f"table-{table}",
        anchor=f"table-{table}",
    )


CONFIRMED = {
    "one": gettext_lazy("Table %(table)s is confirmed."),
    "many": gettext_lazy("Tables %(tables)s and %(last)s are confirmed."),
    "left": gettext_lazy("Table %(table)s is not confirmed: %(why)s."),
}


def confirmed_message(done: t.ConfirmedTables) -> str:
    """What "Confirm all finished tables" did, and which finished tables it left, and why."""
    numbers = done.confirmed
    if len(numbers) == 1:
        said = [CONFIRMED["one"] % {"table": numbers[0]}]
    else:
        tables = ", ".join(map(str, numbers[:-1]))
        said = [CONFIRMED["many"] % {"tables": tables, "last": numbers[-1]}]
    said += [CONFIRMED["left"] % {"table": n, "why": why} for n, why in done.left]
    return " ".join(said)


@desk_view
@require_POST
def confirm_finished(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    """Confirm every finished table of the round that this user may confirm, at once."""
    outcome: list[t.ConfirmedTables] = []

    def action() -> TournamentChange:
        done = t.tournament_confirm_finished(
            tournament_id=tournament_id,
            round=round,
            user=request.user,
            expected_version=posted_version(request),
        )
        outcome.append(done)
        return done.change

    return write(
        request,
        tournament_id,
        action,
        panel="round",
        done=lambda change: confirmed_message(outcome[-1]),
    )


@desk_view
@require_POST
def close_round(request: DeskRequest, tournament_id: uuid.UUID, round: int) -> HttpResponse:
    def question() -> ask.Ask | None:
        return ask.close(tournament_id, round, tournament_seen(request, tournament_id).summary)

    if answer := ask.ask_first(request, tournament_id, question):
        return answer
    return write(
        request,
        tournament_id,
        lambda: t.tournament_close_round(
            tournament_id=tournament_id,
            round=round,
            user=request.user,
            expected_version=posted_version(request),
        ),
        panel="round",
        done=_("Round %(round)s is closed.") % {"round": round},
    )


@desk_view
@require_POST
def finish(request: DeskRequest, tournament_id: uuid.UUID) -> HttpResponse:
    def question() -> ask.Ask | None:
        return ask.finish(tournament_id, tournament_seen(request, tournament_id).summary)

    if answer := ask.ask_first(request, tournament_id, question):
        return answer
    return write(
        request,
        tournament_id,
        lambda: t.tournament_finish(
            tournament_id=tournament_id,
            user=request.user,
            expected_version=posted_version(request),
        ),
        panel="round",
        done=_("The tournament is finished. Congratulations to the winners!"),
    )
